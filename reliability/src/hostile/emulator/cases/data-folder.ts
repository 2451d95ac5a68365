import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EmulatorProcess } from '../../../emulator-process.js';
import type { HostileCase } from '../../../runner/case.js';
import { KEY, request, timed } from '../harness.js';

/**
 * Item 17: a `dataworkz.json` naming a sibling folder whose name shares the data folder's prefix,
 * and one through a symbolic link. The emulator must refuse to start, not serve the sibling's files.
 */
export const dataFolderEscape: HostileCase = {
  name: '17 --data folders outside the data folder',
  run: async () => {
    const base = await mkdtemp(join(tmpdir(), 'dwz-hostile-'));
    try {
      await mkdir(join(base, 'data'));
      await mkdir(join(base, 'data-private'));
      await writeFile(join(base, 'data-private', 'secret.txt'), 'The vault code is 4711.\n');
      await symlink(join(base, 'data-private'), join(base, 'data', 'linked'));
      const seen: string[] = [];
      let answerMs = 0;
      for (const folder of ['../data-private', 'linked']) {
        await writeFile(
          join(base, 'data', 'dataworkz.json'),
          JSON.stringify({ systems: [{ name: 'S', systemId: 's', folder }] }),
        );
        const { value, ms } = await timed(() =>
          EmulatorProcess.start({ apiKeys: [KEY], data: join(base, 'data') }, { captureOutput: true }).then(
            async (emu) => {
              const search = await request(emu, '/api/qna/v1/systems/s/search?query=vault');
              await emu.close(5000);
              return search.text.includes('4711') ? 'started and served the secret' : 'started';
            },
            (error: Error) =>
              /outside the data folder/.test(error.message) ? 'refused' : `failed: ${error.message}`,
          ),
        );
        answerMs = Math.max(answerMs, ms);
        seen.push(`${folder}: ${value}`);
      }
      return {
        outcome: seen.every((s) => s.endsWith('refused')) ? 'pass' : 'fail',
        note: seen.join('; '),
        answerMs,
      };
    } finally {
      await rm(base, { recursive: true, force: true });
    }
  },
};
