// Which agent and QnA system the examples use: the ones named in the environment (the runner names the
// emulator's seeded ones), else the first that the deployment lists.
import type { Dataworkz } from '@dataworkz/client';

/** True when the examples run against the embedded emulator, which also accepts fault injection. */
export const onEmulator = process.env.DATAWORKZ_EMULATOR === '1';

export async function chooseAgentId(dw: Dataworkz, envName = 'DATAWORKZ_AGENT_ID'): Promise<string> {
  const fromEnv = process.env[envName];
  if (fromEnv) return fromEnv;
  const [first] = await dw.agents.list();
  if (!first?.agentId) throw new Error('This deployment lists no agents; set DATAWORKZ_AGENT_ID.');
  return first.agentId;
}

export async function chooseSystemId(dw: Dataworkz): Promise<string> {
  const fromEnv = process.env.DATAWORKZ_SYSTEM_ID;
  if (fromEnv) return fromEnv;
  const [first] = Object.keys(await dw.qna.list());
  if (!first) throw new Error('This deployment lists no QnA systems; set DATAWORKZ_SYSTEM_ID.');
  return first;
}

/** The first LLM configuration of a provider map (both LLM-provider endpoints return one). */
export function firstLlmId(llms: Record<string, string>, what: string): string {
  const [first] = Object.keys(llms);
  if (!first) throw new Error(`No LLM is configured for ${what}.`);
  return first;
}
