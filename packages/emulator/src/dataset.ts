import type { AgentDefinition } from './agents/model.js';
import type { Account, QnaSystem } from './data/model.js';

/** Everything the emulator serves: the data, and the agents whose scenarios act on it. */
export interface Dataset {
  account: Account;
  agents: AgentDefinition[];
  systems: QnaSystem[];
}
