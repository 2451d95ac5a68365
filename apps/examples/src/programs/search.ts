// Search a QnA system: a filter made with the builder (values are quoted and escaped for you) and
// `properties` given as an object (serialised to `include_probe=false`).
import Dataworkz, { filter } from '@dataworkz/client';
import { excerpt, field, heading, item } from '../support/output.js';
import { chooseSystemId } from '../support/target.js';

const dw = new Dataworkz();
const systemId = await chooseSystemId(dw);

const result = await dw.qna.search(systemId, {
  query: 'how do I install it',
  filter: filter.in('version', ['2.0', '2.1']),
  properties: { include_probe: false },
});

heading(`Search in ${result.systemName ?? systemId}: "${result.question}"`);
field('questionUuid', result.questionUuid ?? '');
field('inputFilters', result.inputFilters ?? '');
field('appliedFilters', result.appliedFilters ?? '');
field(
  'counts',
  `${result.pdfCount ?? 0} PDF, ${result.wordCount ?? 0} Word, ${result.textCount ?? 0} text, ${result.linksCount ?? 0} links`,
);

heading(`${result.searchResultsList?.length ?? 0} results`);
for (const [rank, hit] of (result.searchResultsList ?? []).entries()) {
  item(`${rank + 1}. [${hit.type ?? '?'}] ${hit.source ?? ''}`);
  item(`   ${excerpt(hit.data ?? '', 110)}`);
}
