// Download a document: take a search result, then read the bytes of the document it came from.
import Dataworkz, { documentIdOf } from '@dataworkz/client';
import { excerpt, field, heading } from '../support/output.js';
import { chooseSystemId } from '../support/target.js';

const dw = new Dataworkz();
const systemId = await chooseSystemId(dw);

// `documentIdOf` finds the document id a result names (a field, its metadata, or its link).
const { searchResultsList } = await dw.qna.search(systemId, { query: 'install' });
const hit = searchResultsList.find((result) => documentIdOf(result) !== undefined);
if (!hit) throw new Error('No search result of this system names its document.');

// The result itself is enough to ask for its document; it comes back as a Response: read it as
// text, bytes, a Blob or a stream.
const response = await dw.qna.document(systemId, hit);
const contentType = response.headers.get('content-type') ?? 'unknown';
const bytes = new Uint8Array(await response.arrayBuffer());

heading(`Document ${documentIdOf(hit)} (${hit.source})`);
field('content type', contentType);
field('size', `${bytes.byteLength} bytes`);
if (/^text\/|json|markdown/.test(contentType)) {
  field('starts with', excerpt(new TextDecoder().decode(bytes), 120));
} else {
  // Binary formats (PDF, Word) announce themselves in their first bytes.
  field('first bytes', JSON.stringify(new TextDecoder('latin1').decode(bytes.subarray(0, 8))));
}
