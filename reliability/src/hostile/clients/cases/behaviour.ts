import type { HostileCase } from '../../../runner/case.js';
import { againstClient, allEnded, KEY, summary } from '../harness.js';
import { CALLER_BUG } from '../job.js';

/** Item 5: 100 calls that all get a 401, against a provider that revokes the previous token on refresh. */
export const concurrentRefresh: HostileCase = {
  name: '5 100 concurrent 401s, revoking refresh',
  run: (size) => {
    const calls = size === 'quick' ? 20 : 100;
    let accepted = '';
    return againstClient(
      (req, res) => {
        const authorization = req.headers.authorization ?? '';
        // The first token sent is the stale one; the first refreshed token seen becomes the valid one.
        if (accepted === '' && !authorization.endsWith('0000-WJ2M-8HTV')) accepted = authorization;
        const ok = authorization === accepted;
        res.writeHead(ok ? 200 : 401, { 'content-type': 'application/json' });
        res.end(ok ? '{}' : '{"message":"expired or revoked"}');
      },
      { call: 'qna.list', credential: { token: 'revoking' }, concurrent: calls, maxRetries: 0 },
      (report, server) => ({
        pass: allEnded(report, 'ok') && report.refreshCalls === 1 && server.requests === 2 * calls,
        note: `${summary(report)}; ${report.refreshCalls} refresh call(s), ${server.requests} requests`,
      }),
    );
  },
};

/** Item 6: an `onResponse` that throws; the caller's own error surfaces once, not retried. */
export const throwingOnResponse: HostileCase = {
  name: '6 onResponse throws',
  run: () =>
    againstClient(
      (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{}');
      },
      { call: 'qna.list', credential: { apiKey: KEY }, throwingOnResponse: true },
      (report, server) => ({
        pass:
          allEnded(report, 'TypeError') &&
          report.outcomes[0]?.message === CALLER_BUG &&
          server.requests === 1,
        note: `${summary(report)} after ${server.requests} request(s)`,
      }),
    ),
};

/** Item 7: redirects to a `data:` URL and to a Location that is no URL; neither is followed nor retried. */
function redirect(name: string, location: string): HostileCase {
  return {
    name,
    run: () =>
      againstClient(
        (_req, res) => {
          res.writeHead(302, { location });
          res.end();
        },
        { call: 'qna.list', credential: { apiKey: KEY } },
        (report, server) => ({
          pass: allEnded(report, 'RedirectError') && server.requests === 1,
          note: `${summary(report)} after ${server.requests} request(s)`,
        }),
      ),
  };
}

export const dataRedirect = redirect('7 redirect to a data: URL', 'data:application/json,{"injected":true}');
export const badLocation = redirect('7 redirect to a Location that is no URL', 'http://[not-an-ip');

/** Item 8: a named `ping` event and an empty event before the answer; the run completes. */
export const sseExtras: HostileCase = {
  name: '8 SSE ping and empty events',
  run: () =>
    againstClient(
      (_req, res, body) => {
        const { id } = JSON.parse(body) as { id: unknown };
        const event = (result: unknown) => `data: ${JSON.stringify({ jsonrpc: '2.0', id, result })}\n\n`;
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('event: ping\ndata: {}\n\n');
        res.write('data:\n\n');
        const message = {
          kind: 'message',
          role: 'agent',
          messageId: 'm',
          parts: [{ kind: 'text', text: 'done' }],
        };
        res.end(
          event({
            kind: 'status-update',
            taskId: 't',
            contextId: 'c',
            final: true,
            status: { state: 'completed', message },
          }),
        );
      },
      { call: 'streamAgent', credential: { apiKey: KEY } },
      (report) => ({ pass: allEnded(report, 'ok'), note: summary(report) }),
    ),
};

/** Item 9: a context value whose getter throws; a ContextValuesError, nothing sent. */
export const throwingGetter: HostileCase = {
  name: '9 context value getter throws',
  run: () =>
    againstClient(
      (_req, res) => res.end(),
      { call: 'contextValues', credential: { apiKey: KEY } },
      (report, server) => ({
        pass: allEnded(report, 'ContextValuesError') && server.requests === 0,
        note: `${summary(report)}, ${server.requests} request(s) sent`,
      }),
    ),
};
