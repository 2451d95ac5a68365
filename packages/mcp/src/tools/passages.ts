import type { SearchResultItem, WithUnknownFields } from '@dataworkz/client';
import { documentIdOf } from '@dataworkz/client';
import { z } from 'zod';
import { documentUri } from '../document-uri.js';

/** A passage of a search result or an answer's context, as the tools return it. */
export const passageSchema = z.object({
  text: z.string().describe('The matching content.'),
  title: z.string().optional(),
  source: z.string().describe('Where the passage came from (collection, dataset, column).'),
  type: z.string().optional().describe('Kind of document: pdf, word, text, link, ...'),
  link: z.string().describe("The service's link to the document."),
  documentId: z.string().optional(),
  uri: z
    .string()
    .optional()
    .describe(
      'The document as an MCP resource (dataworkz://...): read it with resources/read or read_document.',
    ),
  score: z.number().optional().describe('Similarity to the query.'),
  metadata: z.record(z.string(), z.unknown()).optional(),
});

export type Passage = z.infer<typeof passageSchema>;

export function toPassage(systemId: string, item: SearchResultItem): Passage {
  const documentId = documentIdOf(item);
  const title = (item as WithUnknownFields<SearchResultItem>).title;
  return {
    text: item.data ?? item.contents ?? '',
    ...(typeof title === 'string' ? { title } : {}),
    source: item.source,
    ...(item.type !== undefined ? { type: item.type } : {}),
    link: item.link,
    ...(documentId !== undefined ? { documentId, uri: documentUri(systemId, documentId) } : {}),
    ...(item.similarityScore !== undefined ? { score: item.similarityScore } : {}),
    ...(item.metadata !== undefined ? { metadata: item.metadata } : {}),
  };
}

/** One resource link per distinct document, so a client can offer or read the sources. */
export function resourceLinks(passages: readonly Passage[]) {
  const seen = new Set<string>();
  const links: { type: 'resource_link'; uri: string; name: string; description?: string }[] = [];
  for (const passage of passages) {
    if (passage.uri === undefined || seen.has(passage.uri)) continue;
    seen.add(passage.uri);
    links.push({
      type: 'resource_link',
      uri: passage.uri,
      name: passage.title ?? passage.documentId ?? passage.uri,
      description: `Source document (${passage.type ?? 'document'}) from ${passage.source}`,
    });
  }
  return links;
}
