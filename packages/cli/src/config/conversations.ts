import { join } from 'node:path';
import { readJsonFile, writeJsonFile } from './json-file.js';
import { configDir } from './paths.js';

/** Where `agents ask --continue` picks up: the conversation, and the task when the agent asked back. */
export interface Conversation {
  contextId: string;
  taskId?: string;
}

type State = { conversations: Record<string, Conversation> };

const statePath = () => join(configDir(), 'state.json');
const keyOf = (profile: string, agentId: string) => `${profile}/${agentId}`;

export async function lastConversation(profile: string, agentId: string): Promise<Conversation | undefined> {
  const state = await readJsonFile<State>(statePath(), { conversations: {} });
  return state.conversations[keyOf(profile, agentId)];
}

export async function rememberConversation(
  profile: string,
  agentId: string,
  conversation: Conversation,
): Promise<void> {
  const state = await readJsonFile<State>(statePath(), { conversations: {} });
  state.conversations[keyOf(profile, agentId)] = conversation;
  await writeJsonFile(statePath(), state);
}
