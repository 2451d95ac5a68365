/** What the parent asks a server child for, and what the child answers with where it listens. */
export type ServerKind =
  | 'emulator'
  | 'emulator-word-vectors'
  | 'emulator-lexical'
  | 'stream-source'
  | 'recorder';

export interface ServerInfo {
  readonly url: string;
  readonly apiKey: string;
  /** The emulator's seeded ids, for building request paths. */
  readonly systemId?: string;
  readonly llmProviderId?: string;
  readonly agentId?: string;
  /** The emulator's QnA systems, name to id. */
  readonly systems?: Readonly<Record<string, string>>;
}
