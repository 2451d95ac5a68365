/** Child-process entry: runs one measured section in a fresh process and reports its measurements. */
import { answerParent } from '@dataworkz/measure';
import type { AllocationsRequest } from './sections/allocations.js';
import type { CallsRequest } from './sections/calls.js';
import type { ClientCpuRequest } from './sections/client-cpu.js';
import type { EmulatorLoadRequest } from './sections/emulator-load.js';
import type { McpCallsRequest } from './sections/mcp.js';
import type { MemoryCallsRequest, MemoryStreamRequest } from './sections/memory.js';
import type { ProfileCallsRequest } from './sections/profile-calls.js';
import type { RecorderRequest } from './sections/recorder.js';
import type { RetrievalRequest } from './sections/retrieval.js';
import type { StreamingRequest } from './sections/streaming.js';

export type SectionRequest =
  | ({ readonly section: 'calls' } & CallsRequest)
  | ({ readonly section: 'client-cpu' } & ClientCpuRequest)
  | ({ readonly section: 'allocations' } & AllocationsRequest)
  | ({ readonly section: 'streaming' } & StreamingRequest)
  | ({ readonly section: 'memory-calls' } & MemoryCallsRequest)
  | ({ readonly section: 'memory-stream' } & MemoryStreamRequest)
  | ({ readonly section: 'emulator-load' } & EmulatorLoadRequest)
  | ({ readonly section: 'retrieval' } & RetrievalRequest)
  | ({ readonly section: 'mcp-calls' } & McpCallsRequest)
  | ({ readonly section: 'recorder' } & RecorderRequest)
  | ({ readonly section: 'profile-calls' } & ProfileCallsRequest);

// Each section is imported only when asked for, so a process loads nothing it does not measure (and
// a CPU profile of it shows no start-up of modules it never uses).
answerParent(async (message) => {
  const request = message as SectionRequest;
  switch (request.section) {
    case 'calls':
      return (await import('./sections/calls.js')).measureCalls(request);
    case 'client-cpu':
      return (await import('./sections/client-cpu.js')).measureClientCpu(request);
    case 'allocations':
      return (await import('./sections/allocations.js')).measureAllocations(request);
    case 'streaming': {
      const { measureStreaming } = await import('./sections/streaming.js');
      const { a2aName, readWithDataworkz } = await import('./sections/a2a-reader.js');
      return measureStreaming(request, new Map([[a2aName, readWithDataworkz]]));
    }
    case 'memory-calls':
      return (await import('./sections/memory.js')).measureCallMemory(request);
    case 'memory-stream':
      return (await import('./sections/memory.js')).measureStreamMemory(request);
    case 'emulator-load':
      return (await import('./sections/emulator-load.js')).measureEmulatorLoad(request);
    case 'retrieval':
      return (await import('./sections/retrieval.js')).measureRetrieval(request);
    case 'mcp-calls':
      return (await import('./sections/mcp.js')).measureMcpCalls(request);
    case 'recorder':
      return (await import('./sections/recorder.js')).measureRecorder(request);
    case 'profile-calls':
      return (await import('./sections/profile-calls.js')).profileCalls(request);
  }
});
