// Calls from the page. The page holds no credential: API calls go to the console's forwarding
// endpoint, which adds the emulator's own key on the server side.

/** A call that failed, with what to tell the person. */
class CallError extends Error {
  override readonly name = 'CallError';
  constructor(
    message: string,
    readonly status: number | undefined,
  ) {
    super(message);
  }
}

async function call<T>(url: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(url, init);
  } catch {
    throw new CallError(
      'The emulator did not answer: it may have stopped (start it again and reload this page), or a fault dropped the connection.',
      undefined,
    );
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    // Not JSON: kept as text.
  }
  if (!response.ok) {
    const message =
      typeof body === 'object' && body !== null && typeof (body as { message?: unknown }).message === 'string'
        ? (body as { message: string }).message
        : `HTTP ${response.status}`;
    throw new CallError(`${response.status}: ${message}`, response.status);
  }
  return body as T;
}

/** An API path (`/api/...`) as a program would call it, through the console. */
export function apiUrl(path: string): string {
  return `/console/api/proxy${path}`;
}

export function api<T>(path: string): Promise<T> {
  return call<T>(apiUrl(path));
}

/** One of the console's own endpoints (`log`, `faults`...). */
export function consoleApi<T>(name: string, method = 'GET', body?: unknown): Promise<T> {
  return call<T>(`/console/api/${name}`, {
    method,
    ...(body === undefined
      ? {}
      : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
}

/** A message for any failure. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export const enc = encodeURIComponent;
