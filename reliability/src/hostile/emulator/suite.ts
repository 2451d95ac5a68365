import { EmulatorProcess } from '../../emulator-process.js';
import type { Suite } from '../../runner/case.js';
import { cliBadPort, cliSigterm } from './cases/cli.js';
import { manyTasks, manyTurns } from './cases/conversation-state.js';
import { dataFolderEscape } from './cases/data-folder.js';
import { deepJson } from './cases/deep-json.js';
import { faultHeaders, unwritableReply } from './cases/fault-headers.js';
import { misspelledRoute } from './cases/fault-route.js';
import { garbageHeads, halfOpen } from './cases/half-open.js';
import { jwtWithoutExp } from './cases/jwt-exp.js';
import { longSearchTerm, longTextAtCap, longTextLinear } from './cases/long-text.js';
import {
  consoleFromElsewhere,
  exportThroughLink,
  recorderDotSegments,
  replayedStreams,
} from './cases/outsider.js';
import { prototypeIds } from './cases/prototype-ids.js';
import { recorderAuthenticated, recorderUnauthenticated } from './cases/recorder.js';
import { repeatedReferences } from './cases/references.js';
import { sdkNoise } from './cases/sdk-noise.js';
import { slowReaders } from './cases/slow-reader.js';

/** Hostile clients against an emulator process on loopback; each case starts an emulator of its own. */
export const emulatorSuite: Suite = {
  name: 'emulator',
  description: 'hostile clients against the emulator',
  cases: [
    faultHeaders,
    unwritableReply,
    longTextAtCap,
    longTextLinear,
    longSearchTerm,
    halfOpen,
    garbageHeads,
    slowReaders,
    recorderUnauthenticated,
    recorderAuthenticated,
    prototypeIds,
    deepJson,
    manyTurns,
    manyTasks,
    repeatedReferences,
    dataFolderEscape,
    jwtWithoutExp,
    sdkNoise,
    misspelledRoute,
    consoleFromElsewhere,
    replayedStreams,
    exportThroughLink,
    recorderDotSegments,
    cliBadPort,
    cliSigterm,
  ],
  cleanup: () => EmulatorProcess.closeAll(2000),
};
