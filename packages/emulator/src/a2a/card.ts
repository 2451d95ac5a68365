import type { AgentCard } from '@a2a-js/sdk';
import type { AgentDefinition } from '../agents/model.js';

/** The A2A v0.3 card of an agent: streaming, the provided-values extension, a skill per scenario. */
export function agentCard(agent: AgentDefinition, baseUrl: string, extensionUri: string): AgentCard {
  return {
    name: agent.name,
    description: agent.description,
    url: `${baseUrl}/api/agents/v1/a2a/${encodeURIComponent(agent.agentId)}/stream`,
    version: '1.0.0',
    protocolVersion: '0.3.0',
    preferredTransport: 'JSONRPC',
    documentationUrl: `${baseUrl}/api/agents/v1/a2a/${encodeURIComponent(agent.agentId)}/.well-known/agent-card.json`,
    provider: { organization: 'Dataworkz', url: 'https://dataworkz.com' },
    capabilities: {
      streaming: true,
      pushNotifications: false,
      stateTransitionHistory: false,
      extensions: [
        {
          uri: extensionUri,
          description: 'Context values provided by the caller, as a data part marked with this URI.',
          required: false,
          params: {},
        },
      ],
    },
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: agent.scenarios.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      tags: s.tags,
      examples: s.examples,
      inputModes: ['text/plain'],
      outputModes: ['text/plain'],
    })),
    supportsAuthenticatedExtendedCard: false,
    securitySchemes: {
      sswsApiKey: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'SSWS <API_KEY>' },
      bearerJwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
    },
    security: [{ sswsApiKey: [] }, { bearerJwt: [] }],
  };
}
