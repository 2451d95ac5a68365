/**
 * `node bench/dist/eval-main.js [questions]`: only the `qna eval` measurements (section 9's evaluation
 * rows), on the machine's Node, printed as the ratio against the rate limit measured in the same run.
 */
import { fullPlan } from './plan.js';
import { measureCliEval } from './sections/cli-eval.js';

const questions = Number(process.argv[2] ?? 400);
if (!Number.isInteger(questions) || questions < 1) {
  console.error('usage: eval-main.js [questions (default 400)]');
  process.exit(2);
}
const result = await measureCliEval(process.execPath, {
  questions,
  memoryQuestions: questions * 5,
  limitSeconds: fullPlan.cliLimitSeconds,
});
for (const m of result.measurements) {
  console.log(`${m.metric} | ${m.subject}: ${m.samples.map((s) => s.toFixed(2)).join(', ')} ${m.unit}`);
}
for (const note of result.notes) console.log(note);
