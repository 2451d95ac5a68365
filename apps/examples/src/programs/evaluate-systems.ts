// Evaluate two QnA systems on a small golden set with the vendor's retrieval and answer metrics, and
// compare them: the system whose documents hold the answers retrieves the golden passages.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evaluateQna } from '@dataworkz/cli/eval';
import Dataworkz from '@dataworkz/client';
import { field, heading, item } from '../support/output.js';

// The emulator's two seeded systems, or the two named in the environment (comma-separated).
const systems = (
  process.env.DATAWORKZ_EVAL_SYSTEMS ?? 'Customer Support Knowledge Base,Product Documentation'
).split(',');

// A golden set in the vendor's JSONL form: the question, the expected answer, the passages that hold it.
const golden = [
  {
    query_id: 'returns',
    question: 'How long do I have to return hardware?',
    gt_answer: 'Within 30 days of delivery, or 60 days for Gold members.',
    gt_context: [
      'Customers may return hardware within 30 days of delivery for a full refund. Gold members may return hardware within 60 days of delivery.',
    ],
    source: 'support',
  },
  {
    query_id: 'refunds',
    question: 'When are refunds issued?',
    gt_answer: 'Within 5 business days after the returned item arrives at the warehouse.',
    gt_context: [
      'Refunds are issued to the original payment method within 5 business days after the returned item arrives at the warehouse.',
    ],
    source: 'support',
  },
];
const dir = mkdtempSync(join(tmpdir(), 'dataworkz-eval-example-'));
const goldenFile = join(dir, 'golden.jsonl');
writeFileSync(goldenFile, golden.map((row) => JSON.stringify(row)).join('\n'));

const result = await evaluateQna({
  client: new Dataworkz(),
  golden: goldenFile,
  systems,
  outDir: join(dir, 'out'),
});

for (const row of result.stats) {
  heading(`${row.experiment_name} (${row.count} questions)`);
  for (const metric of ['context_recall', 'context_precision', 'ndcg', 'rouge_l_f1', 'answer_similarity']) {
    if (row.means[metric] !== undefined) field(metric, row.means[metric].toFixed(3));
  }
}
heading('Files');
for (const file of Object.values(result.files)) item(file);
