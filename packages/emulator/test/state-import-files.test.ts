// `import` reads regular files only, each within its size and nested no deeper than the API allows,
// and names the file (and the record) it refuses: a link, a FIFO, a folder, a file too large, JSON
// nested 100,000 levels deep. A FIFO is refused at once: nothing waits for a writer.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { StateFormatError, seed, startEmulator } from '@dataworkz/emulator';
import { streamRequest } from '@dataworkz/measure';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc } from './support/rpc.js';

const key = 'import-files-key-0123';
const agentId = seed.agents.orderStatus.agentId;
const posix = process.platform !== 'win32';
let dir: string;
let exported: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dwz-import-files-'));
  exported = join(dir, 'exported');
  const emu = await startEmulator({ apiKeys: [key], exportOnExit: exported });
  await emu.close();
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A copy of the exported folder, `change` applied to it. */
async function folderWith(name: string, change: (folder: string) => Promise<void>): Promise<string> {
  const folder = join(dir, name);
  await cp(exported, folder, { recursive: true });
  await change(folder);
  return folder;
}

async function refusal(folder: string, limits = {}): Promise<StateFormatError> {
  const error = await startEmulator({ import: folder, limits }).then(
    async (emu) => {
      await emu.close();
      return undefined;
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(StateFormatError);
  return error as StateFormatError;
}

/** JSON text nesting `depth` objects, written as text (no recursion builds it). */
const deepText = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('import reads regular files only', () => {
  it.runIf(posix)('refuses a symbolic link to a file outside the folder, naming the file', async () => {
    const outside = join(dir, 'outside-tasks.json');
    await writeFile(outside, JSON.stringify([{ agentId, task: { id: 'planted-secret-task' } }]));
    const folder = await folderWith('linked', async (f) => {
      await rm(join(f, 'tasks.json'));
      await symlink(outside, join(f, 'tasks.json'));
    });
    const error = await refusal(folder);
    expect(error.message).toBe(
      `Cannot import ${join(folder, 'tasks.json')}: it is a symbolic link; the import reads regular files only, each within its size`,
    );
  });

  it.runIf(posix)(
    'refuses a FIFO where a state file goes at once, with no writer at the other end',
    async () => {
      const folder = await folderWith('fifo', async (f) => {
        await rm(join(f, 'conversations.json'));
        await promisify(execFile)('mkfifo', [join(f, 'conversations.json')]);
      });
      const error = await refusal(folder);
      expect(error.message).toMatch(/conversations\.json: it is a FIFO, not a regular file/);
    },
  );

  it('refuses a folder where a state file goes', async () => {
    const folder = await folderWith('folder', async (f) => {
      await rm(join(f, 'questions.json'));
      await mkdir(join(f, 'questions.json'));
    });
    expect((await refusal(folder)).message).toMatch(/questions\.json: it is a folder, not a regular file/);
  });

  it('refuses a file larger than four times what its store keeps, naming both sizes', async () => {
    const turns = Array.from({ length: 50 }, (_, i) => ({
      by: 'USER',
      text: `turn ${i} ${'x'.repeat(100)}`,
    }));
    const conversations = [{ agentId, contextId: 'c-big', turns, contextValues: {} }];
    const folder = await folderWith('large', async (f) => {
      await writeFile(join(f, 'conversations.json'), JSON.stringify(conversations));
    });
    const size = (await readFile(join(folder, 'conversations.json'))).length;
    const error = await refusal(folder, { maxConversationBytes: 1024 });
    expect(error.message).toBe(
      `Cannot import ${join(folder, 'conversations.json')}: it is ${size} bytes, larger than 4096; the import reads regular files only, each within its size`,
    );
  });
});

describe('import holds files to the API nesting limit', () => {
  it('refuses a task nested 100,000 levels deep, naming the file and the record, without a stack overflow', async () => {
    const folder = await folderWith('deep-task', async (f) => {
      const tasks = `[{"agentId":"${agentId}","task":{"id":"t-1"}},{"agentId":"${agentId}","task":{"id":"t-2","metadata":${deepText(100_000)}}}]`;
      await writeFile(join(f, 'tasks.json'), tasks);
    });
    expect((await refusal(folder)).message).toBe(
      `${join(folder, 'tasks.json')}: tasks[1] nests arrays and objects deeper than 68 levels (the API's limit maxJsonDepth, 64, and 4 for the record around it)`,
    );
  });

  it("refuses a conversation's context values nested 100,000 levels deep, naming the record", async () => {
    const folder = await folderWith('deep-context', async (f) => {
      const conversations = `[{"agentId":"${agentId}","contextId":"c-1","turns":[],"contextValues":${deepText(100_000)}}]`;
      await writeFile(join(f, 'conversations.json'), conversations);
    });
    expect((await refusal(folder)).message).toMatch(
      /conversations\.json: conversations\[0\] nests arrays and objects deeper than 68 levels/,
    );
  });

  it('follows maxJsonDepth as it is set', async () => {
    const folder = await folderWith('deep-set', async (f) => {
      await writeFile(
        join(f, 'conversations.json'),
        `[{"agentId":"${agentId}","contextId":"c-1","turns":[],"contextValues":${deepText(20)}}]`,
      );
    });
    expect((await refusal(folder, { maxJsonDepth: 10 })).message).toMatch(
      /conversations\[0\] nests arrays and objects deeper than 14 levels/,
    );
  });

  it('imports again what the API accepted at its deepest', async () => {
    const nested = (depth: number): unknown => {
      let value: unknown = 'bottom';
      for (let i = 0; i < depth; i++) value = { a: value };
      return value;
    };
    // The body, its params and its message take three levels: the metadata may take the other 61.
    const folder = join(dir, 'deepest-accepted');
    const emu = await startEmulator({ apiKeys: [key], exportOnExit: folder });
    const send = (depth: number) =>
      rpc(emu, agentId, streamRequest('Where is order 1001?', { metadata: nested(depth) }));
    expect((await send(62)).status).toBe(400);
    expect((await send(61)).status).toBe(200);
    await emu.close();
    const again = await startEmulator({ apiKeys: [key], import: folder });
    try {
      const state = await again.exportState();
      expect(JSON.stringify(state.tasks)).toContain('"bottom"');
    } finally {
      await again.close();
    }
  });
});

describe('the data folder reads regular files the same way', () => {
  it.runIf(posix)('refuses a FIFO named as a document at once', async () => {
    const data = join(dir, 'data-fifo');
    await mkdir(data);
    await writeFile(join(data, 'a.txt'), 'A passage.');
    await promisify(execFile)('mkfifo', [join(data, 'b.txt')]);
    await expect(startEmulator({ data })).rejects.toThrow('b.txt is a FIFO, not a regular file');
  });

  it.runIf(posix)('refuses a dataworkz.json that links outside the folder', async () => {
    const data = join(dir, 'data-linked-config');
    await mkdir(data);
    const outside = join(dir, 'outside-config.json');
    await writeFile(outside, JSON.stringify({ systems: [{ name: 'planted' }] }));
    await symlink(outside, join(data, 'dataworkz.json'));
    await expect(startEmulator({ data })).rejects.toThrow('dataworkz.json links outside the data folder');
  });
});
