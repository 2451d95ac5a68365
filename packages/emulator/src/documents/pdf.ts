import { latin1 } from '../neutral/bytes.js';
/** Renders a title and paragraphs as a real, minimal PDF 1.4 (Helvetica, US Letter, as many pages as needed). */
export function renderPdf(title: string, paragraphs: string[]): Uint8Array {
  const lines: { text: string; size: number }[] = [
    { text: title, size: 16 },
    { text: '', size: 11 },
  ];
  for (const paragraph of paragraphs) {
    for (const line of wrap(paragraph, 90)) lines.push({ text: line, size: 11 });
    lines.push({ text: '', size: 11 });
  }
  const perPage = 46;
  const pages: (typeof lines)[] = [];
  for (let i = 0; i < lines.length; i += perPage) pages.push(lines.slice(i, i + perPage));

  // Objects: 1 catalog, 2 page tree, 3 font, 4 info, then a page and its content stream per page.
  const objects: string[] = [];
  const pageIds = pages.map((_, i) => 5 + i * 2);
  objects[1] = '<< /Type /Catalog /Pages 2 0 R >>';
  objects[2] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pages.length} >>`;
  objects[3] = '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>';
  objects[4] = `<< /Title (${pdfString(title)}) /Producer (Dataworkz emulator) >>`;
  pages.forEach((page, i) => {
    const content = ['BT', '72 740 Td', '16 TL']
      .concat(page.map((l) => `/F1 ${l.size} Tf (${pdfString(l.text)}) Tj T*`))
      .concat('ET')
      .join('\n');
    const pageId = pageIds[i] ?? 0;
    objects[pageId] =
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageId + 1} 0 R >>`;
    objects[pageId + 1] = `<< /Length ${content.length} >>\nstream\n${content}\nendstream`;
  });

  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  for (let id = 1; id < objects.length; id++) {
    offsets[id] = out.length;
    out += `${id} 0 obj\n${objects[id]}\nendobj\n`;
  }
  const xrefAt = out.length;
  out += `xref\n0 ${objects.length}\n0000000000 65535 f \n`;
  for (let id = 1; id < objects.length; id++) out += `${String(offsets[id]).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xrefAt}\n%%EOF\n`;
  return latin1(out);
}

/** PDF string escaping; characters outside Latin-1 become `?` since the font is WinAnsi. */
function pdfString(text: string): string {
  return text.replace(/[^\x20-\xff]/g, '?').replace(/[\\()]/g, (c) => `\\${c}`);
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + word.length + 1 > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines;
}
