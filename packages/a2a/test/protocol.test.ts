// Protocol selection from agent cards, and the A2A v1.0 wire mapped onto the v0.3 shapes the run
// reads. The v1.0 payloads follow the v1.0 specification's JSON-RPC binding (proto JSON names).
import { getAgentCard, StreamProtocolError } from '@dataworkz/a2a';
import { Dataworkz } from '@dataworkz/client';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METHODS, protocolHeaders } from '../src/protocol/headers.js';
import { selectProtocol, UnsupportedProtocolError } from '../src/protocol/select.js';
import {
  messageToV1,
  stateFromV1,
  stateToV1,
  streamEventFromV1,
  taskFromV1,
} from '../src/protocol/v1-wire.js';

const apiKey = 'protocol-key';
let emu: Emulator;
let dw: Dataworkz;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, apiKeys: [apiKey] });
  dw = new Dataworkz({ baseUrl: emu.url, apiKey, maxRetries: 0 });
});
afterAll(() => emu.close());

const v1Card = {
  name: 'Order status',
  supportedInterfaces: [
    { url: 'https://agents.example/grpc', protocolBinding: 'GRPC', protocolVersion: '1.0' },
    { url: 'https://agents.example/v1', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: 'https://agents.example/v03', protocolBinding: 'JSONRPC', protocolVersion: '0.3.0' },
  ],
};

