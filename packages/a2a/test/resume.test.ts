import {
  type AgentEvent,
  type AgentResumedEvent,
  type FinalAnswer,
  IncompleteStreamError,
  ResumeFailedError,
  type StreamAgentOptions,
  StreamIdleTimeoutError,
  SVC_STATUS_UPDATE,
  streamAgent,
} from '@dataworkz/a2a';
import {
  APIConnectionError,
  APIUserAbortError,
  Dataworkz,
  DataworkzError,
  InternalServerError,
} from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { methodsSent, streamsClosed } from './support/emulator-streams.js';
import {
  type RawHandler,
  type RawServer,
  requestId,
  sseResult,
  startRawServer,
} from './support/raw-server.js';
import { clientSpeaking } from './support/speaking.js';

const apiKey = 'resume-suite-key';
const agentId = seed.agents.orderStatus.agentId;
const question = 'Where is order 1001?';
// Quick attempts: the suite is about what happens, not how long it waits.
const quick = { initialDelayMs: 5, maxDelayMs: 20, pollIntervalMs: 10 };

let emu: Emulator;
let dw: Dataworkz;
let uncut: { answer: FinalAnswer; events: AgentEvent[] };
/** Called as each request of `dw` to an agent's stream endpoint starts, before it is sent. */
let onStreamRequest: () => void = () => {};

async function collect(options: Partial<StreamAgentOptions> = {}) {
  const run = streamAgent(dw, agentId, { text: question, resume: quick, ...options });
  const events: AgentEvent[] = [];
  for await (const event of run) events.push(event);
  return { events, answer: await run.finalAnswer() };
}

// Artifact ids name their task: compared without them.
function withoutIds(answer: FinalAnswer) {
  return answer.artifacts.map(({ artifactId: _id, ...artifact }) => artifact);
}

function answerText(answer: FinalAnswer): string {
  return answer.artifacts
    .flatMap((artifact) => artifact.parts.map((part) => ('text' in part ? part.text : '')))
    .join('');
}

