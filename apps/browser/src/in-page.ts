// `?mode=in-process`: the emulator runs inside this page, and the client reaches it through its
// `fetch`, so the page works with no server at all. Loaded only in that mode, as its own chunk.

export interface InPageService {
  baseUrl: string;
  apiKey: string;
  fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response>;
}

export async function startInPage(): Promise<InPageService> {
  const { createEmulator } = await import('@dataworkz/emulator');
  const emulator = createEmulator();
  await emulator.ready;
  // Any origin will do: requests never leave the page.
  return { baseUrl: 'https://dw.example', apiKey: emulator.apiKey, fetch: emulator.fetch };
}
