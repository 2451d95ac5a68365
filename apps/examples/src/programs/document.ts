// Download a document: find one through a search result's link, then read its bytes.
import Dataworkz from '@dataworkz/client';
import { excerpt, field, heading } from '../support/output.js';
import { chooseSystemId } from '../support/target.js';

const dw = new Dataworkz();
const systemId = await chooseSystemId(dw);

// A search result's link names the document it came from (`...?documentId=...`).
const { searchResultsList = [] } = await dw.qna.search(systemId, { query: 'install' });
const documentId = searchResultsList
  .map((hit) => (hit.link ? new URL(hit.link, dw.baseUrl).searchParams.get('documentId') : null))
  .find((id): id is string => Boolean(id));
if (!documentId) throw new Error('No search result links to a document of this system.');

// The document comes back as a Response: read it as text, bytes, a Blob or a stream.
const response = await dw.qna.document(systemId, { documentId });
const contentType = response.headers.get('content-type') ?? 'unknown';
const bytes = new Uint8Array(await response.arrayBuffer());

heading(`Document ${documentId}`);
field('content type', contentType);
field('size', `${bytes.byteLength} bytes`);
if (/^text\/|json|markdown/.test(contentType)) {
  field('starts with', excerpt(new TextDecoder().decode(bytes), 120));
} else {
  // Binary formats (PDF, Word) announce themselves in their first bytes.
  field('first bytes', JSON.stringify(new TextDecoder('latin1').decode(bytes.subarray(0, 8))));
}
