// List the metadata fields a QnA system can filter on, then use the values the service reports for a
// low-cardinality field to narrow a search.
import Dataworkz, { filter } from '@dataworkz/client';
import { field, heading, item } from '../support/output.js';
import { chooseSystemId } from '../support/target.js';

const dw = new Dataworkz();
const systemId = await chooseSystemId(dw);

const { filters = [] } = await dw.qna.filters(systemId);
heading(`${filters.length} filters`);
for (const f of filters) {
  // `values` is only given for low-cardinality fields.
  const values = f.values ? `: ${f.values.map(String).join(', ')}` : '';
  item(`${f.name} (${f.type}, ${f.cardinality} distinct)${values}`);
}

// Use the reported values of the first field that has them: search within its first two values.
const usable = filters.find((f) => f.name && f.values && f.values.length > 0);
if (usable?.name && usable.values) {
  const values = usable.values.slice(0, 2) as (string | number | boolean)[];
  const expression = filter.in(usable.name, values);
  const result = await dw.qna.search(systemId, { query: 'install', filter: expression });
  heading(`Search "install" within ${expression}`);
  field('results', String(result.searchResultsList?.length ?? 0));
  field('appliedFilters', result.appliedFilters ?? '');
}
