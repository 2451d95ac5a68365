import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A QnA system of a data folder's `dataworkz.json` (see the emulator's data-folder guide). */
interface FolderSystem {
  name: string;
  systemId: string;
  /** Its LLM configurations, id to model name; the account's when absent. */
  llms?: Record<string, string>;
}

/**
 * A data folder (`startEmulator({ data: dir })`) that adds these systems beside the seeded ones, with
 * one short document; `remove()` deletes it.
 */
export async function dataFolder(
  systems: readonly FolderSystem[],
): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'dw-data-'));
  await writeFile(join(dir, 'notes.md'), 'Backups run nightly at 02:00.\n');
  await writeFile(join(dir, 'dataworkz.json'), JSON.stringify({ systems }));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}

/**
 * Two QnA systems whose names differ only in case, so a name given in any case names both: the fixture
 * of the suites that resolve names (the client, the MCP server, the AI SDK and LangChain tools).
 * `llms` are the first one's LLM configurations.
 */
export function twinNamesFolder(llms?: Record<string, string>) {
  return dataFolder([
    { name: 'Runbooks', systemId: 'runbooks-1', ...(llms === undefined ? {} : { llms }) },
    { name: 'RUNBOOKS', systemId: 'runbooks-2' },
  ]);
}
