// What a page imports: the client with a token (an API key is refused in a page), the stream, the
// context-values helpers and the errors to catch.
import { AuthenticationError, streamAgent, type TaskUpdate } from '@dataworkz/a2a';
import Dataworkz, { documentIdOf, type SearchResultItem } from '@dataworkz/client';
import { findProvidedValuesUri } from '@dataworkz/context-values';

const dw = new Dataworkz({ baseUrl: window.location.origin, token: async () => 'short-lived-token' });

export async function ask(agentId: string, text: string, contextId: string | undefined): Promise<string> {
  const run = streamAgent(dw, agentId, {
    text,
    contextId,
    contextValues: { page: window.location.pathname },
  });
  const steps: TaskUpdate[] = [];
  try {
    for await (const event of run) if (event.type === 'task-update') steps.push(event.data);
    return (await run.finalAnswer()).answer;
  } catch (error) {
    if (error instanceof AuthenticationError) return 'Please sign in again.';
    throw error;
  }
}

export function documentLink(hit: SearchResultItem): string | undefined {
  return documentIdOf(hit);
}

export const advertised = async (agentId: string) => findProvidedValuesUri(await dw.agents.card(agentId));
