import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import * as formatsModule from 'ajv-formats';
import { parse } from 'yaml';

const specPath = fileURLToPath(new URL('../../../../spec/openapi.yaml', import.meta.url));
const spec = parse(readFileSync(specPath, 'utf8')) as {
  paths: Record<string, Record<string, { operationId?: string; responses: Record<string, unknown> }>>;
  components: { responses: Record<string, { content: Record<string, { schema: unknown }> }> };
};

// The spec is OpenAPI 3.1, whose schemas are JSON Schema 2020-12; `example` is an OpenAPI annotation.
const ajv = new Ajv2020({ strict: false, allErrors: true });
// ajv-formats is CommonJS: under NodeNext its default import is the module object.
const addFormats = formatsModule.default as unknown as (ajv: Ajv2020) => Ajv2020;
addFormats(ajv);
ajv.addFormat('int32', {
  type: 'number',
  validate: (n: number) => Number.isInteger(n) && Math.abs(n) < 2 ** 31,
});
ajv.addFormat('int64', { type: 'number', validate: (n: number) => Number.isInteger(n) });
const specId = 'https://spec.dataworkz.local/openapi.json';
ajv.addSchema({ ...spec, $id: specId });

const pointer = (...parts: string[]) =>
  parts.map((p) => p.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** The operationIds of the spec, with their method and path. */
export const operations = Object.entries(spec.paths).flatMap(([path, methods]) =>
  Object.entries(methods).map(([method, op]) => ({ operationId: op.operationId ?? '', method, path })),
);

/** A validator for one response of an operation, from the spec itself. */
function responseValidator(
  operationId: string,
  status = '200',
  mediaType = 'application/json',
): ValidateFunction {
  const op = operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`No operation ${operationId} in the spec`);
  let response = spec.paths[op.path]?.[op.method]?.responses[status] as
    | { $ref?: string; content?: Record<string, unknown> }
    | undefined;
  let at = pointer('paths', op.path, op.method, 'responses', status);
  if (response?.$ref) {
    const name = response.$ref.split('/').pop() ?? '';
    response = spec.components.responses[name];
    at = pointer('components', 'responses', name);
  }
  if (!response?.content?.[mediaType])
    throw new Error(`${operationId} has no ${status} ${mediaType} response`);
  const validate = ajv.getSchema(`${specId}#/${at}/${pointer('content', mediaType, 'schema')}`);
  if (!validate) throw new Error(`Cannot compile the schema of ${operationId} ${status}`);
  return validate;
}

/** Asserts a body matches the spec's schema for the operation's response, with ajv's errors on failure. */
export function expectMatchesSpec(operationId: string, body: unknown, status = '200'): void {
  const validate = responseValidator(operationId, status);
  if (!validate(body)) {
    throw new Error(`${operationId} ${status} does not match the spec: ${ajv.errorsText(validate.errors)}`);
  }
}

/** A schema from components, for bodies that are not a whole response (e.g. the Error body of a 4xx). */
export function componentValidator(name: string): ValidateFunction {
  const validate = ajv.getSchema(`${specId}#/components/schemas/${name}`);
  if (!validate) throw new Error(`No component schema ${name}`);
  return validate;
}
