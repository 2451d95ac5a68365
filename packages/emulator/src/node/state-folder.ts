import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { tooDeepMember } from '../http/json-body.js';
import { fromUtf8 } from '../neutral/bytes.js';
import { checkManifest, checkPart, type StateLimits, type StatePart } from '../saved-state/check.js';
import { type EmulatorState, StateFormatError } from '../saved-state/snapshot.js';
import { FileRefusal, readRegularFile } from './regular-file.js';

/** Each part of a state and its file: a person edits one concern at a time. */
const files: Record<StatePart, string> = {
  systems: 'systems.json',
  conversations: 'conversations.json',
  tasks: 'tasks.json',
  questions: 'questions.json',
  faults: 'faults.json',
  cancelledOrders: 'cancelled-orders.json',
};

/** The file that names the format and version, and lists the others. */
const manifest = 'state.json';

/**
 * Writes a state to a folder as pretty-printed JSON files. Each file is written to a new temporary
 * name, created exclusively (a name that exists, a planted link included, fails instead of being
 * followed), and renamed over its final name, so a folder being imported never holds a half-written
 * file. A symbolic link (or anything but a file) where a file goes is refused: the export would
 * otherwise replace a link the user may have made on purpose, or an attacker to aim the write.
 */
export async function writeStateFolder(dir: string, state: EmulatorState): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const { format, version, exportedAt } = state;
  const written: string[] = [];
  for (const [part, name] of Object.entries(files)) {
    written.push(await writeFileAtomically(dir, name, state[part as StatePart]));
  }
  // The manifest last: a folder with it is whole.
  written.push(
    await writeFileAtomically(dir, manifest, { format, version, exportedAt, files: Object.values(files) }),
  );
  return written;
}

async function writeFileAtomically(dir: string, name: string, value: unknown): Promise<string> {
  const path = join(dir, name);
  const present = await lstat(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (present && !present.isFile()) {
    throw new StateFormatError(
      `Cannot export to ${path}: it is ${present.isSymbolicLink() ? 'a symbolic link' : 'not a regular file'}; the export writes only files of its own (remove it, or export to another folder)`,
    );
  }
  const temporary = join(dir, `.${name}.${randomBytes(8).toString('hex')}.tmp`);
  const file = await open(temporary, 'wx', 0o644);
  try {
    await file.writeFile(`${JSON.stringify(value, null, 2)}\n`);
  } catch (error) {
    await file.close();
    await unlink(temporary).catch(() => {});
    throw error;
  }
  await file.close();
  // A rename replaces the name itself, never what a link there points at.
  await rename(temporary, path);
  return path;
}

/**
 * Levels a saved record wraps around what the API took in (the file's array, the record, a task
 * around its messages): a state file may nest `maxJsonDepth` plus these, so what the API accepted
 * always imports again.
 */
const recordLevels = 4;

/**
 * The largest file a part may be: four times the size its store keeps (the files are pretty-printed,
 * and a store drops its oldest records past its size); the other files, four times the largest store.
 */
function maxFileBytes(part: StatePart | undefined, limits: StateLimits): number {
  const largest = Math.max(limits.maxConversationBytes, limits.maxTaskBytes, limits.maxQuestionBytes);
  const kept =
    part === 'conversations'
      ? limits.maxConversationBytes
      : part === 'tasks'
        ? limits.maxTaskBytes
        : part === 'questions'
          ? limits.maxQuestionBytes
          : largest;
  return Math.min(4 * kept, maxStringBytes);
}

/** About the longest text a JavaScript engine holds: no file is read past it. */
const maxStringBytes = 2 ** 29 - 24;

/**
 * Reads a state folder, checking each file record by record against the API's limits; throws
 * StateFormatError naming the file and the record at fault. Each file must be a regular file (a link,
 * a FIFO or a device is refused at once), within its size, and nested no deeper than the API allows.
 */
export async function readStateFolder(dir: string, limits: StateLimits): Promise<EmulatorState> {
  const head = (await readJson(join(dir, manifest), undefined, limits)) as Record<string, unknown>;
  checkManifest(head, join(dir, manifest));
  const state: Record<string, unknown> = {
    format: head.format,
    version: head.version,
    exportedAt: head.exportedAt,
  };
  for (const [part, name] of Object.entries(files)) {
    const path = join(dir, name);
    state[part] = checkPart(part as StatePart, await readJson(path, part as StatePart, limits), path, limits);
  }
  return state as unknown as EmulatorState;
}

async function readJson(path: string, part: StatePart | undefined, limits: StateLimits): Promise<unknown> {
  let text: string;
  try {
    text = fromUtf8(await readRegularFile(path, maxFileBytes(part, limits)));
  } catch (error) {
    if (error instanceof FileRefusal) {
      throw new StateFormatError(
        `Cannot import ${path}: it ${error.message}; the import reads regular files only, each within its size`,
      );
    }
    throw new StateFormatError(
      `Cannot read ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  // Counted on the text before parsing, so no deep value reaches code that walks it recursively.
  const maxDepth = limits.maxJsonDepth + recordLevels;
  const member = tooDeepMember(text, maxDepth);
  if (member !== undefined) {
    const record =
      part === undefined
        ? 'the manifest'
        : part === 'cancelledOrders'
          ? `${part} (member ${member})`
          : `${part}[${member}]`;
    throw new StateFormatError(
      `${path}: ${record} nests arrays and objects deeper than ${maxDepth} levels (the API's limit maxJsonDepth, ${limits.maxJsonDepth}, and ${recordLevels} for the record around it)`,
    );
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // The parser's message quotes the text around the fault, which may be anything: a credential too.
    throw new StateFormatError(`${path} is not JSON`);
  }
}
