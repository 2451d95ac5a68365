import { readdir, realpath } from 'node:fs/promises';
import { basename, extname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { stableId } from '../data/ids.js';
import type {
  Account,
  CorpusDocument,
  DocumentFormat,
  FilterField,
  MetadataValue,
  QnaSystem,
} from '../data/model.js';
import { own } from '../data/own.js';
import { extractText } from '../documents/extract-text.js';
import { fromUtf8 } from '../neutral/bytes.js';
import { FileRefusal, readRegularFile } from './regular-file.js';

/** `dataworkz.json` in a data folder: the QnA systems it defines. */
interface DataConfig {
  /** Serve only the folder's systems, without the seeded ones. Default false. */
  replaceSeededSystems?: boolean;
  systems?: {
    name?: string;
    systemId?: string;
    /** Folder of the system's documents, relative to the data folder. Default: the data folder. */
    folder?: string;
    llms?: Record<string, string>;
    fields?: FilterField[];
    /** Per file name: a title and metadata. */
    documents?: Record<string, { title?: string; metadata?: Record<string, MetadataValue> }>;
  }[];
}

const formatsByExtension: Record<string, DocumentFormat> = {
  '.pdf': 'pdf',
  '.docx': 'docx',
  '.txt': 'txt',
  '.md': 'md',
  '.markdown': 'md',
  '.html': 'html',
  '.htm': 'html',
};

class DataDirectoryError extends Error {
  override readonly name = 'DataDirectoryError';
}

export interface DataDirectory {
  systems: QnaSystem[];
  replaceSeededSystems: boolean;
}

/** Reads a data folder: `dataworkz.json` (optional) and the documents it names, as QnA systems. */
export async function loadDataDirectory(dir: string, account: Account): Promise<DataDirectory> {
  const root = await realFolder(resolve(dir));
  let config: DataConfig = {};
  const configPath = join(root, 'dataworkz.json');
  try {
    config = JSON.parse(fromUtf8(await readDataFile(root, configPath, 'dataworkz.json'))) as DataConfig;
  } catch (error) {
    if (error instanceof DataDirectoryError) throw error;
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      throw new DataDirectoryError(`Cannot read ${configPath}: ${(error as Error).message}`);
    }
  }
  const systems = config.systems?.length ? config.systems : [{}];
  const result: QnaSystem[] = [];
  for (const spec of systems) {
    const folder = await realFolder(resolve(root, spec.folder ?? '.'));
    if (!isWithin(root, folder))
      throw new DataDirectoryError(`Folder ${spec.folder} is outside the data folder`);
    const name = spec.name ?? basename(folder);
    const documents: CorpusDocument[] = [];
    let entries: string[];
    try {
      entries = (await readdir(folder)).sort();
    } catch (error) {
      throw new DataDirectoryError(`Cannot read the folder ${folder}: ${(error as Error).message}`);
    }
    for (const file of entries) {
      const format = own(formatsByExtension, extname(file).toLowerCase());
      if (!format) continue;
      const bytes = await readDataFile(root, join(folder, file), join(spec.folder ?? '.', file));
      const meta = (spec.documents && own(spec.documents, file)) ?? {};
      const paragraphs = extractText(format, bytes)
        .split(/\n\s*\n/)
        .map((p) => p.replace(/\s+/g, ' ').trim())
        .filter(Boolean);
      documents.push({
        documentId: stableId(`data/${name}/${file}`),
        title: meta.title ?? basename(file, extname(file)),
        format,
        paragraphs: paragraphs.length ? paragraphs : [''],
        metadata: meta.metadata ?? {},
        bytes,
        fileName: file,
      });
    }
    result.push({
      systemId: spec.systemId ?? stableId(`data/${name}`),
      name,
      prompt: `Answer from the documents of ${name}.`,
      database: 'local',
      dataset: name.toLowerCase().replace(/\W+/g, '_'),
      createdBy: 'emulator',
      createdDate: '2026-01-01T00:00:00Z',
      modifiedBy: 'emulator',
      modifiedDate: '2026-01-01T00:00:00Z',
      llms: spec.llms ?? { ...account.llms },
      fields: spec.fields ?? inferFields(documents),
      documents,
    });
  }
  return { systems: result, replaceSeededSystems: config.replaceSeededSystems === true };
}

/**
 * A file of the data folder, its links resolved and the result inside the folder; a FIFO or a device
 * there is refused at once instead of waited on.
 */
async function readDataFile(root: string, path: string, shown: string): Promise<Uint8Array> {
  const real = await realpath(path);
  if (!isWithin(root, real)) throw new DataDirectoryError(`${shown} links outside the data folder`);
  try {
    return await readRegularFile(real, maxDataFileBytes);
  } catch (error) {
    if (error instanceof FileRefusal) throw new DataDirectoryError(`${shown} ${error.message}`);
    throw error;
  }
}

/** Node's largest buffer on every platform it runs on: a larger file cannot be read at all. */
const maxDataFileBytes = 2 ** 31 - 1;

/** A folder with every symbolic link resolved, so containment is decided on where files really are. */
async function realFolder(folder: string): Promise<string> {
  try {
    return await realpath(folder);
  } catch (error) {
    throw new DataDirectoryError(`Cannot read the folder ${folder}: ${(error as Error).message}`);
  }
}

/** Whether `path` is `root` or inside it, by path segments: `/data-private` is not inside `/data`. */
function isWithin(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

function inferFields(documents: CorpusDocument[]): FilterField[] {
  const names = [...new Set(documents.flatMap((d) => Object.keys(d.metadata)))].sort();
  return names.map((name) => ({
    name,
    type: documents.every((d) => d.metadata[name] === undefined || typeof d.metadata[name] === 'number')
      ? 'integer'
      : 'string',
    description: `Document metadata field ${name}.`,
  }));
}
