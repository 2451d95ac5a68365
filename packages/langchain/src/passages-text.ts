import type { Document } from '@langchain/core/documents';
import type { PassageMetadata } from './documents.js';

/** Passages as a model reads them: numbered, each with its title or source and its link. */
export function passagesText(documents: readonly Document<PassageMetadata>[]): string {
  if (documents.length === 0) return 'No passages matched.';
  return documents
    .map((document, index) => {
      const { title, source, link } = document.metadata;
      return `[${index + 1}] ${title ?? source} (${link})\n${document.pageContent}`;
    })
    .join('\n\n');
}
