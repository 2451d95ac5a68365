import type { AgentCard as LegacyCard } from '@a2a-js/sdk';
import { AgentCard } from '@a2a-js/sdk-v1';
import { servedVersions } from '../version.js';

/**
 * An agent's card as A2A v1.0 has it, from its v0.3 card: a JSON-RPC interface per version served in
 * `supportedInterfaces` (v1.0 first, the preferred; v0.3 at the same URL, chosen by `A2A-Version`)
 * instead of `url` and `protocolVersion`, and the security schemes in v1.0's form. Read through the
 * SDK's v1 AgentCard, so it is what v1 clients parse.
 */
export function v1CardJson(legacy: LegacyCard): Record<string, unknown> {
  const json = {
    name: legacy.name,
    description: legacy.description,
    supportedInterfaces: servedVersions.map((protocolVersion) => ({
      url: legacy.url,
      protocolBinding: 'JSONRPC',
      protocolVersion,
    })),
    provider: legacy.provider,
    version: legacy.version,
    documentationUrl: legacy.documentationUrl,
    capabilities: {
      streaming: legacy.capabilities.streaming ?? false,
      pushNotifications: legacy.capabilities.pushNotifications ?? false,
      extensions: legacy.capabilities.extensions ?? [],
      extendedAgentCard: false,
    },
    securitySchemes: {
      sswsApiKey: {
        apiKeySecurityScheme: { location: 'header', name: 'Authorization', description: 'SSWS <API_KEY>' },
      },
      bearerJwt: { httpAuthSecurityScheme: { scheme: 'bearer', bearerFormat: 'JWT' } },
    },
    securityRequirements: [
      { schemes: { sswsApiKey: { list: [] } } },
      { schemes: { bearerJwt: { list: [] } } },
    ],
    defaultInputModes: legacy.defaultInputModes,
    defaultOutputModes: legacy.defaultOutputModes,
    skills: legacy.skills,
  };
  return AgentCard.toJSON(AgentCard.fromJSON(json)) as Record<string, unknown>;
}

/** The v1 card as the SDK's v1 server holds it. */
export function v1Card(legacy: LegacyCard): AgentCard {
  return AgentCard.fromJSON(v1CardJson(legacy));
}
