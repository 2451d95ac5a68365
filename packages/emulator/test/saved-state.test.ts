import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Task } from '@a2a-js/sdk';
import { type Emulator, StateFormatError, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { streamAll } from './support/a2a.js';

const key = 'state-key-1234';
const systemId = seed.systems.productDocs.systemId;
const agentId = seed.agents.orderStatus.agentId;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dwz-state-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function get(emu: Emulator, path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${emu.url}${path}`, { ...init, headers: { authorization: `SSWS ${key}`, ...init.headers } });
}

describe('exportOnExit, then import', () => {
  it('keeps the question history, conversations, tasks and faults a session made', async () => {
    const folder = join(dir, 'session');
    const first = await startEmulator({ apiKeys: [key], exportOnExit: folder });
    const answered = (await (
      await get(
        first,
        `/api/qna/v1/systems/${systemId}/answer?questionText=How+do+I+reset+my+password%3F&llmProviderId=${seed.llms.productDocsSystem}`,
      )
    ).json()) as { questionUuid: string };
    const events = await streamAll(first, agentId, { text: 'Where is order 1001?', apiKey: key });
    const task = events.find((e) => e.kind === 'task') as Task;
    first.faults.add({ route: 'listAgents', status: 503, times: 2 });
    const history = await (await get(first, `/api/qna/v1/systems/${systemId}/questionshistory`)).json();
    await first.close();

    const manifest = JSON.parse(await readFile(join(folder, 'state.json'), 'utf8'));
    expect(manifest).toMatchObject({ format: 'dataworkz-emulator-state', version: 1 });

    const second = await startEmulator({ apiKeys: [key], import: folder });
    try {
      expect(await (await get(second, `/api/qna/v1/systems/${systemId}/questionshistory`)).json()).toEqual(
        history,
      );
      const question = await get(
        second,
        `/api/qna/v1/systems/${systemId}/questions/${answered.questionUuid}`,
      );
      expect(question.status).toBe(200);
      const state = await second.exportState();
      expect(state.tasks.map((t) => (t.task as Task).id)).toContain(task.id);
      expect(state.conversations).toContainEqual(
        expect.objectContaining({ agentId, contextId: task.contextId }),
      );
      expect(state.faults).toEqual([{ rule: { route: 'listAgents', status: 503, times: 2 }, remaining: 2 }]);
      expect((await get(second, '/api/agents/v1/')).status).toBe(503);
      expect(state.systems.map((s) => s.systemId)).toContain(systemId);
    } finally {
      await second.close();
    }
  });

  it('exports now through the control route, and says when no folder was given', async () => {
    const folder = join(dir, 'now');
    const emu = await startEmulator({ apiKeys: [key], exportOnExit: folder });
    const plain = await startEmulator({ apiKeys: [key] });
    try {
      const response = await get(emu, '/_emulator/state/export', { method: 'POST' });
      expect(response.status).toBe(200);
      const { files } = (await response.json()) as { files: string[] };
      expect(files).toContain(join(folder, 'questions.json'));
      const refused = await get(plain, '/_emulator/state/export', { method: 'POST' });
      expect(refused.status).toBe(409);
      expect(await (await get(plain, '/_emulator/state')).json()).toMatchObject({ version: 1 });
    } finally {
      await Promise.all([emu.close(), plain.close()]);
    }
  });

  it('refuses a folder of another version with a StateFormatError naming it', async () => {
    const folder = join(dir, 'future');
    const emu = await startEmulator({ apiKeys: [key], exportOnExit: folder });
    await emu.close();
    const manifest = join(folder, 'state.json');
    const text = await readFile(manifest, 'utf8');
    await writeFile(manifest, text.replace('"version": 1', '"version": 99'));
    const refused = startEmulator({ import: folder });
    await expect(refused).rejects.toBeInstanceOf(StateFormatError);
    await expect(refused).rejects.toThrow(/version 99/);
    await expect(startEmulator({ import: join(dir, 'missing') })).rejects.toThrow(/Cannot read/);
  });
});
