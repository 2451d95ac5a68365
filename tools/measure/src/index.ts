export {
  answerParent,
  ask,
  askChild,
  type ChildOptions,
  isRunning,
  outputOf,
  startChild,
  stopChild,
} from './child.js';
export { openDescriptors, peakRss } from './process-sample.js';
export { medianInterval, type Summary, summarize } from './quantiles.js';
export { type RawAnswer, type RawRequest, rawRequest, sendBytes } from './raw-http.js';
export { until, waitFor } from './wait.js';
