import type { CorpusDocument, QnaSystem } from '../data/model.js';

/** The file extension a stored format had at its source. */
const extension: Record<CorpusDocument['format'], string> = {
  pdf: 'pdf',
  docx: 'docx',
  txt: 'txt',
  md: 'md',
  html: 'html',
};

/** The document's file name, else one made from its title (spaces become `_`, URI-breaking characters go). */
function fileNameOf(document: CorpusDocument): string {
  if (document.fileName) return document.fileName;
  const base = document.title
    .trim()
    .replace(/\s+/g, '_')
    .replace(/[^\p{L}\p{N}_.()-]/gu, '');
  return `${base || document.documentId}.${extension[document.format]}`;
}

/**
 * The URI of the file a document was ingested from, ending in its file name, as deployments send it
 * in `link` (`s3a://bucket/path/file.pdf`). A web page links to its own address.
 */
export function sourceUri(system: QnaSystem, document: CorpusDocument): string {
  if (document.url) return document.url;
  const bucket = `dataworkz-${system.database}`.toLowerCase().replace(/[^a-z0-9.-]/g, '-');
  const path = [system.dataset, ...fileNameOf(document).split('/')].map(encodeURIComponent).join('/');
  return `s3a://${bucket}/${path}`;
}
