import { spawn } from 'node:child_process';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { until } from '@dataworkz/measure';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type OtlpReceiver, startOtlpReceiver } from './support/otlp-receiver.js';
import { bin, cliEnv, runCli } from './support/run-cli.js';

const supportKb = seed.systems.supportKb.systemId;
const question = 'How do I return an item?';

describe('dataworkz with the OpenTelemetry variables', () => {
  let emu: Emulator;
  let receiver: OtlpReceiver;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0 });
    receiver = await startOtlpReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await emu.close();
  });
  beforeEach(() => {
    receiver.bodies.length = 0;
  });

  it('sends the command span and the client calls under it to the OTLP endpoint before exiting', async () => {
    const env = {
      ...cliEnv(emu),
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_SERVICE_NAME: 'cli-traces-test',
    };
    const result = await runCli(['qna', 'answer', supportKb, question], env);
    expect(result.code, result.stderr).toBe(0);
    // Everything was exported by the time the process exited: no waiting on a timer here.
    const spans = receiver.spans().filter((span) => span.resource['service.name'] === 'cli-traces-test');
    const root = spans.find((span) => span.name === 'dataworkz qna answer');
    expect(root).toMatchObject({
      parentSpanId: undefined,
      kind: 1, // INTERNAL, in OTLP's numbering
      scope: '@dataworkz/cli',
      attributes: {
        'dataworkz.command': 'qna answer',
        'process.executable.name': 'dataworkz',
        'process.exit.code': 0,
      },
      resource: { 'service.name': 'cli-traces-test', 'service.version': expect.any(String) },
    });
    const answer = spans.find((span) => span.name === 'qna.answer');
    expect(answer).toMatchObject({
      traceId: root?.traceId,
      parentSpanId: root?.spanId,
      kind: 3, // CLIENT
      scope: '@dataworkz/client',
      attributes: { 'gen_ai.data_source.id': supportKb, 'http.response.status_code': 200 },
    });
    // The name was resolved to an id and the LLMs listed first: all in the same trace, under the command.
    const inTrace = spans.filter((span) => span.traceId === root?.traceId);
    expect(inTrace.map((span) => span.name).sort()).toEqual(
      ['dataworkz qna answer', 'qna.answer', 'qna.list', 'qna.llmProviders'].sort(),
    );
    for (const span of inTrace) if (span !== root) expect(span.parentSpanId).toBe(root?.spanId);
    const received = receiver.bodies.join('\n');
    expect(received).not.toContain(emu.apiKey);
    expect(received).not.toContain(question);
  });

  it('marks the command span as failed with the error type on an error exit, and still exports it', async () => {
    const env = {
      ...cliEnv(emu),
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
    };
    const result = await runCli(['qna', 'get', 'no-such-system-anywhere'], env);
    expect(result.code).toBe(4);
    const root = receiver.spans().find((span) => span.name === 'dataworkz qna get' && span.statusCode === 2);
    expect(root?.attributes['error.type']).toBe('UnknownNameError');
    expect(root?.resource['service.name']).toBe('dataworkz');
    expect(receiver.bodies.join('\n')).not.toContain('no-such-system-anywhere');
  });

  it('exports the command span, marked interrupted, when Ctrl-C stops a command in flight', async () => {
    emu.faults.add({ route: 'answerQnaQuestion', latencyMs: 10_000, times: 1 });
    const before = emu.requests.length;
    try {
      const child = spawn(process.execPath, [bin, 'qna', 'answer', supportKb, question], {
        env: { PATH: process.env.PATH ?? '', ...cliEnv(emu), OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint },
        stdio: 'ignore',
      });
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      const asked = () => emu.requests.slice(before).some((request) => request.path.endsWith('/answer'));
      await until(asked, 'the question asked', 20_000);
      child.kill('SIGINT');
      expect(await exited).toBe(130);
      const root = receiver
        .spans()
        .find(
          (span) => span.name === 'dataworkz qna answer' && span.attributes['error.type'] === 'interrupted',
        );
      expect(root).toMatchObject({ statusCode: 2, attributes: { 'process.exit.code': 130 } });
    } finally {
      emu.faults.clear();
    }
  });

  it('loads no exporter without the variables (or with OTEL_SDK_DISABLED): same output, nothing sent', async () => {
    const env = cliEnv(emu);
    const before = receiver.spans().length;
    const plain = await runCli(['qna', 'answer', supportKb, question], env);
    const disabled = await runCli(['qna', 'answer', supportKb, question], {
      ...env,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_SDK_DISABLED: 'true',
    });
    const none = await runCli(['qna', 'answer', supportKb, question], {
      ...env,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.endpoint,
      OTEL_TRACES_EXPORTER: 'none',
    });
    for (const result of [plain, disabled, none]) {
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toBe('');
    }
    expect(disabled.stdout).toBe(plain.stdout);
    expect(none.stdout).toBe(plain.stdout);
    expect(receiver.spans().length).toBe(before);
    expect(receiver.bodies).toEqual([]);
  });

  it('prints spans as JSON lines on stderr with OTEL_TRACES_EXPORTER=console, leaving stdout as it was', async () => {
    const env = cliEnv(emu);
    const plain = await runCli(['--json', 'qna', 'list'], env);
    const traced = await runCli(['--json', 'qna', 'list'], { ...env, OTEL_TRACES_EXPORTER: 'console' });
    expect(traced.code, traced.stderr).toBe(0);
    expect(traced.stdout).toBe(plain.stdout);
    const lines = traced.stderr
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { name: string; traceId: string; parentSpanId?: string });
    const root = lines.find((line) => line.name === 'dataworkz qna list');
    expect(lines.find((line) => line.name === 'qna.list')).toMatchObject({ traceId: root?.traceId });
    expect(traced.stderr).not.toContain(emu.apiKey);
  });

  it('warns about an exporter it does not support, and runs the command', async () => {
    const result = await runCli(['qna', 'systems'], { ...cliEnv(emu), OTEL_TRACES_EXPORTER: 'zipkin' });
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/OTEL_TRACES_EXPORTER: "zipkin" is not supported/);
  });
});
