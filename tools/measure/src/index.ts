export { outcomeOf, postRpc, type RpcAnswer, streamRequest, type Target } from './agent-wire.js';
export {
  answerParent,
  ask,
  askChild,
  type ChildOptions,
  type Exit,
  isRunning,
  outputOf,
  runToExit,
  startChild,
  stopChild,
} from './child.js';
export { openDescriptors, peakRss } from './process-sample.js';
export { medianInterval, type Summary, summarize } from './quantiles.js';
export { type RawAnswer, type RawRequest, rawRequest, sendBytes } from './raw-http.js';
export { until, waitFor } from './wait.js';
