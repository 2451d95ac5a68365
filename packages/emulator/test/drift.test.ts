import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type DriftReport, driftSummary, type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const key = 'drift-key-1234';
const systemId = seed.systems.productDocs.systemId;
let dir: string;
let deployment: Emulator;
let recorder: Emulator;
let report: DriftReport;

// The deployment differs from the spec where planted: system details with `dimensions` as text and a
// field the spec lacks, the agent list answered with a 202 the spec does not document, and the
// LLM list sent as text/plain.
const plantedSystem = JSON.stringify({
  uuid: systemId,
  name: 'Product Documentation',
  dimensions: '768',
  embeddingModel: 'e5-large',
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dwz-drift-'));
  deployment = await startEmulator({
    apiKeys: [key],
    faults: [
      { route: 'getQnaSystem', status: 200, body: plantedSystem, times: 2 },
      { route: 'listAgents', status: 202, body: '[]', times: 1 },
      { route: 'listAgentLlmProviders', contentType: 'text/plain', times: 1 },
    ],
  });
  recorder = await startEmulator({
    record: deployment.url,
    cassette: join(dir, 'c.har'),
    driftReport: join(dir, 'drift.json'),
  });
  // Each body read whole: an exchange is checked as it ends, before the caller has all of it.
  const get = async (path: string) =>
    (await fetch(`${recorder.url}${path}`, { headers: { authorization: `SSWS ${key}` } })).text();
  for (let i = 0; i < 2; i++) await get(`/api/qna/v1/systems/${systemId}`);
  await get('/api/agents/v1/');
  await get('/api/agents/v1/llm-providers');
  await get('/api/qna/v1/systems');
  await recorder.close();
  await deployment.close();
  report = JSON.parse(await readFile(join(dir, 'drift.json'), 'utf8')) as DriftReport;
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('the drift report of a recording', () => {
  it('names a field of another type and a field the spec lacks, with an example and a count', () => {
    const findings = report.operations.getQnaSystem?.findings ?? [];
    expect(findings).toContainEqual({
      kind: 'type-mismatch',
      response: '200',
      at: 'dimensions',
      expected: 'integer',
      example: '768',
      count: 2,
    });
    expect(findings).toContainEqual({
      kind: 'undocumented-field',
      response: '200',
      at: 'embeddingModel',
      example: 'e5-large',
      count: 2,
    });
  });

  it('names an undocumented status and content type, and finds nothing where the deployment follows the spec', () => {
    expect(report.operations.listAgents?.findings).toEqual([
      {
        kind: 'undocumented-status',
        response: '202',
        at: '',
        expected: '200, 4XX, 5XX',
        example: 202,
        count: 1,
      },
    ]);
    expect(report.operations.listAgentLlmProviders?.findings).toEqual([
      expect.objectContaining({
        kind: 'undocumented-content-type',
        example: 'text/plain',
        expected: 'application/json',
      }),
    ]);
    expect(report.operations.listQnaSystems).toEqual({ responses: 1, findings: [] });
    expect(report.responses).toBe(5);
  });

  it('sums it up in lines a maintainer reads', () => {
    const lines = driftSummary(report).join('\n');
    expect(lines).toContain(
      'getQnaSystem 200: type-mismatch dimensions (spec: integer), seen 2x, e.g. "768"',
    );
  });
});
