// An agent that does not serve the A2A version a call speaks answers JSON-RPC -32009
// (VersionNotSupportedError). The client reports it as a typed error naming the versions the agent
// offered, for a stream and a task call, under either version it speaks.
import { cancelTask, getTask, JsonRpcError, streamAgent, VersionNotSupportedError } from '@dataworkz/a2a';
import { Dataworkz } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import fc from 'fast-check';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

const apiKey = 'version-refusal-key';
const agentId = seed.agents.orderStatus.agentId;
let emu: Emulator;
let dw: Dataworkz;
let refusal: { error: { message: string; data: unknown } };

beforeAll(async () => {
  emu = await startEmulator({ port: 0, apiKeys: [apiKey] });
  dw = new Dataworkz({ baseUrl: emu.url, apiKey, maxRetries: 0 });
  // The emulator's own answer to a version it does not serve, replayed below as a deployment's refusal.
  const response = await fetch(`${emu.url}/api/agents/v1/a2a/${agentId}/stream`, {
    method: 'POST',
    headers: { authorization: `SSWS ${apiKey}`, 'content-type': 'application/json', 'a2a-version': '99.0' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'message/stream', params: {} }),
  });
  refusal = (await response.json()) as typeof refusal;
});
afterAll(() => emu.close());
afterEach(() => emu.faults.clear());

/** The next call to the agent is refused as one in a version the agent does not serve. */
function refuseNextCall() {
  emu.faults.add({
    route: 'streamAgent',
    status: 200,
    contentType: 'application/json',
    body: JSON.stringify(refusal),
    times: 1,
  });
}

describe('a call in a version the agent does not serve', () => {
  it('is the emulator answering -32009 with the versions it serves', () => {
    expect(refusal.error).toMatchObject({ code: -32009 });
  });

  it.each(['0.3', '1.0'] as const)(
    'rejects a stream in %s with VersionNotSupportedError naming the versions offered',
    async (protocol) => {
      refuseNextCall();
      const error = await streamAgent(dw, agentId, { text: 'Where is order 1001?', protocol })
        .finalAnswer()
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(VersionNotSupportedError);
      expect(error).toBeInstanceOf(JsonRpcError);
      expect(error).toMatchObject({
        name: 'VersionNotSupportedError',
        code: -32009,
        supportedVersions: ['1.0', '0.3'],
      });
    },
  );

  it.each(['0.3', '1.0'] as const)('rejects getTask and cancelTask in %s the same way', async (protocol) => {
    for (const call of [getTask, cancelTask]) {
      refuseNextCall();
      const error = await call(dw, agentId, 'some-task', { protocol }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(VersionNotSupportedError);
      expect((error as VersionNotSupportedError).supportedVersions).toEqual(['1.0', '0.3']);
    }
  });
});

describe('VersionNotSupportedError', () => {
  it("reads the versions from the official SDK's wording when the error carries no metadata", () => {
    const error = new VersionNotSupportedError(
      "The requested A2A protocol version '0.3' is not supported. Supported versions: 1.0",
      [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'VERSION_NOT_SUPPORTED' }],
    );
    expect(error.supportedVersions).toEqual(['1.0']);
    // The HTTP+JSON binding's problem names them in a list.
    expect(new VersionNotSupportedError('no', { supportedVersions: ['0.3'] }).supportedVersions).toEqual([
      '0.3',
    ]);
  });

  it('never throws on what an agent sends, and keeps only version numbers', () => {
    fc.assert(
      fc.property(fc.string(), fc.anything(), (message, data) => {
        const error = new VersionNotSupportedError(message, data);
        expect(error.code).toBe(-32009);
        for (const version of error.supportedVersions) expect(version).toMatch(/^\d+\.\d+(\.\d+)?$/);
      }),
    );
  });
});
