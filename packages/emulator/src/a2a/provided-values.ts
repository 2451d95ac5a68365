import type { Message } from '@a2a-js/sdk';
import { readProvidedValues as readValues } from '@dataworkz/context-values';
import { AgentRunError } from '../agents/model.js';

export { providedValuesUri } from '@dataworkz/context-values';

/** Context values a message carries under the extension URI; malformed values fail the run with the reason. */
export function readProvidedValues(message: Message, uri: string): Record<string, unknown> {
  try {
    return readValues(message, uri) ?? {};
  } catch (error) {
    throw new AgentRunError(`Invalid provided values: ${(error as Error).message}`);
  }
}
