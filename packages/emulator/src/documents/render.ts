import type { CorpusDocument, DocumentFormat } from '../data/model.js';
import { utf8 } from '../neutral/bytes.js';
import { renderDocx } from './docx.js';
import { renderPdf } from './pdf.js';

export const contentTypes: Record<DocumentFormat, string> = {
  pdf: 'application/pdf',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  txt: 'text/plain; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

const rendered = new WeakMap<CorpusDocument, Uint8Array>();

/** The document's bytes in its own format (rendered once from its text when it has no stored bytes). */
export function documentBytes(document: CorpusDocument): Uint8Array {
  if (document.bytes) return document.bytes;
  const cached = rendered.get(document);
  if (cached) return cached;
  const { title, paragraphs } = document;
  let bytes: Uint8Array;
  switch (document.format) {
    case 'pdf':
      bytes = renderPdf(title, paragraphs);
      break;
    case 'docx':
      bytes = renderDocx(title, paragraphs);
      break;
    case 'md':
      bytes = utf8(`# ${title}\n\n${paragraphs.join('\n\n')}\n`);
      break;
    case 'html':
      bytes = utf8(
        `<!doctype html>\n<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>${
          document.url ? `<link rel="canonical" href="${escapeHtml(document.url)}">` : ''
        }</head><body><h1>${escapeHtml(title)}</h1>${paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join('')}</body></html>\n`,
      );
      break;
    default:
      bytes = utf8(`${title}\n\n${paragraphs.join('\n\n')}\n`);
  }
  rendered.set(document, bytes);
  return bytes;
}
