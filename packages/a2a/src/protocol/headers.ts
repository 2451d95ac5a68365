/**
 * The request headers that differ by version: v1.0 names its version in `A2A-Version` (no header
 * means 0.3) and renamed `X-A2A-Extensions` to `A2A-Extensions`.
 */
export function protocolHeaders(
  version: '0.3' | '1.0',
  extensions: readonly string[],
): Record<string, string> {
  const headers: Record<string, string> = {};
  if (version === '1.0') headers['A2A-Version'] = '1.0';
  if (extensions.length > 0) {
    headers[version === '1.0' ? 'A2A-Extensions' : 'X-A2A-Extensions'] = extensions.join(', ');
  }
  return headers;
}

/** The JSON-RPC method names of each version. */
export const METHODS = {
  '0.3': {
    stream: 'message/stream',
    resubscribe: 'tasks/resubscribe',
    get: 'tasks/get',
    cancel: 'tasks/cancel',
  },
  '1.0': {
    stream: 'SendStreamingMessage',
    resubscribe: 'SubscribeToTask',
    get: 'GetTask',
    cancel: 'CancelTask',
  },
} as const;
