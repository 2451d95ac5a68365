export { ContextValuesError } from './errors.js';
export {
  assertContextValues,
  assertJsonValue,
  type ContextValues,
  type JsonValue,
  snapshotContextValues,
  snapshotJsonValue,
} from './json.js';
export {
  isProvidedValuesPart,
  type MessageWithParts,
  type ProvidedValuesPart,
  providedValuesPart,
  withProvidedValues,
} from './part.js';
export { readProvidedValues } from './reader.js';
export {
  type CardWithExtensions,
  EXTENSIONS_HEADER,
  extensionsHeader,
  findProvidedValuesUri,
  PROVIDED_VALUES_PATH,
  providedValuesUri,
} from './uri.js';
