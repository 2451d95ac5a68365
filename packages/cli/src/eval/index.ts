// The base of GoldenFileError, as the CLI's own door exports it.
export { UsageError } from '../exit-codes.js';
export { type AnswerScores, answerScores } from './answer-metrics.js';
export { type Baseline, readBaseline } from './baseline.js';
export { bleu } from './bleu.js';
export { type MeanInterval, pairedBootstrap } from './bootstrap.js';
export {
  type Comparison,
  type CurrentScores,
  compareWithBaseline,
  type DroppedQuestion,
  type ExperimentRef,
  type MetricComparison,
  type Verdict,
} from './compare.js';
export {
  type EvaluateOptions,
  type EvaluationResult,
  type Experiment,
  evaluateQna,
} from './evaluate.js';
export { GoldenFileError, type GoldenRow, type ReadGoldenOptions, readGolden } from './golden.js';
export { METRIC_NAMES, type MetricName, type Scores } from './metric-names.js';
export { answerChunks, probeChunks } from './probe.js';
export { ListLiteralError, parsePythonList } from './python-list.js';
export { type QuestionGroup, QuestionScores } from './question-scores.js';
export { type RetrievalScores, retrievalScores } from './retrieval-metrics.js';
export { type RougeL, rougeL } from './rouge.js';
export type { StatsRow } from './stats.js';
