/** How much work each section does. The full plan is the published one; the quick one only proves the harness. */
export interface Plan {
  readonly name: 'full' | 'quick';
  /** Repetitions of each timed measurement; the table shows their median, min and max. */
  readonly rounds: number;
  /**
   * The call sections (unary, concurrency, client CPU) run rounds of short blocks: two blocks of every
   * subject per round, interleaved, giving one ratio per round; the table shows their median and
   * spread. Sequential calls per block of the unary section, and its rounds:
   */
  readonly unaryBlockCalls: number;
  readonly unaryRounds: number;
  /** Calls in each block of the concurrency section, `inFlight` at a time, and its rounds. */
  readonly concurrentBlockCalls: number;
  readonly concurrentRounds: number;
  readonly inFlight: number;
  /** Calls in each block of the client-CPU section (an in-process fetch, no network), and its rounds. */
  readonly cpuBlockCalls: number;
  readonly cpuRounds: number;
  /** Calls per reading of heap allocated per call, and the readings taken per subject. */
  readonly allocationCalls: number;
  readonly allocationReadings: number;
  readonly streamEvents: number;
  /**
   * Rounds of the streaming section: every reader reads the stream once per round, and the per-round
   * ratios against the SDK transport are reported beside the ratio of medians. A read of 50,000 events
   * varies by a quarter from one to the next on a shared machine: five rounds moved that ratio by ±0.1.
   */
  readonly streamRounds: number;
  readonly memoryCalls: number;
  /** Calls and events before the first reading, so one-off heap growth is not counted as growth. */
  readonly memoryWarmCalls: number;
  readonly memoryWarmEvents: number;
  readonly memoryStreamEvents: number;
  readonly memoryRounds: number;
  readonly loadRounds: number;
  readonly loadSeconds: number;
  /** An unrecorded run per route and server first, so both are measured warm (0: none). */
  readonly loadWarmSeconds: number;
  readonly loadConnections: number;
  readonly importRuns: number;
  /**
   * Retrieval questions asked of each QnA system and question kind in each half of the evaluation;
   * absent: all of them. Every question costs an answer and a search on each of three rankings.
   */
  readonly retrievalQuestionsPerKind?: number;
  /**
   * Brotli quality of the size section: 11 is what size-limit and CDNs use, and takes about a minute on
   * the emulator's 6 MB of word vectors; a quick run only proves the section works.
   */
  readonly sizeBrotliQuality: number;
  /** Sequential tool calls per subject and round of the MCP section. */
  readonly mcpCalls: number;
  /** Cold starts of the CLI, each alternating with bare Node. */
  readonly cliRuns: number;
  /** Fresh processes of each emulator start-up case (run in turn with bare Node each round). */
  readonly emulatorStartRuns: number;
  /** Questions of each CLI batch throughput run, and of the large run whose memory is measured. */
  readonly cliBatchQuestions: number;
  readonly cliMemoryQuestions: number;
  /** Golden rows of the large `qna eval` run whose memory is measured (the small one is a tenth). */
  readonly cliEvalMemoryQuestions: number;
  /** Seconds over which the CLI eval section measures the emulator's rate limit as a client meets it. */
  readonly cliLimitSeconds: number;
  /** Sequential calls and streams per block of the recorder section, and its rounds. */
  readonly recorderBlockCalls: number;
  readonly recorderBlockStreams: number;
  readonly recorderRounds: number;
  /**
   * Whether the sections on one runtime share its emulator and stream source, each started once,
   * instead of starting their own. Each emulator start indexes the corpus and loads the sentence
   * encoder: seconds of CPU, beside the measurements. The full plan gives every section fresh servers.
   */
  readonly shareServers: boolean;
  /**
   * Whether the runtimes run side by side, each going through the sections in turn, instead of each
   * section running on every runtime before the next starts. Side by side the runtimes' figures are
   * taken on a machine the other one keeps busy: only for a run whose figures are not read. The
   * sections mostly wait on the processes they start (servers starting, rate limits, cold starts), so
   * the run takes little more than its slowest runtime.
   */
  readonly runtimesSideBySide: boolean;
  /** Upper bound on one child process, so a stuck section cannot hang the run. */
  readonly sectionTimeoutMs: number;
}

export const fullPlan: Plan = {
  name: 'full',
  rounds: 5,
  unaryBlockCalls: 50,
  unaryRounds: 120,
  concurrentBlockCalls: 500,
  concurrentRounds: 30,
  inFlight: 100,
  cpuBlockCalls: 500,
  cpuRounds: 30,
  allocationCalls: 500,
  allocationReadings: 9,
  streamEvents: 50_000,
  streamRounds: 11,
  memoryCalls: 10_000,
  memoryWarmCalls: 2_000,
  memoryWarmEvents: 10_000,
  memoryStreamEvents: 100_000,
  memoryRounds: 3,
  loadRounds: 3,
  loadSeconds: 5,
  loadWarmSeconds: 1,
  loadConnections: 50,
  importRuns: 10,
  sizeBrotliQuality: 11,
  mcpCalls: 500,
  cliRuns: 20,
  emulatorStartRuns: 7,
  cliBatchQuestions: 1_600,
  cliMemoryQuestions: 100_000,
  cliEvalMemoryQuestions: 5_000,
  cliLimitSeconds: 3,
  recorderBlockCalls: 50,
  recorderBlockStreams: 5,
  recorderRounds: 30,
  shareServers: false,
  runtimesSideBySide: false,
  sectionTimeoutMs: 10 * 60_000,
};

export const quickPlan: Plan = {
  name: 'quick',
  rounds: 1,
  unaryBlockCalls: 25,
  unaryRounds: 2,
  concurrentBlockCalls: 50,
  concurrentRounds: 2,
  inFlight: 10,
  cpuBlockCalls: 50,
  cpuRounds: 2,
  allocationCalls: 50,
  allocationReadings: 2,
  streamEvents: 500,
  streamRounds: 1,
  memoryCalls: 200,
  memoryWarmCalls: 50,
  memoryWarmEvents: 200,
  memoryStreamEvents: 1_000,
  memoryRounds: 1,
  loadRounds: 1,
  // A quarter of a second per run: 8 runs in the emulator section, 2 in retrieval (load.ts samples
  // once at the end of a run that short, so it does not last the full second autocannon's sampling would).
  loadSeconds: 0.25,
  loadWarmSeconds: 0,
  loadConnections: 10,
  importRuns: 1,
  // One of each system and kind still asks every kind of question, answerable and not, of every ranking.
  retrievalQuestionsPerKind: 1,
  sizeBrotliQuality: 4,
  mcpCalls: 20,
  // One cold start of each command, after its unrecorded warm-up run.
  cliRuns: 1,
  emulatorStartRuns: 1,
  // Above the rate limit's burst of 10, so the rate-limited runs still wait on the limit (under half a
  // second at 50/s); every question is a CLI request like any other.
  cliBatchQuestions: 32,
  // The small runs are a tenth of these: 10 searches, 10 golden rows.
  cliMemoryQuestions: 100,
  cliEvalMemoryQuestions: 100,
  // Half a second is 25 requests at the limit: enough to show the measuring runs.
  cliLimitSeconds: 0.5,
  recorderBlockCalls: 20,
  recorderBlockStreams: 2,
  recorderRounds: 3,
  // The quick run proves each section works; the state a server keeps from one section to the next
  // is not what it measures.
  shareServers: true,
  // The quick run proves the harness on each runtime; its figures are not read.
  runtimesSideBySide: true,
  sectionTimeoutMs: 2 * 60_000,
};
