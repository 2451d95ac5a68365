/** Child-process entry: runs one measured section in a fresh process and reports its measurements. */
import { answerParent } from './child.js';
import { a2aName, readWithDataworkz } from './sections/a2a-reader.js';
import { type CallsRequest, measureCalls } from './sections/calls.js';
import { type EmulatorLoadRequest, measureEmulatorLoad } from './sections/emulator-load.js';
import { type McpCallsRequest, measureMcpCalls } from './sections/mcp.js';
import {
  type MemoryCallsRequest,
  type MemoryStreamRequest,
  measureCallMemory,
  measureStreamMemory,
} from './sections/memory.js';
import { measureRetrieval, type RetrievalRequest } from './sections/retrieval.js';
import { measureStreaming, type StreamingRequest } from './sections/streaming.js';

export type SectionRequest =
  | ({ readonly section: 'calls' } & CallsRequest)
  | ({ readonly section: 'streaming' } & StreamingRequest)
  | ({ readonly section: 'memory-calls' } & MemoryCallsRequest)
  | ({ readonly section: 'memory-stream' } & MemoryStreamRequest)
  | ({ readonly section: 'emulator-load' } & EmulatorLoadRequest)
  | ({ readonly section: 'retrieval' } & RetrievalRequest)
  | ({ readonly section: 'mcp-calls' } & McpCallsRequest);

answerParent(async (message) => {
  const request = message as SectionRequest;
  switch (request.section) {
    case 'calls':
      return measureCalls(request);
    case 'streaming':
      return measureStreaming(request, new Map([[a2aName, readWithDataworkz]]));
    case 'memory-calls':
      return measureCallMemory(request);
    case 'memory-stream':
      return measureStreamMemory(request);
    case 'emulator-load':
      return measureEmulatorLoad(request);
    case 'retrieval':
      return measureRetrieval(request);
    case 'mcp-calls':
      return measureMcpCalls(request);
  }
});
