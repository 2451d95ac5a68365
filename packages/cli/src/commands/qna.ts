import { createWriteStream } from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  type Dataworkz,
  documentIdOf,
  type FilterExpression,
  type RequestOptions,
  type SearchResultItem,
} from '@dataworkz/client';
import type { Context } from '../context.js';
import { UsageError } from '../exit-codes.js';
import { keyValues, parseWhere } from '../key-values.js';
import type { Output } from '../output.js';
import { terminalText } from '../terminal-text.js';

/** Shortens a passage to one line for a terminal. */
function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export async function systems(ctx: Context): Promise<void> {
  const list = await (await ctx.client()).qna.list();
  if (ctx.out.json) return ctx.out.printJson(list);
  ctx.out.table(
    ['ID', 'NAME'],
    Object.entries(list).map(([id, name]) => [id, String(name)]),
  );
}

export async function get(ctx: Context, system: string): Promise<void> {
  const dw = await ctx.client();
  const details = await dw.qna.get((await dw.qna.resolve(system)).systemId);
  if (ctx.out.json) return ctx.out.printJson(details);
  const rows = Object.entries(details)
    .filter(([, value]) => value !== null && typeof value !== 'object')
    .map(([key, value]) => [key, String(value)]);
  ctx.out.table(['FIELD', 'VALUE'], rows);
}

export async function llms(ctx: Context, system: string): Promise<void> {
  const dw = await ctx.client();
  const map = await dw.qna.llmProviders((await dw.qna.resolve(system)).systemId);
  if (ctx.out.json) return ctx.out.printJson(map);
  ctx.out.table(
    ['ID', 'NAME'],
    Object.entries(map).map(([id, name]) => [id, String(name)]),
  );
}

export async function filters(ctx: Context, system: string): Promise<void> {
  const dw = await ctx.client();
  const list = await dw.qna.filters((await dw.qna.resolve(system)).systemId);
  if (ctx.out.json) return ctx.out.printJson(list);
  ctx.out.table(
    ['NAME', 'TYPE', 'VALUES'],
    list.filters.map((f) => [
      f.name,
      f.type,
      f.values ? f.values.map(String).join(', ') : `${f.cardinality} distinct`,
    ]),
  );
}

export interface RetrievalOptions {
  where?: string[];
  filter?: string;
  properties?: string[];
  llm?: string;
}

/** The filter expression of `--where` (built with the client's builder) or `--filter` (raw text). */
export async function filterOf(options: RetrievalOptions) {
  if (options.where && options.filter !== undefined) {
    throw new UsageError('Use --where or --filter, not both: --filter takes the whole expression.');
  }
  if (options.filter !== undefined) return options.filter;
  if (!options.where) return undefined;
  const { filter } = await import('@dataworkz/client');
  return filter.and(...options.where.map(parseWhere).map(([field, values]) => filter.in(field, values)));
}

/**
 * Each passage: its source and score, its text on one line, its link, and the id of its document when
 * the result names one (what `qna document` takes); then, at a terminal, the command that fetches one.
 */
function printPassages(out: Output, systemId: string, items: readonly SearchResultItem[]): void {
  const { dim, cyan } = out.colors;
  let documents = 0;
  for (const [index, item] of items.entries()) {
    const score =
      item.similarityScore !== undefined ? ` ${dim(`score ${item.similarityScore.toFixed(3)}`)}` : '';
    out.line(`${cyan(`[${index + 1}]`)} ${terminalText(item.source)}${score}`);
    out.line(`    ${terminalText(oneLine(item.data ?? item.contents ?? ''))}`);
    out.line(`    ${dim(terminalText(item.link))}`);
    const documentId = documentIdOf(item);
    if (documentId === undefined) continue;
    documents += 1;
    out.line(`    ${dim('document')} ${terminalText(documentId)}`);
  }
  // For a person at a terminal; a pipe's stderr stays empty when all went well.
  if (documents > 0 && out.interactive)
    out.error(dim(`Fetch a document: dataworkz qna document ${systemId} <document>`));
}

/** `--where`/`--filter`, `--properties` and `--llm` as the client takes them, read once per command. */
export interface Retrieval {
  filter: FilterExpression | string | undefined;
  properties: Record<string, string> | undefined;
  llm: string | undefined;
}

export async function retrievalOf(options: RetrievalOptions): Promise<Retrieval> {
  return {
    filter: await filterOf(options),
    properties: keyValues(options.properties, '--properties') as Record<string, string> | undefined,
    llm: options.llm,
  };
}

/** `--llm` as the id of one of the system's LLMs: given by id or model name (any case). */
export async function llmOf(dw: Dataworkz, systemId: string, retrieval: Retrieval): Promise<Retrieval> {
  if (retrieval.llm === undefined) return retrieval;
  return { ...retrieval, llm: (await dw.qna.resolveLlm(systemId, retrieval.llm)).llmProviderId };
}

