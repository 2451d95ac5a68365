import { closeSync, existsSync, openSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { checkCassette } from '../../cassette/check.js';
import { type Cassette, type CassetteEntry, CassetteError, creator } from '../../cassette/har.js';

/** What closes the file's JSON after the last entry: each append overwrites it and writes it again. */
const trailer = '\n]}}\n';

/**
 * A HAR file written as it goes: after each append the file is a whole, valid HAR log, so a crash
 * loses at most the exchange in flight. An append is one positional write of the entry and the
 * trailer, over the previous trailer. A cassette that exists is kept and appended to.
 *
 * The writes are synchronous: an entry is a few kilobytes into the page cache, a few microseconds,
 * where an asynchronous write costs ten times that in CPU (the thread pool's round trip) and would
 * compete with the calls being forwarded. They run after the caller has its response.
 */
export class CassetteFile {
  private position = 0;
  private count = 0;
  private size = 0;
  private closed = false;

  private constructor(
    private readonly fd: number,
    readonly path: string,
  ) {}

  static async open(path: string): Promise<CassetteFile> {
    const earlier = existsSync(path) ? (await readCassette(path)).log.entries : [];
    let fd: number;
    try {
      fd = openSync(path, 'w');
    } catch (error) {
      throw new CassetteError(
        `Cannot write the cassette ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
      );
    }
    const file = new CassetteFile(fd, path);
    const head = `{"log":{"version":"1.2","creator":${JSON.stringify(creator)},"entries":[`;
    file.write(head + trailer, 0);
    file.position = Buffer.byteLength(head);
    for (const entry of earlier) file.append(entry);
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

  /** Appends an entry after those before it; once it returns, the entry is in the file. */
  append(entry: CassetteEntry): void {
    if (this.closed) throw new CassetteError(`The cassette ${this.path} is closed`);
    const text = `${this.count === 0 ? '\n' : ',\n'}${JSON.stringify(entry)}`;
    this.write(text + trailer, this.position);
    this.position += Buffer.byteLength(text);
    this.count += 1;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    closeSync(this.fd);
  }

  private write(text: string, at: number): void {
    const bytes = Buffer.from(text);
    let done = 0;
    // A positional write may write less than asked (a full disk, a signal): the rest goes after it.
    while (done < bytes.length) done += writeSync(this.fd, bytes, done, bytes.length - done, at + done);
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
