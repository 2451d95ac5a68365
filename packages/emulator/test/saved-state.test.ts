import { cp, mkdir, mkdtemp, readdir, readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
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

describe('the export folder, as an attacker may have prepared it', () => {
  it('writes each file under a new name of its own: a planted systems.json.tmp link is never followed', async () => {
    const folder = join(dir, 'planted-tmp');
    const victim = join(dir, 'victim-tmp.txt');
    await writeFile(victim, 'keep me\n');
    const emu = await startEmulator({ apiKeys: [key], exportOnExit: folder });
    // The old temporary name, planted before the export: a link to a file of the user's.
    await mkdir(folder, { recursive: true });
    await symlink(victim, join(folder, 'systems.json.tmp'));
    await emu.close();
    expect(await readFile(victim, 'utf8')).toBe('keep me\n');
    expect(await readlink(join(folder, 'systems.json.tmp'))).toBe(victim);
    expect(JSON.parse(await readFile(join(folder, 'systems.json'), 'utf8'))).toBeInstanceOf(Array);
    // No temporary file is left behind.
    expect((await readdir(folder)).filter((name) => name.endsWith('.tmp'))).toEqual(['systems.json.tmp']);
  });

  it('refuses a symbolic link where a file goes, with a clear error, and leaves its target alone', async () => {
    const folder = join(dir, 'planted-link');
    const victim = join(dir, 'victim-link.txt');
    await writeFile(victim, 'keep me\n');
    await mkdir(folder, { recursive: true });
    await symlink(victim, join(folder, 'systems.json'));
    const emu = await startEmulator({ apiKeys: [key], exportOnExit: folder });
    const refused = await get(emu, '/_emulator/state/export', { method: 'POST' });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { message: string }).message).toMatch(
      /systems\.json: it is a symbolic link/,
    );
    const closed = emu.close();
    await expect(closed).rejects.toBeInstanceOf(StateFormatError);
    await expect(closed).rejects.toThrow(/symbolic link/);
    expect(await readFile(victim, 'utf8')).toBe('keep me\n');
    expect(await readlink(join(folder, 'systems.json'))).toBe(victim);
  });
});

describe('import, record by record', () => {
  let exported: string;

  beforeAll(async () => {
    exported = join(dir, 'exported');
    const emu = await startEmulator({ apiKeys: [key], exportOnExit: exported });
    await emu.close();
  });

  /** A copy of the exported folder with one file rewritten. */
  async function edited(name: string, file: string, text: string): Promise<string> {
    const folder = join(dir, name);
    await cp(exported, folder, { recursive: true });
    await writeFile(join(folder, file), text);
    return folder;
  }

  async function refusal(folder: string): Promise<StateFormatError> {
    const error = await startEmulator({ import: folder }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(StateFormatError);
    return error as StateFormatError;
  }

  it('names the file and the record of a document without its fields, not a TypeError', async () => {
    const systems = JSON.parse(await readFile(join(exported, 'systems.json'), 'utf8'));
    systems[1].documents = [{}];
    const folder = await edited('empty-document', 'systems.json', JSON.stringify(systems));
    const error = await refusal(folder);
    expect(error.message).toBe(
      `${join(folder, 'systems.json')}: systems[1].documents[0].documentId must be a string`,
    );
  });

  it('refuses a conversation turn longer than the API takes, naming it', async () => {
    const turns = [
      { by: 'USER', text: 'Where is order 1001?' },
      { by: 'USER', text: 'x'.repeat(200_000) },
    ];
    const folder = await edited(
      'long-turn',
      'conversations.json',
      JSON.stringify([{ agentId, contextId: 'c-1', turns, contextValues: {} }]),
    );
    const error = await refusal(folder);
    expect(error.message).toBe(
      `${join(folder, 'conversations.json')}: conversations[0].turns[1].text is 200000 characters; the API takes at most 32768 (limit maxTextLength)`,
    );
    // The limit in force is the one the emulator is started with.
    const roomy = await startEmulator({ import: folder, limits: { maxTextLength: 200_000 } });
    await roomy.close();
  });

  it('refuses a question past the limit and a fault that is not one, naming each', async () => {
    const question = {
      systemId,
      askedAt: '2026-01-01T00:00:00.000Z',
      model: 'm',
      questionUuid: 'q-1',
      question: 'y'.repeat(40_000),
      query: 'q',
      contexts: [],
      scores: [],
      answer: {},
    };
    const long = await refusal(await edited('long-question', 'questions.json', JSON.stringify([question])));
    expect(long.message).toMatch(/questions\.json: questions\[0\]\.question is 40000 characters/);
    const fault = await refusal(
      await edited('bad-fault', 'faults.json', JSON.stringify([{ rule: { status: 99 }, remaining: 1 }])),
    );
    expect(fault.message).toMatch(/faults\.json: faults\[0\]\.rule is not a fault rule/);
  });

  it('never quotes a file that is not JSON', async () => {
    const secret = 'sk-live-DO-NOT-PRINT-0123456789';
    const folder = await edited('not-json', 'tasks.json', `[{"agentId": "${secret}" oops`);
    const error = await refusal(folder);
    expect(error.message).toBe(`${join(folder, 'tasks.json')} is not JSON`);
    expect(error.message).not.toContain(secret);
  });
});
