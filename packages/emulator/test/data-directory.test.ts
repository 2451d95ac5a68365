import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Emulator, startEmulator } from '@dataworkz/emulator';
import { strToU8, zipSync, zlibSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, obj, q } from './support/http.js';
import { expectMatchesSpec } from './support/spec.js';

let dir: string;
let emu: Emulator;
const docx = zipSync({
  '[Content_Types].xml': strToU8('<Types/>'),
  'word/document.xml': strToU8(
    '<w:document xmlns:w="x"><w:body><w:p><w:r><w:t>Fleet maintenance</w:t></w:r></w:p><w:p><w:r><w:t xml:space="preserve">Trucks are serviced every </w:t></w:r><w:r><w:t>20,000 kilometres.</w:t></w:r></w:p></w:body></w:document>',
  ),
});
const content = 'BT /F1 12 Tf 72 720 Td (Drivers rest for 45 minutes after 4.5 hours of driving.) Tj ET';
const deflated = Buffer.from(zlibSync(strToU8(content))).toString('latin1');
const pdf = Buffer.from(
  `%PDF-1.4\n1 0 obj\n<< /Length ${deflated.length} /Filter /FlateDecode >>\nstream\n${deflated}\nendstream\nendobj\n%%EOF\n`,
  'latin1',
);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dwz-data-'));
  await writeFile(join(dir, 'maintenance.docx'), docx);
  await writeFile(join(dir, 'driving-rules.pdf'), pdf);
  await writeFile(join(dir, 'fuel.md'), '# Fuel\n\nDiesel cards are renewed every January.\n');
  await writeFile(
    join(dir, 'depots.txt'),
    'The northern depot opens at 05:00.\n\nThe southern depot opens at 06:00.\n',
  );
  await writeFile(
    join(dir, 'contacts.html'),
    '<html><body><h1>Contacts</h1><p>Dispatch answers on channel 9 &amp; by phone.</p></body></html>',
  );
  await writeFile(join(dir, 'ignored.bin'), 'not a document');
  await writeFile(
    join(dir, 'dataworkz.json'),
    JSON.stringify({
      systems: [
        {
          name: 'Fleet Handbook',
          systemId: 'fleet-handbook',
          documents: {
            'maintenance.docx': { title: 'Maintenance schedule', metadata: { team: 'workshop', year: 2025 } },
            'driving-rules.pdf': { metadata: { team: 'drivers', year: 2026 } },
            'depots.txt': { metadata: { team: 'drivers', year: 2024 } },
          },
        },
      ],
    }),
  );
  emu = await startEmulator({ apiKeys: ['data-key'], data: dir });
});
afterAll(async () => {
  await emu.close();
  await rm(dir, { recursive: true, force: true });
});

const search = async (query: string, filter?: string) =>
  obj(
    (
      await call(
        emu,
        `/api/qna/v1/systems/fleet-handbook/search?${q({ query, ...(filter ? { filter } : {}) })}`,
      )
    ).json,
  );
const firstData = (body: Record<string, unknown>) =>
  (body.searchResultsList as { data: string; type: string }[])[0];