/** The emulator's answer to a request in a version it does not serve. */
async function versionRefusal(server: Emulator): Promise<unknown> {
  const response = await fetch(`${server.url}/api/agents/v1/a2a/${agentId}/stream`, {
    method: 'POST',
    headers: { authorization: `SSWS ${apiKey}`, 'content-type': 'application/json', 'a2a-version': '0.1' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/stream', params: {} }),
  });
  return response.json();
}

// The same suite against the emulator speaking each version: the client picks v1.0 from the card.
const methodNames = {
  '0.3': { stream: 'message/stream', resubscribe: 'tasks/resubscribe', get: 'tasks/get' },
  '1.0': { stream: 'SendStreamingMessage', resubscribe: 'SubscribeToTask', get: 'GetTask' },
} as const;

describe.each(['0.3', '1.0'] as const)('over A2A %s', (version) => {
  const m = methodNames[version];
  beforeAll(async () => {
    // Steps take a while and the answer comes as artifact chunks: a cut lands mid-run, the run goes on.
    emu = await startEmulator({
      port: 0,
      apiKeys: [apiKey],
      agentStepDelayMs: 15,
      answerArtifactChunkChars: 12,
      a2aVersion: version,
    });
    dw = await clientSpeaking(version, emu.url, apiKey, {
      fetch: (request) => {
        if (new URL(request.url).pathname.endsWith('/stream')) onStreamRequest();
        return fetch(request);
      },
    });
    const { events, answer } = await collect();
    // One event per stream event: the cut points below count in them.
    uncut = { answer, events };
  });
  afterAll(() => emu.close());
  afterEach(async () => {
    onStreamRequest = () => {};
    emu.faults.clear();
    emu.clearRequests();
    await streamsClosed(emu);
  });

  it('a new client speaks v0.3 first; an agent that refuses it is read from its card and spoken to in v1.0', async () => {
    if (version === '1.0') {
      // A deployment that serves v1.0 alone: the emulator's own -32009 answer to the v0.3 request.
      emu.faults.add({
        route: 'streamAgent',
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify(await versionRefusal(emu)),
        times: 1,
      });
    }
    emu.clearRequests();
    const fresh = new Dataworkz({ baseUrl: emu.url, apiKey, maxRetries: 0 });
    const answer = await streamAgent(fresh, agentId, { text: question }).finalAnswer();
    expect(answer.answer).toBe(uncut.answer.answer);
    const cards = emu.requests.filter((request) => request.path.endsWith('agent-card.json'));
    if (version === '0.3') {
      expect(methodsSent(emu)).toEqual(['message/stream']);
      expect(cards).toHaveLength(0);
    } else {
      expect(methodsSent(emu)).toEqual(['message/stream', 'SendStreamingMessage']);
      expect(cards).toHaveLength(1);
      expect(emu.requests.at(-1)?.headers['a2a-version']).toBe('1.0');
    }
  });

  describe('a stream cut midway is resumed', () => {
    it('the uncut run streams its answer as artifact chunks (what the cuts below land in)', () => {
      const chunks = uncut.events.filter((event) => event.type === 'artifact');
      expect(chunks.length).toBeGreaterThan(3);
      expect(answerText(uncut.answer)).toBe(uncut.answer.answer);
      expect(uncut.answer.state).toBe('completed');
    });

    it.each([
      ['after the task', 1],
      ['after the first task update', 2],
      ['among the task updates', 4],
      ['after the first answer chunk', -4],
      ['among the answer chunks', -3],
      ['right before the final event', -1],
    ])('cut %s: the same final answer and artifacts, nothing twice', async (_where, at) => {
      const cutAfter = at > 0 ? at : uncut.events.length + at;
      emu.faults.add({ route: 'streamAgent', dropAfterEvents: cutAfter, times: 1 });
      const { events, answer } = await collect();

      expect(answer.answer).toBe(uncut.answer.answer);
      expect(answer.state).toBe('completed');
      expect(withoutIds(answer)).toEqual(withoutIds(uncut.answer));
      expect(answerText(answer)).toBe(uncut.answer.answer);
      expect(answer.taskId).toBe(events[0]?.taskId);

      const resumed = events.filter((event): event is AgentResumedEvent => event.type === 'resumed');
      expect(resumed).toHaveLength(1);
      const [gap] = resumed as [AgentResumedEvent];
      // A v1.0 server refuses to subscribe to a task that has ended: always after the last cut, and
      // after a late one when the task ends during the gap (a busy machine); the run reads the task
      // then. A v0.3 server answers with the ended task.
      const refused = gap.via === 'poll';
      if (version === '0.3') expect(refused).toBe(false);
      if (at === -1) expect(refused).toBe(version === '1.0');
      if (refused) expect(at).toBeLessThan(0);
      expect(gap).toMatchObject({ attempts: refused ? 2 : 1, taskId: answer.taskId, final: false });
      expect(gap.error).toBeInstanceOf(APIConnectionError);
      expect(gap.gapMs).toBeGreaterThanOrEqual(0);

      // Task updates during the gap may be missing; none is delivered twice.
      const updates = events.filter((event) => event.type === 'task-update').map((event) => event.data);
      const uncutUpdates = uncut.events.filter((event) => event.type === 'task-update').map((e) => e.data);
      expect(updates.length).toBeLessThanOrEqual(uncutUpdates.length);
      expect(new Set(updates.map((update) => JSON.stringify(update))).size).toBe(updates.length);
      expect(events.filter((event) => event.final)).toHaveLength(1);

      expect(methodsSent(emu)).toEqual(
        refused ? [m.stream, m.resubscribe, m.get] : [m.stream, m.resubscribe],
      );
      await streamsClosed(emu);
      expect(emu.openStreams).toBe(0);
    });

    it('a cut before the task is named is not resumed: nothing would say which task to resume', async () => {
      emu.faults.add({ route: 'streamAgent', dropAfterEvents: 0, times: 1 });
      await expect(collect()).rejects.toBeInstanceOf(APIConnectionError);
      expect(methodsSent(emu)).toEqual([m.stream]);
    });

    it('resume: false lets the break end the run', async () => {
      emu.faults.add({ route: 'streamAgent', dropAfterEvents: 3, times: 1 });
      const error = await collect({ resume: false }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(APIConnectionError);
      expect(error).not.toBeInstanceOf(ResumeFailedError);
      expect(methodsSent(emu)).toEqual([m.stream]);
    });

    it('when the agent refuses resubscription, the task is read until it ends', async () => {
      emu.faults.add({ route: 'streamAgent', dropAfterEvents: 3, times: 1 });
      emu.faults.add({
        route: 'streamAgent',
        status: 200,
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          error: { code: -32004, message: 'Resubscription is not supported' },
        }),
        times: 1,
      });
      const { events, answer } = await collect();
      expect(answer.answer).toBe(uncut.answer.answer);
      expect(withoutIds(answer)).toEqual(withoutIds(uncut.answer));
      const resumed = events.filter((event) => event.type === 'resumed');
      expect(resumed).toMatchObject([{ via: 'poll' }]);
      expect(events.at(-1)).toMatchObject({ type: 'task', state: 'completed', final: true });
      const methods = methodsSent(emu);
      expect(methods.slice(0, 2)).toEqual([m.stream, m.resubscribe]);
      expect(methods.slice(2).length).toBeGreaterThan(0);
      expect(methods.slice(2).every((method) => method === m.get)).toBe(true);
    });

    it('gives up after the configured attempts with ResumeFailedError, the last failure as its cause', async () => {
      emu.faults.add({ route: 'streamAgent', dropAfterEvents: 3, times: 1 });
      emu.faults.add({ route: 'streamAgent', status: 503, times: 100 });
      const error = await collect({ resume: { ...quick, maxAttempts: 3 } }).catch(
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ResumeFailedError);
      expect(error).toBeInstanceOf(APIConnectionError);
      const failed = error as ResumeFailedError;
      expect(failed.resumeAttempts).toBe(3);
      expect(failed.cause).toBeInstanceOf(InternalServerError);
      expect(failed.streamError).toBeInstanceOf(APIConnectionError);
      expect(failed.taskId).toMatch(/\S/);
      expect(failed.message).not.toContain(apiKey);
      expect(methodsSent(emu)).toEqual([m.stream, m.resubscribe, m.resubscribe, m.resubscribe]);
    });

    it("a user's abort during the gap stops resuming at once", async () => {
      emu.faults.add({ route: 'streamAgent', dropAfterEvents: 2, times: 1 });
      emu.faults.add({ route: 'streamAgent', status: 503, times: 1000 });
      const controller = new AbortController();
      // The client's own fetch tells when each request to the stream endpoint starts: the abort comes
      // as the first resume attempt starts, that is during the gap, however slowly the machine runs.
      let started = 0;
      let startedAfterAbort = 0;
      onStreamRequest = () => {
        if (controller.signal.aborted) startedAfterAbort++;
        else if (++started === 2) queueMicrotask(() => controller.abort());
      };
      const run = streamAgent(dw, agentId, {
        text: question,
        signal: controller.signal,
        resume: { initialDelayMs: 30, maxDelayMs: 30, maxAttempts: 1000 },
      });
      let caught: unknown;
      try {
        for await (const _event of run) {
          // Read to the end.
        }
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(APIUserAbortError);
      expect(started).toBe(2);
      // A request already on its way when the abort came may still land; none starts after it.
      expect(startedAfterAbort).toBe(0);
      await expect(run.finalAnswer()).rejects.toBeInstanceOf(APIUserAbortError);
      expect(startedAfterAbort).toBe(0);
    });

    it('errors that are not breaks are not resumed', async () => {
      emu.faults.add({ route: 'streamAgent', malformed: true, times: 1 });
      const error = await collect().catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DataworkzError);
      expect(error).not.toBeInstanceOf(APIConnectionError);
      expect(methodsSent(emu)).toEqual([m.stream]);
    });
  });
});

