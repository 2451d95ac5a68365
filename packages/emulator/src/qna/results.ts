import type { DocumentFormat, QnaSystem } from '../data/model.js';
import { highlight } from './highlight.js';
import type { Hit, Passage } from './hit.js';
import { sourceUri } from './source-uri.js';

/** The search result `type` of each stored format: Word files are `word`, web pages `link`. */
const resultType: Record<DocumentFormat, 'pdf' | 'word' | 'text' | 'link'> = {
  pdf: 'pdf',
  docx: 'word',
  txt: 'text',
  md: 'text',
  html: 'link',
};

/** A result item's JSON around its score; everything but the score is fixed for a passage. */
interface ItemText {
  beforeScore: string;
  afterScore: string;
}

// Written once per passage: serialising the same text and metadata on every query was a tenth of a search.
const itemTexts = new WeakMap<Passage, ItemText>();

function itemText(system: QnaSystem, passage: Passage): ItemText {
  let known = itemTexts.get(passage);
  if (!known) {
    const { document } = passage;
    const fixed = JSON.stringify({
      source: `${system.database}\`${system.dataset}\`body`,
      type: resultType[document.format],
      data: passage.text,
      contents: passage.text,
      link: sourceUri(system, document),
      documentId: document.documentId,
      title: document.title,
    });
    known = {
      beforeScore: `${fixed.slice(0, -1)},"similarityScore":`,
      afterScore: `,"metadata":${JSON.stringify(document.metadata)}`,
    };
    itemTexts.set(passage, known);
  }
  return known;
}

/**
 * A search result item as JSON text: the spec's four fields (`link` being the source file's URI) plus
 * the extras real deployments send (contents, documentId, title, similarityScore, metadata, and
 * `additionalInfo.hits` with the words that match `terms` in `<em>` when any do).
 */
export function resultItemJson(system: QnaSystem, hit: Hit, terms?: Set<string>): string {
  const { beforeScore, afterScore } = itemText(system, hit.passage);
  const marked = terms ? highlight(hit.passage, terms) : undefined;
  const info = marked === undefined ? '' : `,"additionalInfo":${JSON.stringify({ hits: [marked] })}`;
  return `${beforeScore}${JSON.stringify(Math.round(hit.score * 1000) / 1000)}${afterScore}${info}}`;
}

/** The per-type counts of a search response; every item has a link. */
export function countResults(hits: Hit[]) {
  const count = (type: string) => hits.filter((h) => resultType[h.passage.document.format] === type).length;
  return {
    linksCount: hits.length,
    pdfCount: count('pdf'),
    wordCount: count('word'),
    textCount: count('text'),
  };
}

/**
 * `head` and `tail` as one JSON object with `key` between them, its value the array of `items`
 * (JSON text already), keeping the key order of the response.
 */
export function objectWithList(
  head: Record<string, unknown>,
  key: string,
  items: string[],
  tail: Record<string, unknown>,
): string {
  const before = JSON.stringify(head).slice(1, -1);
  const after = JSON.stringify(tail).slice(1, -1);
  const list = `${JSON.stringify(key)}:[${items.join(',')}]`;
  return `{${before ? `${before},` : ''}${list}${after ? `,${after}` : ''}}`;
}
