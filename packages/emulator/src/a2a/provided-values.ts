import type { Message } from '@a2a-js/sdk';

/** The provided-values extension URI under a deployment's extension base. */
export function providedValuesUri(extensionBase: string): string {
  return `${extensionBase.replace(/\/+$/, '')}/agents/ext/provided-values/v1`;
}

/**
 * Context values carried by a message: every `data` part whose metadata marks it with the
 * extension URI (`{[uri]: true}`). Later parts override earlier ones.
 */
export function readProvidedValues(message: Message, uri: string): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const part of message.parts ?? []) {
    if (part.kind !== 'data' || part.metadata?.[uri] !== true) continue;
    if (typeof part.data === 'object' && part.data !== null && !Array.isArray(part.data))
      Object.assign(values, part.data);
  }
  return values;
}
