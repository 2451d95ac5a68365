import { createReadStream, existsSync } from 'node:fs';
import { createInterface } from 'node:readline';

/**
 * The ids already answered in an output file (lines with `"status":"ok"`), so a rerun skips them;
 * failed ones are asked again. A last line cut short by a kill is ignored.
 */
export async function readAnswered(file: string): Promise<Set<string>> {
  const answered = new Set<string>();
  if (!existsSync(file)) return answered;
  const lines = createInterface({ input: createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    try {
      const record = JSON.parse(line) as { id?: unknown; status?: unknown };
      if (record.status === 'ok' && typeof record.id === 'string') answered.add(record.id);
    } catch {
      // A line cut short by a kill: its question is asked again.
    }
  }
  return answered;
}
