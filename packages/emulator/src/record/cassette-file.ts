import { existsSync } from 'node:fs';
import { type FileHandle, open, readFile } from 'node:fs/promises';
import { type Cassette, type CassetteEntry, CassetteError, checkCassette, creator } from '../cassette/har.js';

/** What closes the file's JSON after the last entry: each append overwrites it and writes it again. */
const trailer = '\n]}}\n';

/**
 * A HAR file written as it goes: after each append the file is a whole, valid HAR log, so a crash
 * loses at most the exchange in flight. An append is one positional write of the entry and the
 * trailer, over the previous trailer. A cassette that exists is kept and appended to.
 */
export class CassetteFile {
  private position = 0;
  private count = 0;
  private size = 0;
  private queue: Promise<void> = Promise.resolve();

  private constructor(
    private readonly handle: FileHandle,
    readonly path: string,
  ) {}

  static async open(path: string): Promise<CassetteFile> {
    const earlier = existsSync(path) ? (await readCassette(path)).log.entries : [];
    let handle: FileHandle;
    try {
      handle = await open(path, 'w');
    } catch (error) {
      throw new CassetteError(
        `Cannot write the cassette ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    const file = new CassetteFile(handle, path);
    const head = `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[`;
    await file.write(head + trailer, 0);
    file.position = Buffer.byteLength(head);
    for (const entry of earlier) await file.appendNow(entry);
    return file;
  }

  /** Entries in the file. */
  get entries(): number {
    return this.count;
  }

  /** The file's size in bytes. */
  get bytes(): number {
    return this.size;
  }

  /** Appends an entry after those queued before it; settles once it is on disk. */
  append(entry: CassetteEntry): Promise<void> {
    this.queue = this.queue.then(() => this.appendNow(entry));
    return this.queue;
  }

  async close(): Promise<void> {
    await this.queue.catch(() => {});
    await this.handle.close();
  }

  private async appendNow(entry: CassetteEntry): Promise<void> {
    const text = `${this.count === 0 ? '\n' : ',\n'}${JSON.stringify(entry)}`;
    await this.write(text + trailer, this.position);
    this.position += Buffer.byteLength(text);
    this.count += 1;
  }

  private async write(text: string, at: number): Promise<void> {
    const bytes = Buffer.from(text);
    await this.handle.write(bytes, 0, bytes.length, at);
    this.size = at + bytes.length;
  }
}

/** Reads and checks a HAR file; throws CassetteError saying what is wrong, never the file's content. */
export async function readCassette(path: string): Promise<Cassette> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new CassetteError(
      `Cannot read the cassette ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CassetteError(`The cassette ${path} is not JSON`);
  }
  return checkCassette(parsed, `The cassette ${path}`);
}
