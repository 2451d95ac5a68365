import type { Emulator } from '@dataworkz/emulator';

export interface Answer {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

/** One request to the emulator with its key; the body is read whole and parsed when it is JSON. */
export async function call(emulator: Emulator, path: string, init: RequestInit = {}): Promise<Answer> {
  const headers = new Headers(init.headers);
  if (!headers.has('authorization')) headers.set('authorization', `SSWS ${emulator.apiKey}`);
  const response = await fetch(`${emulator.url}${path}`, {
    ...init,
    headers,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  let json: unknown;
  if (response.headers.get('content-type')?.includes('json')) json = JSON.parse(text);
  return { status: response.status, headers: response.headers, text, json };
}

/** Narrows an unknown JSON body to a record for property checks. */
export function obj(value: unknown): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('expected a JSON object');
  return value as Record<string, unknown>;
}

export const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