describe('resuming against an agent of its own making', () => {
  let server: RawServer;
  let handler: RawHandler = (_req, res) => {
    res.end();
  };
  let raw: Dataworkz;
  const methods: string[] = [];

  beforeAll(async () => {
    server = await startRawServer((req, res, body) => {
      methods.push((body as { method: string }).method);
      return handler(req, res, body);
    });
    raw = new Dataworkz({ baseUrl: server.url, apiKey, maxRetries: 0 });
  });
  afterAll(() => server.close());
  afterEach(() => {
    methods.length = 0;
  });

  const step = {
    kind: 'message',
    role: 'agent',
    messageId: 'm-step-1',
    parts: [
      {
        kind: 'data',
        data: { type: 'Planning', message: 'Planning' },
        metadata: { type: SVC_STATUS_UPDATE },
      },
    ],
  };
  const task = (state: string, message?: unknown, artifacts?: unknown[]) => ({
    kind: 'task',
    id: 't-1',
    contextId: 'c-1',
    status: { state, ...(message ? { message } : {}) },
    ...(artifacts ? { artifacts } : {}),
  });
  const answer = {
    kind: 'message',
    role: 'agent',
    messageId: 'm-answer',
    parts: [{ kind: 'text', text: 'Done' }],
  };

  it('an idle time-out is a break: the stalled connection is closed and the task resubscribed', async () => {
    handler = (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if ((body as { method: string }).method === 'message/stream') {
        res.write(sseResult(requestId(body), task('working')));
        return; // Then nothing.
      }
      res.end(sseResult(requestId(body), task('completed', answer)));
    };
    const run = streamAgent(raw, 'agent-1', { text: 'Hi', idleTimeoutMs: 100, resume: quick });
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    const resumed = events.find((event): event is AgentResumedEvent => event.type === 'resumed');
    expect(resumed?.error).toBeInstanceOf(StreamIdleTimeoutError);
    expect((await run.finalAnswer()).answer).toBe('Done');
    expect(methods).toEqual(['message/stream', 'tasks/resubscribe']);
    await server.responseClosed();
    expect(server.openConnections).toBe(0);
  });

  it('a server that replays the same event on every resubscription runs out of attempts', async () => {
    handler = (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      const working = {
        kind: 'status-update',
        taskId: 't-1',
        contextId: 'c-1',
        final: false,
        status: { state: 'working' },
      };
      res.end(sseResult(requestId(body), working));
    };
    const run = streamAgent(raw, 'agent-1', { text: 'Hi', resume: { ...quick, maxAttempts: 3 } });
    const error = await run.finalAnswer().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResumeFailedError);
    expect((error as ResumeFailedError).resumeAttempts).toBe(3);
    expect(methods).toEqual([
      'message/stream',
      'tasks/resubscribe',
      'tasks/resubscribe',
      'tasks/resubscribe',
    ]);
  });

  it('a server that cuts every stream, resubscriptions too, ends the run within resume.maxTotalMs', async () => {
    // Each stream names the task and makes progress, so the attempts never run out: only the time does.
    let sent = 0;
    handler = (_req, res, body) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      sent++;
      const progress = {
        kind: 'status-update',
        taskId: 't-1',
        contextId: 'c-1',
        final: false,
        status: { state: 'working', message: { ...step, messageId: `m-${sent}` } },
      };
      res.write(sseResult(requestId(body), task('working')));
      res.end(sseResult(requestId(body), progress));
    };
    const started = Date.now();
    const run = streamAgent(raw, 'agent-1', {
      text: 'Hi',
      resume: { ...quick, maxAttempts: 3, maxTotalMs: 400 },
    });
    const error = await run.finalAnswer().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResumeFailedError);
    const failure = error as ResumeFailedError;
    expect(failure.message).toContain('resume.maxTotalMs');
    // No attempt starts past the bound; the one under way when it is reached may finish just after.
    expect(failure.resumeMs).toBeGreaterThan(0);
    expect(failure.resumeMs).toBeLessThan(400 + 2000);
    expect(failure.streamError).toBeInstanceOf(IncompleteStreamError);
    expect(methods.filter((method) => method === 'tasks/resubscribe').length).toBeGreaterThan(3);
    // Bounded by the option, not by a run time-out (none is set): well under the default five minutes.
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a task read that never ends ends the run within resume.maxTotalMs', async () => {
    handler = (_req, res, body) => {
      const { method } = body as { method: string };
      if (method === 'tasks/get') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: requestId(body), result: task('working') }));
        return;
      }
      if (method === 'tasks/resubscribe') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: requestId(body),
            error: { code: -32004, message: 'Unsupported' },
          }),
        );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sseResult(requestId(body), task('working')));
    };
    const run = streamAgent(raw, 'agent-1', {
      text: 'Hi',
      // A second rather than less: on a loaded machine the first reads alone can take a few hundred ms,
      // and the test needs several polls inside the bound.
      resume: { ...quick, pollIntervalMs: 20, maxTotalMs: 1_000 },
    });
    const error = await run.finalAnswer().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ResumeFailedError);
    expect((error as ResumeFailedError).message).toContain('resume.maxTotalMs (1000 ms');
    expect(methods.filter((method) => method === 'tasks/get').length).toBeGreaterThan(2);
  });

  it('a resubscription that ends after its snapshot turns to reading the task; no step is told twice', async () => {
    let polls = 0;
    handler = (_req, res, body) => {
      const { method } = body as { method: string };
      const id = requestId(body);
      if (method === 'tasks/get') {
        polls += 1;
        const result =
          polls < 3
            ? task('working', step)
            : task('completed', answer, [{ artifactId: 'a', parts: [{ kind: 'text', text: 'Done' }] }]);
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id, result }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      if (method === 'message/stream') {
        res.write(sseResult(id, task('submitted')));
        res.end(
          sseResult(id, {
            kind: 'status-update',
            taskId: 't-1',
            contextId: 'c-1',
            final: false,
            status: { state: 'working', message: step },
          }),
        );
      } else res.end(sseResult(id, task('working', step)));
    };
    const run = streamAgent(raw, 'agent-1', { text: 'Hi', resume: quick });
    const events: AgentEvent[] = [];
    for await (const event of run) events.push(event);
    expect(methods).toEqual(['message/stream', 'tasks/resubscribe', 'tasks/get', 'tasks/get', 'tasks/get']);
    expect(events.filter((event) => event.type === 'task-update')).toHaveLength(1);
    expect(
      events.filter((event) => event.type === 'resumed').map((event) => (event as AgentResumedEvent).via),
    ).toEqual(['resubscribe', 'poll']);
    const final = await run.finalAnswer();
    expect(final).toMatchObject({ answer: 'Done', state: 'completed', taskId: 't-1' });
    expect(final.artifacts).toEqual([{ artifactId: 'a', parts: [{ kind: 'text', text: 'Done' }] }]);
  });
});
