import { strFromU8, unzipSync, unzlibSync } from 'fflate';
import type { DocumentFormat } from '../data/model.js';

/** Plain text of a stored document, for indexing: paragraphs separated by blank lines. */
export function extractText(format: DocumentFormat, bytes: Uint8Array): string {
  switch (format) {
    case 'docx':
      return docxText(bytes);
    case 'pdf':
      return pdfText(bytes);
    case 'html':
      return htmlText(strFromU8(bytes));
    default:
      return strFromU8(bytes);
  }
}

function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

function htmlText(html: string): string {
  return decodeEntities(
    html
      .replace(/<(script|style)[\s\S]*?<\/\1>/gi, '')
      .replace(/<\/(p|h[1-6]|li|div|title)>/gi, '\n\n')
      .replace(/<[^>]+>/g, ' ')
      .replace(/[ \t]+/g, ' '),
  );
}

function docxText(bytes: Uint8Array): string {
  const files = unzipSync(bytes, { filter: (f) => f.name === 'word/document.xml' });
  const xml = files['word/document.xml'];
  if (!xml) return '';
  return [...strFromU8(xml).matchAll(/<w:p[\s>][\s\S]*?<\/w:p>/g)]
    .map((p) =>
      decodeEntities([...p[0].matchAll(/<w:t(?:\s[^>]*)?>([\s\S]*?)<\/w:t>/g)].map((t) => t[1]).join('')),
    )
    .filter((t) => t.trim())
    .join('\n\n');
}

/** Text shown with Tj/TJ in a PDF's content streams (uncompressed or FlateDecode); enough for simple files. */
function pdfText(bytes: Uint8Array): string {
  const raw = Buffer.from(bytes).toString('latin1');
  const lines: string[] = [];
  for (const m of raw.matchAll(/<<([\s\S]*?)>>\s*stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    let content = m[2] ?? '';
    if (/\/FlateDecode/.test(m[1] ?? '')) {
      try {
        content = Buffer.from(unzlibSync(Buffer.from(content, 'latin1'))).toString('latin1');
      } catch {
        continue;
      }
    }
    for (const t of content.matchAll(/\((?:\\.|[^\\)])*\)\s*Tj|\[((?:\((?:\\.|[^\\)])*\)|[^\]])*)\]\s*TJ/g)) {
      const strings = [...t[0].matchAll(/\(((?:\\.|[^\\)])*)\)/g)].map((s) =>
        (s[1] ?? '').replace(/\\([nrt\\()])/g, (_x, c: string) => ({ n: '\n', r: '', t: '\t' })[c] ?? c),
      );
      lines.push(strings.join(''));
    }
  }
  return lines.join('\n').replace(/\n{3,}/g, '\n\n');
}
