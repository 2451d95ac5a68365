/**
 * The parts of the v0.3 A2A request path that run @a2a-js/sdk's code, in one module: A2AServer imports
 * it when the first A2A request arrives, so an emulator that serves no agent (most starts: a test file
 * of QnA calls, a list) never loads the SDK and its dependencies (about 30 modules, 50 ms of CPU).
 */
export { Extensions, HTTP_EXTENSION_HEADER } from '@a2a-js/sdk';
export {
  DefaultExecutionEventBusManager,
  DefaultRequestHandler,
  ServerCallContext,
} from '@a2a-js/sdk/server';
export { AgentRpc, isStreamingMethod } from './agent-rpc.js';
export { readRpcBody, rpcError } from './json-rpc.js';
