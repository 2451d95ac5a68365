import { once } from 'node:events';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HostileCase } from '../../../runner/case.js';
import { againstEmulator, KEY, request, timed } from '../harness.js';

// Issue 47, run again as an outsider would: a peer at another address, a hostile cassette, a
// prepared export folder, a path that climbs out of the deployment's base URL.

/** This machine's first IPv4 address that is not a loopback one. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal)?.address;

interface Raw {
  status: number;
  text: string;
}

/** A request to 127.0.0.1 with headers as written (Host included), leaving from `from`; cut after 3 s. */
function raw(
  port: number,
  from: string | undefined,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers,
        setHost: false,
        agent: false,
        ...(from ? { localAddress: from } : {}),
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        const done = () => resolve({ status: res.statusCode ?? 0, text });
        res.on('end', done);
        setTimeout(() => {
          req.destroy();
          done();
        }, 3000).unref();
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** High: a peer elsewhere, claiming to be 127.0.0.1, against the console of an emulator on every interface. */
export const consoleFromElsewhere: HostileCase = {
  name: '47 console from another address, Host: 127.0.0.1',
  run: async () => {
    const folder = await mkdtemp(join(tmpdir(), 'hostile-console-'));
    try {
      return await againstEmulator(
        { console: true, host: '0.0.0.0', exportOnExit: join(folder, 'state') },
        async (emu) => {
          if (outside === undefined) return { pass: false, note: 'this machine has no non-loopback address' };
          const port = Number(new URL(emu.url).port);
          const claims = {
            host: `127.0.0.1:${port}`,
            origin: `http://127.0.0.1:${port}`,
            'sec-fetch-site': 'same-origin',
            'content-type': 'application/json',
          };
          const attacks: [string, string, string?][] = [
            ['GET', '/console/api/proxy/api/qna/v1/systems'],
            ['POST', '/console/api/faults', '{"status":503}'],
            ['POST', '/console/api/state/export'],
            ['GET', '/console/api/log'],
            ['GET', '/console/api/events'],
            ['GET', '/console/api/key'],
          ];
          const seen: string[] = [];
          let pass = true;
          let slowest = 0;
          for (const [method, path, body] of attacks) {
            const { value, ms } = await timed(() => raw(port, outside, method, path, claims, body));
            slowest = Math.max(slowest, ms);
            seen.push(`${method} ${path.replace('/console/api/', '')}: ${value.status}`);
            pass &&= value.status === 401 && !value.text.includes(KEY);
          }
          const exported = await readdir(folder);
          const next = await request(emu, '/api/agents/v1/');
          pass &&= exported.length === 0 && next.status === 200;
          return {
            pass,
            note: `${seen.join(', ')}; files exported: ${exported.length}; next call: ${next.status}`,
            answerMs: slowest,
          };
        },
      );
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  },
};

/** Medium: a cassette whose stream pauses 24.8 days, opened eight times against a limit of four. */
export const replayedStreams: HostileCase = {
  name: '47 replayed streams past the limits',
  run: async () => {
    const folder = await mkdtemp(join(tmpdir(), 'hostile-replay-'));
    const body = '{"jsonrpc":"2.0","method":"message/stream","params":{}}';
    const entry = {
      startedDateTime: '2026-01-01T00:00:00.000Z',
      time: 1,
      request: {
        method: 'POST',
        url: 'https://dw.example/api/agents/v1/a2a/a/stream',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [],
        queryString: [],
        postData: { mimeType: 'application/json', text: body },
        headersSize: -1,
        bodySize: body.length,
      },
      response: {
        status: 200,
        statusText: 'OK',
        httpVersion: 'HTTP/1.1',
        cookies: [],
        headers: [{ name: 'content-type', value: 'text/event-stream' }],
        content: { size: 0, mimeType: 'text/event-stream' },
        redirectURL: '',
        headersSize: -1,
        bodySize: 0,
      },
      cache: {},
      timings: { send: 0, wait: 0, receive: 0 },
      _events: [
        { time: 0, data: '{"n":1}' },
        { time: 2 ** 31 - 1, data: '{"n":2}' },
      ],
    };
    const cassette = join(folder, 'long-pause.har');
    await writeFile(
      cassette,
      JSON.stringify({ log: { version: '1.2', creator: { name: 'h', version: '1' }, entries: [entry] } }),
    );
    try {
      return await againstEmulator(
        { replay: cassette, limits: { maxConcurrentStreams: 4, streamTimeoutMs: 1500 } },
        async (emu) => {
          const { value, ms } = await timed(() =>
            Promise.all(
              Array.from({ length: 8 }, () =>
                request(emu, '/api/agents/v1/a2a/a/stream', {
                  method: 'POST',
                  headers: { 'content-type': 'application/json' },
                  body,
                  timeoutMs: 10_000,
                }),
              ),
            ),
          );
          const statuses = value.map((a) => a.status).sort();
          const opened = statuses.filter((s) => s === 200).length;
          const refused = statuses.filter((s) => s === 429).length;
          return {
            pass: opened === 4 && refused === 4,
            note: `8 streams, limit 4, time-out 1.5 s: ${opened} opened (all ended), ${refused} refused with 429`,
            answerMs: ms,
          };
        },
      );
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  },
};

/** Medium: an export folder with a planted temporary name and a planted link where a file goes. */
export const exportThroughLink: HostileCase = {
  name: '47 state export through planted links',
  run: async () => {
    const folder = await mkdtemp(join(tmpdir(), 'hostile-export-'));
    const state = join(folder, 'state');
    const victim = join(folder, 'victim.txt');
    try {
      return await againstEmulator({ exportOnExit: state }, async (emu) => {
        await writeFile(victim, 'keep me\n');
        await rm(state, { recursive: true, force: true });
        await mkdir(state);
        await symlink(victim, join(state, 'systems.json.tmp'));
        const first = await request(emu, '/_emulator/state/export', { method: 'POST' });
        const afterTmp = await readFile(victim, 'utf8');
        await rm(join(state, 'conversations.json'));
        await symlink(victim, join(state, 'conversations.json'));
        const second = await request(emu, '/_emulator/state/export', { method: 'POST' });
        const afterLink = await readFile(victim, 'utf8');
        const untouched = afterTmp === 'keep me\n' && afterLink === 'keep me\n';
        return {
          pass: first.status === 200 && second.status === 409 && untouched,
          note: `planted systems.json.tmp: ${first.status}; planted conversations.json link: ${second.status}; victim ${untouched ? 'untouched' : 'OVERWRITTEN'}`,
        };
      });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  },
};

/** Low: a recorder asked for a path that climbs out of the deployment's base URL. */
export const recorderDotSegments: HostileCase = {
  name: '47 recorder dot segments out of the base path',
  run: async () => {
    const received: string[] = [];
    const deployment = createServer((req, res) => {
      received.push(req.url ?? '');
      res.end('{}');
    });
    deployment.listen(0, '127.0.0.1');
    await once(deployment, 'listening');
    const base = `http://127.0.0.1:${(deployment.address() as AddressInfo).port}/tenant-a/`;
    const folder = await mkdtemp(join(tmpdir(), 'hostile-record-'));
    try {
      return await againstEmulator({ record: base, cassette: join(folder, 'c.har') }, async (emu) => {
        const port = Number(new URL(emu.url).port);
        const seen: string[] = [];
        for (const path of [
          '/api/../../tenant-b/admin',
          '/api/%2e%2e/%2e%2e/tenant-b/admin',
          '/api/..%2f..%2ftenant-b',
        ]) {
          const answer = await raw(port, undefined, 'GET', path, {
            host: `127.0.0.1:${port}`,
            authorization: `SSWS ${KEY}`,
          });
          seen.push(`${path}: ${answer.status}`);
        }
        const outsideBase = received.filter((url) => !url.startsWith('/tenant-a/api/'));
        return {
          pass: seen.every((s) => s.endsWith(': 400')) && received.length === 0,
          note: `${seen.join(', ')}; reached the deployment: ${received.length} (${outsideBase.length} outside the base)`,
        };
      });
    } finally {
      deployment.close();
      await rm(folder, { recursive: true, force: true });
    }
  },
};
