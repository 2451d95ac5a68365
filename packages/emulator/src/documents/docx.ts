import { strToU8, zipSync } from 'fflate';

const xmlHeader = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>';

const escapeXml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c] ?? c);

/** Renders a title and paragraphs as a Word (.docx) file: the minimal OPC parts, zipped with fflate. */
export function renderDocx(title: string, paragraphs: string[]): Uint8Array {
  const run = (text: string, heading = false) =>
    `<w:p><w:r>${heading ? '<w:rPr><w:b/><w:sz w:val="32"/></w:rPr>' : ''}<w:t xml:space="preserve">${escapeXml(text)}</w:t></w:r></w:p>`;
  const document = `${xmlHeader}<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${run(title, true)}${paragraphs
    .map((p) => run(p))
    .join('')}<w:sectPr/></w:body></w:document>`;
  const files = {
    '[Content_Types].xml': `${xmlHeader}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>`,
    '_rels/.rels': `${xmlHeader}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>`,
    'docProps/core.xml': `${xmlHeader}<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>${escapeXml(title)}</dc:title><dc:creator>Dataworkz emulator</dc:creator></cp:coreProperties>`,
    'word/document.xml': document,
  };
  // A fixed timestamp keeps the bytes identical between runs.
  const mtime = new Date('2026-01-01T00:00:00Z');
  return zipSync(
    Object.fromEntries(Object.entries(files).map(([name, xml]) => [name, [strToU8(xml), { mtime }]])),
    { level: 6 },
  );
}