describe('a data folder', () => {
  it('adds its systems beside the seeded ones', async () => {
    const res = await call(emu, '/api/qna/v1/systems');
    expect(obj(res.json)['fleet-handbook']).toBe('Fleet Handbook');
    expect(Object.keys(obj(res.json))).toHaveLength(3);
  });

  it('indexes the text of Word, PDF (deflated), markdown, text and HTML files', async () => {
    expect(firstData(await search('trucks serviced kilometres'))).toMatchObject({
      type: 'word',
      data: 'Trucks are serviced every 20,000 kilometres.',
    });
    expect(firstData(await search('drivers rest driving'))).toMatchObject({
      type: 'pdf',
      data: 'Drivers rest for 45 minutes after 4.5 hours of driving.',
    });
    expect(firstData(await search('diesel cards'))).toMatchObject({ type: 'text' });
    expect(firstData(await search('southern depot'))).toMatchObject({
      data: 'The southern depot opens at 06:00.',
    });
    expect(firstData(await search('dispatch channel'))).toMatchObject({
      type: 'link',
      data: 'Dispatch answers on channel 9 & by phone.',
    });
  });

  it('filters on the configured metadata and lists the inferred fields', async () => {
    const body = await search('opens depot rest', "team = 'drivers' and year in (2024)");
    expect((body.searchResultsList as unknown[]).length).toBe(2);
    const filters = obj((await call(emu, '/api/qna/v1/systems/fleet-handbook/filters')).json);
    expectMatchesSpec('listQnaFilters', filters);
    expect(filters.filters).toEqual([
      {
        name: 'team',
        type: 'string',
        description: 'Document metadata field team.',
        cardinality: 2,
        values: ['drivers', 'workshop'],
      },
      {
        name: 'year',
        type: 'integer',
        description: 'Document metadata field year.',
        cardinality: 3,
        values: [2024, 2025, 2026],
      },
    ]);
  });

  it('links a result to its source file and serves the original bytes of that file', async () => {
    const body = await search('trucks serviced');
    const [hit] = body.searchResultsList as { link: string; documentId: string; systemId: string }[];
    expect(hit?.link).toMatch(/^s3a:\/\/[^/]+\/fleet_handbook\/maintenance\.docx$/);
    const res = await fetch(
      `${emu.url}/api/qna/v1/systems/fleet-handbook/document?documentId=${hit?.documentId}`,
      {
        headers: { authorization: 'SSWS data-key' },
        signal: AbortSignal.timeout(5000),
      },
    );
    expect(Buffer.from(await res.arrayBuffer()).equals(Buffer.from(docx))).toBe(true);
  });

  it('highlights matching words with the rest of the text HTML-escaped', async () => {
    const body = await search('dispatch channel');
    const [hit] = body.searchResultsList as {
      data: string;
      link: string;
      additionalInfo: { hits: string[] };
    }[];
    expect(hit?.data).toBe('Dispatch answers on channel 9 & by phone.');
    expect(hit?.additionalInfo.hits).toEqual([
      '<em>Dispatch</em> answers on <em>channel</em> 9 &amp; by phone.',
    ]);
    expect(hit?.link).toMatch(/\/fleet_handbook\/contacts\.html$/);
  });

  it('replaces the seeded systems when the config says so', async () => {
    const only = await mkdtemp(join(tmpdir(), 'dwz-only-'));
    await writeFile(join(only, 'note.txt'), 'Only this.');
    await writeFile(
      join(only, 'dataworkz.json'),
      JSON.stringify({ replaceSeededSystems: true, systems: [{ name: 'Notes' }] }),
    );
    const replaced = await startEmulator({ apiKeys: ['k'], data: only });
    try {
      expect(Object.values(obj((await call(replaced, '/api/qna/v1/systems')).json))).toEqual(['Notes']);
    } finally {
      await replaced.close();
      await rm(only, { recursive: true, force: true });
    }
  });

  it('answers from the folder with the account LLMs', async () => {
    const llms = obj((await call(emu, '/api/qna/v1/systems/fleet-handbook/llm-providers')).json);
    const llmProviderId = Object.keys(llms)[0] ?? '';
    const res = await call(
      emu,
      `/api/qna/v1/systems/fleet-handbook/answer?${q({ questionText: 'How often are trucks serviced?', llmProviderId })}`,
    );
    expect(obj(res.json).answer).toBe('\n\nTrucks are serviced every 20,000 kilometres [1].');
  });
});

describe('containment in the data folder', () => {
  let base: string;
  beforeAll(async () => {
    // A data folder, and beside it a folder whose name starts with the data folder's name.
    base = await mkdtemp(join(tmpdir(), 'dwz-contain-'));
    await mkdir(join(base, 'data'));
    await mkdir(join(base, 'data-private'));
    await writeFile(join(base, 'data-private', 'secret.txt'), 'The vault code is 1234.\n');
    await writeFile(join(base, 'data', 'public.txt'), 'Opening hours are 9 to 5.\n');
  });
  afterAll(() => rm(base, { recursive: true, force: true }));

  const config = (systems: unknown[]) =>
    writeFile(join(base, 'data', 'dataworkz.json'), JSON.stringify({ systems }));

  it('refuses a sibling folder that shares the data folder name as a prefix', async () => {
    await config([{ name: 'Sneaky', folder: '../data-private' }]);
    await expect(startEmulator({ data: join(base, 'data') })).rejects.toThrow(
      'Folder ../data-private is outside the data folder',
    );
  });

  it('refuses a folder or a file inside that links outside', async () => {
    await symlink(join(base, 'data-private'), join(base, 'data', 'linked'));
    await config([{ name: 'Linked', folder: 'linked' }]);
    await expect(startEmulator({ data: join(base, 'data') })).rejects.toThrow(
      'Folder linked is outside the data folder',
    );
    await rm(join(base, 'data', 'linked'));
    await symlink(join(base, 'data-private', 'secret.txt'), join(base, 'data', 'secret.txt'));
    await config([{ name: 'Files' }]);
    await expect(startEmulator({ data: join(base, 'data') })).rejects.toThrow(
      'secret.txt links outside the data folder',
    );
    await rm(join(base, 'data', 'secret.txt'));
  });

  it('serves folders inside, a data folder reached through a link, and names starting with two dots', async () => {
    await mkdir(join(base, 'data', '..notes'));
    await writeFile(join(base, 'data', '..notes', 'notes.txt'), 'Parking is behind the building.\n');
    await symlink(join(base, 'data'), join(base, 'data-link'));
    await config([{ name: 'Notes', systemId: 'notes', folder: '..notes' }]);
    const emu = await startEmulator({ apiKeys: ['k'], data: join(base, 'data-link') });
    try {
      const res = await call(emu, `/api/qna/v1/systems/notes/search?${q({ query: 'parking' })}`);
      expect(JSON.stringify(res.json)).toContain('Parking is behind the building.');
    } finally {
      await emu.close();
    }
  });
});