describe('selectProtocol', () => {
  it('reads the emulator’s card (the service’s v0.3 card) as v0.3 at the card’s url', async () => {
    const card = await getAgentCard(dw, seed.agents.orderStatus.agentId);
    const choice = selectProtocol(card);
    expect(choice.version).toBe('0.3');
    expect(choice.url).toBe((card as { url?: string }).url);
    expect(selectProtocol(card, '0.3').version).toBe('0.3');
    expect(() => selectProtocol(card, '1.0')).toThrow(UnsupportedProtocolError);
  });

  it('prefers the JSON-RPC v1.0 interface of a v1.0 card, and can be forced to its v0.3 one', () => {
    expect(selectProtocol(v1Card)).toEqual({ version: '1.0', url: 'https://agents.example/v1' });
    expect(selectProtocol(v1Card, '0.3')).toEqual({ version: '0.3', url: 'https://agents.example/v03' });
  });

  it('takes later v1 minors as v1.0 and refuses cards offering no version it speaks', () => {
    const minor = { supportedInterfaces: [{ url: 'u', protocolBinding: 'JSONRPC', protocolVersion: '1.2' }] };
    expect(selectProtocol(minor).version).toBe('1.0');
    const grpcOnly = { supportedInterfaces: [{ url: 'u', protocolBinding: 'GRPC', protocolVersion: '1.0' }] };
    expect(() => selectProtocol(grpcOnly)).toThrow(UnsupportedProtocolError);
    const old = { protocolVersion: '0.2.5', url: 'u' };
    const error = (() => {
      try {
        selectProtocol(old);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(UnsupportedProtocolError);
    expect((error as UnsupportedProtocolError).offered).toEqual(['0.2.5']);
    expect(() => selectProtocol(undefined)).toThrow(UnsupportedProtocolError);
  });
});

describe('headers and methods per version', () => {
  it('names the version and the extensions header as each version does', () => {
    expect(protocolHeaders('0.3', ['urn:ext'])).toEqual({ 'X-A2A-Extensions': 'urn:ext' });
    expect(protocolHeaders('1.0', ['urn:a', 'urn:b'])).toEqual({
      'A2A-Version': '1.0',
      'A2A-Extensions': 'urn:a, urn:b',
    });
    expect(protocolHeaders('1.0', [])).toEqual({ 'A2A-Version': '1.0' });
    expect(METHODS['1.0'].stream).toBe('SendStreamingMessage');
    expect(METHODS['1.0'].resubscribe).toBe('SubscribeToTask');
  });
});

describe('the v1.0 wire', () => {
  it('maps states both ways', () => {
    expect(stateFromV1('TASK_STATE_INPUT_REQUIRED')).toBe('input-required');
    expect(stateFromV1('TASK_STATE_COMPLETED')).toBe('completed');
    expect(stateFromV1('TASK_STATE_UNSPECIFIED')).toBe('unknown');
    expect(stateToV1('auth-required')).toBe('TASK_STATE_AUTH_REQUIRED');
  });

  it('turns a status update into a v0.3 one, final when its state ends the stream', () => {
    const working = streamEventFromV1({
      statusUpdate: {
        taskId: 't1',
        contextId: 'c1',
        status: {
          state: 'TASK_STATE_WORKING',
          message: { messageId: 'm1', role: 'ROLE_AGENT', parts: [{ data: { type: 'TOOL' } }] },
        },
        metadata: { step: 1 },
      },
    });
    expect(working).toEqual({
      kind: 'status-update',
      taskId: 't1',
      contextId: 'c1',
      final: false,
      status: {
        state: 'working',
        message: {
          kind: 'message',
          messageId: 'm1',
          role: 'agent',
          parts: [{ kind: 'data', data: { type: 'TOOL' } }],
        },
      },
      metadata: { step: 1 },
    });
    const done = streamEventFromV1({
      statusUpdate: { taskId: 't1', contextId: 'c1', status: { state: 'TASK_STATE_COMPLETED' } },
    });
    expect(done).toMatchObject({ kind: 'status-update', final: true, status: { state: 'completed' } });
  });

  it('turns artifact chunks, tasks and parts of every kind into v0.3 shapes', () => {
    expect(
      streamEventFromV1({
        artifactUpdate: {
          taskId: 't1',
          contextId: 'c1',
          artifact: { artifactId: 'a1', name: 'answer', parts: [{ text: 'Hel' }] },
          append: true,
          lastChunk: false,
        },
      }),
    ).toEqual({
      kind: 'artifact-update',
      taskId: 't1',
      contextId: 'c1',
      artifact: { artifactId: 'a1', name: 'answer', parts: [{ kind: 'text', text: 'Hel' }] },
      append: true,
      lastChunk: false,
    });
    const task = taskFromV1({
      id: 't1',
      contextId: 'c1',
      status: { state: 'TASK_STATE_SUBMITTED', timestamp: '2026-03-01T00:00:00Z' },
      artifacts: [
        {
          artifactId: 'a2',
          parts: [
            { raw: 'aGk=', filename: 'hi.txt', mediaType: 'text/plain' },
            { url: 'https://files.example/x.pdf', mediaType: 'application/pdf' },
            { data: [1, 2] },
          ],
        },
      ],
      history: [{ messageId: 'u1', role: 'ROLE_USER', parts: [{ text: 'hi' }] }],
    });
    expect(task.status).toEqual({ state: 'submitted', timestamp: '2026-03-01T00:00:00Z' });
    expect(task.artifacts?.[0]?.parts).toEqual([
      { kind: 'file', file: { name: 'hi.txt', mimeType: 'text/plain', bytes: 'aGk=' } },
      { kind: 'file', file: { mimeType: 'application/pdf', uri: 'https://files.example/x.pdf' } },
      { kind: 'data', data: { value: [1, 2] } },
    ]);
    expect(task.history?.[0]).toEqual({
      kind: 'message',
      messageId: 'u1',
      role: 'user',
      parts: [{ kind: 'text', text: 'hi' }],
    });
    expect(
      streamEventFromV1({ task: { id: 't1', contextId: 'c1', status: { state: 'TASK_STATE_WORKING' } } }),
    ).toMatchObject({
      kind: 'task',
      id: 't1',
    });
  });

  it('sends a message without kinds, with ROLE_* and flat parts', () => {
    expect(
      messageToV1({
        kind: 'message',
        messageId: 'm1',
        role: 'user',
        parts: [
          { kind: 'text', text: 'Where is order 42?' },
          { kind: 'file', file: { uri: 'https://files.example/a.png', mimeType: 'image/png' } },
        ],
        metadata: { 'urn:ext': { a: 1 } },
      }),
    ).toEqual({
      messageId: 'm1',
      role: 'ROLE_USER',
      parts: [{ text: 'Where is order 42?' }, { url: 'https://files.example/a.png', mediaType: 'image/png' }],
      metadata: { 'urn:ext': { a: 1 } },
    });
  });

  it('rejects results that are no v1.0 stream event with a typed error', () => {
    expect(() => streamEventFromV1({ kind: 'status-update' })).toThrow(StreamProtocolError);
    expect(() => streamEventFromV1('text')).toThrow(StreamProtocolError);
    expect(() => streamEventFromV1({ message: { role: 'ROLE_AGENT', parts: [] } })).toThrow(
      StreamProtocolError,
    );
    expect(() => streamEventFromV1({ message: { messageId: 'm', parts: [{ nothing: 1 }] } })).toThrow(
      StreamProtocolError,
    );
  });
});
