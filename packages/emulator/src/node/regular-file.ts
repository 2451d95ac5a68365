import { constants } from 'node:fs';
import { lstat, open } from 'node:fs/promises';

/** Why a file that exists was not read, worded to follow "it": "is a symbolic link", "is larger than ...". */
export class FileRefusal extends Error {
  override readonly name = 'FileRefusal';
}

// Absent on Windows, where neither a link nor a FIFO can take a file's place this way.
const noFollow = constants.O_NOFOLLOW ?? 0;
const noWait = constants.O_NONBLOCK ?? 0;

/**
 * Reads a regular file of at most `maxBytes`. A symbolic link, a FIFO, a device or a folder where the
 * file goes is refused at once, before anything waits on it: the name is judged with lstat, then
 * opened without following a link and without waiting for a writer, and the handle judged again (the
 * name may have changed in between). What grows past `maxBytes` while read is refused too.
 */
export async function readRegularFile(path: string, maxBytes: number): Promise<Uint8Array> {
  // A name that cannot be read at all (missing, not permitted) throws the system's own error.
  const named = await lstat(path);
  refuseUnlessRegular(named, maxBytes);
  const file = await open(path, constants.O_RDONLY | noFollow | noWait).catch(
    (error: NodeJS.ErrnoException) => {
      throw error.code === 'ELOOP' ? new FileRefusal('is a symbolic link') : error;
    },
  );
  try {
    const opened = await file.stat();
    refuseUnlessRegular(opened, maxBytes);
    if (opened.ino !== named.ino || opened.dev !== named.dev) {
      throw new FileRefusal('was replaced while it was being read');
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    for (;;) {
      const chunk = new Uint8Array(Math.min(64 * 1024, maxBytes + 1 - size));
      const { bytesRead } = await file.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      size += bytesRead;
      if (size > maxBytes) throw new FileRefusal(`is larger than ${maxBytes} bytes`);
      chunks.push(chunk.subarray(0, bytesRead));
    }
    return Buffer.concat(chunks, size);
  } finally {
    await file.close();
  }
}

function refuseUnlessRegular(
  stats: {
    isFile(): boolean;
    isSymbolicLink(): boolean;
    isFIFO(): boolean;
    isDirectory(): boolean;
    size: number;
  },
  maxBytes: number,
): void {
  if (stats.isSymbolicLink()) throw new FileRefusal('is a symbolic link');
  if (stats.isFIFO()) throw new FileRefusal('is a FIFO, not a regular file');
  if (stats.isDirectory()) throw new FileRefusal('is a folder, not a regular file');
  if (!stats.isFile()) throw new FileRefusal('is not a regular file');
  if (stats.size > maxBytes) throw new FileRefusal(`is ${stats.size} bytes, larger than ${maxBytes}`);
}
