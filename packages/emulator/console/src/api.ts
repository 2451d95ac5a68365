// Calls from the page. Opened on the machine the emulator runs on, the page holds no credential: API
// calls go to the console's forwarding endpoint, which adds the emulator's own key on the server side.
// Opened from elsewhere (another machine, or a container's host through Docker's port mapping), the
// emulator asks for a key (401): the page asks the person once and keeps it for the tab.
import { signal } from '@preact/signals';

/** Where the tab keeps the key it was given: gone when the tab closes, never sent in a URL. */
const keyItem = 'dataworkz-console-key';

/** Whether the emulator asked for a key the page does not have (or refused the one it has). */
export const keyNeeded = signal<'missing' | 'refused' | undefined>(undefined);

/** The key the person gave this tab, if any. */
function storedKey(): string | undefined {
  try {
    return sessionStorage.getItem(keyItem) ?? undefined;
  } catch {
    return undefined;
  }
}

/** Keeps the key for this tab; the page reloads to call everything again with it. */
export function keepKey(key: string): void {
  sessionStorage.setItem(keyItem, key);
  location.reload();
}

/** `headers` with the tab's key added, when it has one. */
export function withKey(headers: Record<string, string> = {}): Record<string, string> {
  const key = storedKey();
  return key === undefined ? headers : { ...headers, authorization: `SSWS ${key}` };
}

/** Notes a 401 from the console: the page shows the key form. */
export function noteRefusal(status: number): void {
  if (status === 401) keyNeeded.value = storedKey() === undefined ? 'missing' : 'refused';
}

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
    response = await fetch(url, { ...init, headers: withKey(init?.headers as Record<string, string>) });
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
    noteRefusal(response.status);
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
