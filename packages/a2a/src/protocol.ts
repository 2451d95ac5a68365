import { DataworkzError } from '@dataworkz/client';

export type ProtocolVersion = '0.3' | '1.0';

/** The A2A protocol versions this package speaks, or `auto` to follow the agent card. */
export type A2AProtocol = 'auto' | '0.3' | '1.0';

/** The version one call speaks, and the card's URL for it when it names one. */
export type ProtocolChoice = { version: ProtocolVersion; url?: string };

/** The agent card names no interface in a version this package speaks (or not the one forced). */
export class UnsupportedProtocolError extends DataworkzError {
  override name = 'UnsupportedProtocolError';
  /** The versions the card offers over JSON-RPC. */
  readonly offered: string[];
  constructor(wanted: A2AProtocol, offered: string[]) {
    super(
      `The agent card offers no A2A ${wanted === 'auto' ? '0.3 or 1.0' : wanted} JSON-RPC interface (offered: ${offered.length > 0 ? offered.join(', ') : 'none'})`,
    );
    this.offered = offered;
  }
}

type CardInterface = { url?: unknown; protocolBinding?: unknown; protocolVersion?: unknown };

// Only the JSON-RPC binding is spoken; a v1.0 card may also list gRPC and HTTP+JSON interfaces.
function isJsonRpc(binding: unknown): boolean {
  return typeof binding !== 'string' || binding.toUpperCase() === 'JSONRPC';
}

// `1.0`, `1.0.0` and `1.2` are all the v1 line (minor versions are backwards compatible); `0.3.x` is v0.3.
function lineOf(version: string): ProtocolVersion | undefined {
  return /^1(\.\d+)*$/.test(version) ? '1.0' : /^0\.3(\.\d+)*$/.test(version) ? '0.3' : undefined;
}

/** The version to speak with an agent, from its card's `supportedInterfaces` (v1.0) or top level (v0.3). */
export function selectProtocol(card: unknown, wanted: A2AProtocol = 'auto'): ProtocolChoice {
  const offered = new Map<ProtocolVersion, string | undefined>();
  const seen: string[] = [];
  const record = (card ?? {}) as { supportedInterfaces?: unknown } & CardInterface;
  // The card's own `protocolVersion` and `url` last: a v0.3 card's, or those a v1.0 card keeps for older clients.
  const interfaces = Array.isArray(record.supportedInterfaces) ? record.supportedInterfaces : [];
  for (const entry of [...interfaces, record] as (CardInterface | null)[]) {
    if (typeof entry !== 'object' || entry === null || !isJsonRpc(entry.protocolBinding)) continue;
    if (typeof entry.protocolVersion !== 'string') continue;
    seen.push(entry.protocolVersion);
    const line = lineOf(entry.protocolVersion);
    if (line !== undefined && !offered.has(line)) {
      offered.set(line, typeof entry.url === 'string' ? entry.url : undefined);
    }
  }
  for (const version of wanted === 'auto' ? (['1.0', '0.3'] as const) : [wanted]) {
    if (!offered.has(version)) continue;
    const url = offered.get(version);
    return url === undefined ? { version } : { version, url };
  }
  throw new UnsupportedProtocolError(wanted, seen);
}
