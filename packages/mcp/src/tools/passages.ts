import { passageOf, type SearchResultItem } from '@dataworkz/client';
import { z } from 'zod';
import { documentUri } from '../document-uri.js';

/** The client's `Passage`, as the tools' output describes it, with the document's resource URI. */
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
  const passage = passageOf(item);
  const { documentId } = passage;
  return documentId === undefined ? passage : { ...passage, uri: documentUri(systemId, documentId) };
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
