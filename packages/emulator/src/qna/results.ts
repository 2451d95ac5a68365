import type { DocumentFormat, QnaSystem } from '../data/model.js';
import type { Hit } from './retriever.js';

/** The search result `type` of each stored format: Word files are `word`, web pages `link`. */
const resultType: Record<DocumentFormat, 'pdf' | 'word' | 'text' | 'link'> = {
  pdf: 'pdf',
  docx: 'word',
  txt: 'text',
  md: 'text',
  html: 'link',
};

function documentLink(systemId: string, documentId: string): string {
  return `/api/qna/v1/systems/${encodeURIComponent(systemId)}/document?documentId=${encodeURIComponent(documentId)}`;
}

/** A search result item: the spec's four fields plus the extras real deployments send. */
export function resultItem(system: QnaSystem, hit: Hit): Record<string, unknown> {
  const { document } = hit.passage;
  return {
    source: `${system.database}\`${system.dataset}\`body`,
    type: resultType[document.format],
    data: hit.passage.text,
    link: documentLink(system.systemId, document.documentId),
    documentId: document.documentId,
    title: document.title,
    similarityScore: Math.round(hit.score * 1000) / 1000,
    metadata: document.metadata,
  };
}

/** The per-type counts of a search response. */
export function countResults(items: Record<string, unknown>[]) {
  const count = (type: string) => items.filter((i) => i.type === type).length;
  return {
    linksCount: items.filter((i) => typeof i.link === 'string' && i.link !== '').length,
    pdfCount: count('pdf'),
    wordCount: count('word'),
    textCount: count('text'),
  };
}
