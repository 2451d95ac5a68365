// An agent run served as Server-Sent Events (writeAgentSse on node:http) to a page in Chromium that
// reads it with the browser's own EventSource: a connection that drops mid-run is picked up again by
// the EventSource's reconnection (its Last-Event-ID), and the agent runs once.
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeAgentSse } from '@dataworkz/a2a';
import { Dataworkz } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, CHROMIUM_FLAGS } from './browser-harness.js';

// The page: one EventSource, every event it hears kept for the test; closed after the last one.
const PAGE = `<!doctype html><meta charset="utf-8"><title>agent</title><ul id="events"></ul><script>
window.heard = [];
window.reconnects = 0;
const source = new EventSource('/api/agent');
source.onmessage = (message) => {
  const event = JSON.parse(message.data);
  window.heard.push({ id: message.lastEventId, type: event.type, taskId: event.taskId, state: event.state, name: event.name });
  if (event.type === 'answer' || event.type === 'error') source.close();
};
source.onerror = () => { window.reconnects += 1; };
</script>`;

type Heard = { id: string; type: string; taskId?: string; state?: string; name?: string };

let emu: Emulator;
let dw: Dataworkz;
let server: Server;
let origin: string;
let workDir: string;
let browser: BrowserContext;
/** Set by a test: the route cuts the browser's connection after this many events of its first request. */
let cutAfterEvents: number | undefined;
const lastEventIds: (string | undefined)[] = [];

/** Closes the socket once `events` events have been written (after they are flushed): the browser's connection drops. */
function cutAfter(res: ServerResponse, events: number): void {
  const write = res.write.bind(res) as (chunk: string) => boolean;
  let sent = 0;
  res.write = ((chunk: string) => {
    const ok = write(chunk);
    if (chunk.startsWith('id:') && ++sent === events) res.socket?.end();
    return ok;
  }) as typeof res.write;
}

function agentRuns(): { started: number; followed: number } {
  const methods = emu.requests
    .filter((request) => request.path.endsWith('/stream'))
    .map((request) => (JSON.parse(request.body) as { method: string }).method);
  return {
    started: methods.filter((method) => method === 'message/stream').length,
    followed: methods.filter((method) => method === 'tasks/resubscribe').length,
  };
}

async function heardAll(page: Page): Promise<Heard[]> {
  await expect
    .poll(async () => ((await page.evaluate('window.heard')) as Heard[]).at(-1)?.type)
    .toMatch(/^(answer|error)$/);
  return (await page.evaluate('window.heard')) as Heard[];
}

beforeAll(async () => {
  // Agent-only: no embedding model to load. Steps 100 ms apart, so a cut lands mid-run.
  emu = await startEmulator({ port: 0, host: '127.0.0.1', embed: false, agentStepDelayMs: 100 });
  dw = new Dataworkz({ baseUrl: emu.url, apiKey: emu.apiKey, maxRetries: 0 });
  server = createServer((req, res) => {
    if (req.url !== '/api/agent') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
      return;
    }
    const lastEventId = req.headers['last-event-id'];
    lastEventIds.push(lastEventId as string | undefined);
    if (cutAfterEvents !== undefined && lastEventId === undefined) cutAfter(res, cutAfterEvents);
    // A short reconnection delay keeps the test quick; the browser's own is about 3 s.
    void writeAgentSse(dw, seed.agents.orderStatus.agentId, { text: 'Where is order 1001?' }, res, {
      lastEventId,
      retryMs: 100,
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  workDir = mkdtempSync(join(tmpdir(), 'dataworkz-sse-'));
  browser = await chromium.launchPersistentContext(join(workDir, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
  });
});

afterAll(async () => {
  await browser?.close();
  server?.close();
  await emu?.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

afterEach(() => {
  cutAfterEvents = undefined;
  lastEventIds.length = 0;
  emu.faults.clear();
  emu.clearRequests();
});

describe("an agent run as Server-Sent Events, read by Chromium's EventSource", () => {
  it('a connection dropped after three events is resumed by the reconnection: one agent run, the answer whole', async () => {
    cutAfterEvents = 3;
    const page = await browser.newPage();
    await page.goto(origin);
    const heard = await heardAll(page);
    await page.close();
    expect(heard.at(-1)).toMatchObject({ type: 'answer', state: 'completed' });
    // The EventSource reconnected once, naming the third event, and the route followed that task.
    expect(lastEventIds).toEqual([undefined, heard[2]?.id]);
    const taskId = heard.at(-1)?.taskId as string;
    expect(heard[2]?.id).toBe(`${taskId}:3`);
    expect(heard.every((event) => event.taskId === taskId)).toBe(true);
    // Numbered on without a gap: the client saw 1..3, then 4.. from the followed task.
    expect(heard.map((event) => Number(event.id.split(':')[1]))).toEqual(heard.map((_, index) => index + 1));
    expect(agentRuns()).toEqual({ started: 1, followed: 1 });
  });

  it("the agent's stream dropped after three events is resumed inside the run: the page sees one whole stream", async () => {
    emu.faults.add({ route: 'streamAgent', dropAfterEvents: 3 });
    const page = await browser.newPage();
    await page.goto(origin);
    const heard = await heardAll(page);
    await page.close();
    expect(heard.at(-1)).toMatchObject({ type: 'answer', state: 'completed' });
    expect(lastEventIds).toEqual([undefined]);
    expect(agentRuns()).toEqual({ started: 1, followed: 1 });
  });
});
