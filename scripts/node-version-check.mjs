// Loaded into every Node process under scripts/with-node.mjs (NODE_OPTIONS=--import): stops a process
// that runs on another Node than the one asked for, and notes each process for the closing summary.
import { appendFileSync } from 'node:fs';

const { DATAWORKZ_NODE_EXPECTED: expected, DATAWORKZ_NODE_RECORD: record } = process.env;
const script = process.argv[1] ?? '(no script)';

if (record) appendFileSync(record, `${process.version}\t${script}\n`);
if (expected && process.version !== expected) {
  process.stderr.write(
    `${script} runs on Node ${process.version}, not ${expected}: another node binary comes first on its PATH\n`,
  );
  process.exit(1);
}
