import { AgentCard, Message, type Part } from '@a2a-js/sdk-v1';
import { type Client, ClientFactory, JsonRpcTransportFactory } from '@a2a-js/sdk-v1/client';
import type { Emulator } from '@dataworkz/emulator';

/**
 * The official @a2a-js/sdk 1.3.0 client for an agent, built from the v1.0 card (asked for with
 * `A2A-Version: 1.0`); every request carries the emulator's key. The client sends `A2A-Version: 1.0`
 * itself on every call.
 */
export async function v1ClientFor(
  emu: Emulator,
  agentId: string,
): Promise<{ client: Client; card: AgentCard }> {
  const fetchImpl: typeof fetch = (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `SSWS ${emu.apiKey}`);
    return fetch(input, { ...init, headers });
  };
  const response = await fetchImpl(`${emu.url}/api/agents/v1/a2a/${agentId}/.well-known/agent-card.json`, {
    headers: { 'a2a-version': '1.0' },
  });
  const card = AgentCard.fromJSON(await response.json());
  const factory = new ClientFactory({ transports: [new JsonRpcTransportFactory({ fetchImpl })] });
  return { client: await factory.createFromAgentCard(card), card };
}

/** A v1.0 user message. */
export function v1Message(text: string, more: object = {}): Message {
  return Message.fromJSON({ messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...more });
}

/** The text parts of v1.0 parts, joined. */
export const v1Text = (parts: readonly Part[] | undefined) =>
  (parts ?? []).map((part) => (part.content?.$case === 'text' ? part.content.value : '')).join('');