/** What a batch watches of one call: its signal, and each retry the client makes. */
export interface CallWatch {
  signal: AbortSignal;
  retried(): void;
}

function requestOptions(watch: CallWatch | undefined): RequestOptions | undefined {
  return watch && { signal: watch.signal, onRetry: () => watch.retried() };
}

/** One search, as `qna search` and its batch make it. */
export function searchSystem(
  dw: Dataworkz,
  systemId: string,
  query: string,
  retrieval: Retrieval,
  watch?: CallWatch,
) {
  const { filter, properties, llm } = retrieval;
  return dw.qna.search(systemId, { query, filter, properties, llmProviderId: llm }, requestOptions(watch));
}

/** One question, as `qna answer` and its batch ask it (the LLM already chosen). */
export function answerQuestion(
  dw: Dataworkz,
  systemId: string,
  question: string,
  retrieval: Retrieval & { llm: string },
  watch?: CallWatch,
) {
  const { filter, properties, llm } = retrieval;
  return dw.qna.answer(
    systemId,
    { questionText: question, llmProviderId: llm, filter, properties },
    requestOptions(watch),
  );
}

export async function search(
  ctx: Context,
  system: string,
  query: string,
  options: RetrievalOptions & { limit?: number },
): Promise<void> {
  const dw = await ctx.client();
  const { systemId } = await dw.qna.resolve(system);
  const retrieval = await llmOf(dw, systemId, await retrievalOf(options));
  const result = await searchSystem(dw, systemId, query, retrieval);
  if (ctx.out.json) return ctx.out.printJson(result);
  const items = result.searchResultsList.slice(0, options.limit);
  if (items.length === 0) return ctx.out.error('No passages matched.');
  printPassages(ctx.out, systemId, items);
}

export async function answer(
  ctx: Context,
  system: string,
  question: string,
  options: RetrievalOptions,
): Promise<void> {
  const dw = await ctx.client();
  const { systemId } = await dw.qna.resolve(system);
  const resolved = await retrievalOf(options);
  const llm = (await dw.qna.answeringLlm(systemId, options.llm)).llmProviderId;
  const result = await answerQuestion(dw, systemId, question, { ...resolved, llm });
  if (ctx.out.json) return ctx.out.printJson(result);
  // Answers arrive with the service's leading blank lines; a person reads the text.
  ctx.out.line(terminalText(result.answer.trim()));
  if (result.context.length === 0) return;
  ctx.out.line();
  ctx.out.line(ctx.out.colors.bold('Sources'));
  printPassages(ctx.out, systemId, result.context);
}

export async function document(
  ctx: Context,
  system: string,
  reference: string,
  options: { output?: string },
): Promise<void> {
  const dw = await ctx.client();
  const { systemId } = await dw.qna.resolve(system);
  const documentId = documentIdFrom(reference);
  const response = await dw.qna.document(
    systemId,
    { documentId },
    { maxResponseBytes: Number.MAX_SAFE_INTEGER },
  );
  if (!response.body) throw new Error('The service sent the document without a body.');
  const total = Number(response.headers.get('content-length') ?? Number.NaN);
  let written = 0;
  const progress = ctx.out.interactive && options.output !== undefined ? await import('ora') : undefined;
  const spinner = progress?.default({ text: 'Downloading…', stream: process.stderr }).start();
  const count = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      written += chunk.length;
      if (spinner)
        spinner.text = `Downloading ${sizeOf(written)}${Number.isFinite(total) ? ` of ${sizeOf(total)}` : ''}`;
      done(null, chunk);
    },
  });
  const target =
    options.output !== undefined ? createWriteStream(options.output, { flags: 'w' }) : process.stdout;
  try {
    await pipeline(
      Readable.fromWeb(response.body as import('node:stream/web').ReadableStream),
      count,
      target,
    );
  } finally {
    spinner?.stop();
  }
  if (options.output !== undefined) ctx.out.error(`Saved ${sizeOf(written)} to ${options.output}`);
}

// A URI (`s3a://…`, `https://…`) or an absolute path: a link, not an id.
const LINK = /^(?:[a-z][a-z0-9+.-]*:\/\/|\/)/i;

/**
 * The document id `qna document` is given: an id as it is, or a link that carries one (a
 * document-endpoint link, `…/document?documentId=<id>`). A result's link to its source file names no
 * document: a usage error says what to give instead.
 */
function documentIdFrom(reference: string): string {
  if (!LINK.test(reference)) return reference;
  const documentId = documentIdOf({ link: reference });
  if (documentId !== undefined) return documentId;
  throw new UsageError(
    `${reference} is a link to a source file, which names no document id. Give the document id, printed as \`document <id>\` under each result of \`dataworkz qna search\` and \`dataworkz qna answer\` (\`documentId\` with --json), or a document link (…/document?documentId=<id>).`,
  );
}

function sizeOf(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
