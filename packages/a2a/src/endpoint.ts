import { serializePath, serializeQuery } from '@dataworkz/client';

/** `{baseUrl}/api/agents/v1/a2a/{agentId}/stream?llmId=&properties=`: every A2A call of an agent goes here. */
export function agentEndpoint(
  baseUrl: string,
  agentId: string,
  llmId?: string | undefined,
  properties?: string | undefined,
): string {
  const path = serializePath('/api/agents/v1/a2a/{agentId}/stream', { agentId });
  const search = serializeQuery({ llmId, properties });
  return `${baseUrl}${path}${search ? `?${search}` : ''}`;
}
