import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Two QnA systems whose names differ only in case, so a name given in any case names both. */
const twinSystems = [
  { name: 'Runbooks', systemId: 'runbooks-1' },
  { name: 'RUNBOOKS', systemId: 'runbooks-2' },
] as const;

/**
 * A data folder (`startEmulator({ data: dir })`) that adds the twin systems beside the seeded ones:
 * the fixture of the suites that resolve names (the MCP server, the AI SDK and LangChain tools).
 */
export async function twinNamesFolder(
  /** The LLM configurations of the first twin (id to model name); the account's by default. */
  llms?: Record<string, string>,
): Promise<{ dir: string; remove: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'dw-twin-names-'));
  await writeFile(join(dir, 'notes.md'), 'Backups run nightly at 02:00.\n');
  const [first, second] = twinSystems;
  const systems = [llms === undefined ? first : { ...first, llms }, second];
  await writeFile(join(dir, 'dataworkz.json'), JSON.stringify({ systems }));
  return { dir, remove: () => rm(dir, { recursive: true, force: true }) };
}
