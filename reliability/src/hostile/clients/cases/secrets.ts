import type { HostileCase } from '../../../runner/case.js';
import { againstClient, type HostileHandler, KEY, summary } from '../harness.js';

/** Items 3 and 4: a server echoing the credential back; no error may show any 6-character piece of it. */
function echo(name: string, handler: HostileHandler, job: Parameters<typeof againstClient>[1]): HostileCase {
  return {
    name,
    run: () =>
      againstClient(handler, job, (report) => ({
        pass: report.leaks.length === 0 && report.outcomes.every((o) => o.result !== 'ok'),
        note: `${summary(report)}; ${report.leaks.length === 0 ? 'no fragment of a credential' : `leaked: ${report.leaks.join(' ')}`}`,
      })),
  };
}

export const echoedHeader = echo(
  '3 credential echoed in a response header',
  (req, res) => {
    res.writeHead(400, {
      'content-type': 'application/json',
      'x-echo-authorization': req.headers.authorization ?? '',
    });
    res.end('{"message":"no"}');
  },
  { call: 'qna.list', credential: { apiKey: KEY } },
);

export const straddlingCut = echo(
  '4 credential straddling the 64 KiB cut',
  (req, res) => {
    res.writeHead(500, { 'content-type': 'text/plain' });
    res.end(`${'.'.repeat(64 * 1024 - 17)}${req.headers.authorization}${'.'.repeat(100 * 1024)}`);
  },
  { call: 'qna.list', credential: { apiKey: KEY }, maxRetries: 0 },
);

export const escapedRpcId = echo(
  '4 credential JSON-escaped as a JSON-RPC id',
  (req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    const result = {
      kind: 'status-update',
      taskId: 't',
      contextId: 'c',
      final: false,
      status: { state: 'working' },
    };
    res.end(`data: ${JSON.stringify({ jsonrpc: '2.0', id: req.headers.authorization, result })}\n\n`);
  },
  { call: 'streamAgent', credential: { apiKey: 'QXK7-"quoted\\key"-WJ2M' } },
);

export const mintedTokens = echo(
  '4 a new token per call, 8 calls echoed at once',
  (req, res) => {
    // Late, so that every call has minted its token before the first error is built.
    setTimeout(() => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ message: `rejected ${req.headers.authorization}` }));
    }, 50);
  },
  { call: 'qna.list', credential: { token: 'minted' }, concurrent: 8 },
);
