import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { checkState, type EmulatorState, StateFormatError } from './snapshot.js';

/** Each part of a state and its file: a person edits one concern at a time. */
const files = {
  systems: 'systems.json',
  conversations: 'conversations.json',
  tasks: 'tasks.json',
  questions: 'questions.json',
  faults: 'faults.json',
  cancelledOrders: 'cancelled-orders.json',
} as const;

/** The file that names the format and version, and lists the others. */
const manifest = 'state.json';

/**
 * Writes a state to a folder as pretty-printed JSON files. Each file is written beside its final name
 * and renamed over it, so a folder being imported never holds a half-written file.
 */
export async function writeStateFolder(dir: string, state: EmulatorState): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const { format, version, exportedAt } = state;
  const written: string[] = [];
  const put = async (name: string, value: unknown) => {
    const path = join(dir, name);
    await writeFile(`${path}.tmp`, `${JSON.stringify(value, null, 2)}\n`);
    await rename(`${path}.tmp`, path);
    written.push(path);
  };
  for (const [part, name] of Object.entries(files)) await put(name, state[part as keyof typeof files]);
  // The manifest last: a folder with it is whole.
  await put(manifest, { format, version, exportedAt, files: Object.values(files) });
  return written;
}

/** Reads a state folder; throws StateFormatError naming the file and what is wrong with it. */
export async function readStateFolder(dir: string): Promise<EmulatorState> {
  const head = (await readJson(join(dir, manifest))) as Record<string, unknown>;
  const state: Record<string, unknown> = {
    format: head.format,
    version: head.version,
    exportedAt: head.exportedAt,
  };
  checkState(
    { ...state, systems: [], conversations: [], tasks: [], questions: [], faults: [], cancelledOrders: {} },
    join(dir, manifest),
  );
  for (const [part, name] of Object.entries(files)) state[part] = await readJson(join(dir, name));
  return checkState(state, dir);
}

async function readJson(path: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new StateFormatError(
      `Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new StateFormatError(`${path} is not JSON: ${(error as Error).message}`);
  }
}
