/** How a document is stored; decides its bytes, content type and the search result `type`. */
export type DocumentFormat = 'pdf' | 'docx' | 'txt' | 'md' | 'html';

export type MetadataValue = string | number;

export interface CorpusDocument {
  documentId: string;
  title: string;
  format: DocumentFormat;
  /** Paragraphs of extracted text; retrieval indexes each one. */
  paragraphs: string[];
  metadata: Record<string, MetadataValue>;
  /** Bytes served by the document endpoint; rendered from the text when absent. */
  bytes?: Uint8Array;
  /** The name of the file the document was read from, when it was read from one. */
  fileName?: string;
  /** The original address of a web page (`html` documents). */
  url?: string;
}

export interface FilterField {
  name: string;
  type: 'string' | 'integer';
  description: string;
}

export interface QnaSystem {
  systemId: string;
  name: string;
  prompt: string;
  database: string;
  dataset: string;
  createdBy: string;
  createdDate: string;
  modifiedBy: string;
  modifiedDate: string;
  /** LLM configuration id to model name, for this system. */
  llms: Record<string, string>;
  fields: FilterField[];
  documents: CorpusDocument[];
}

export interface Account {
  /** LLM configuration id to model name. */
  llms: Record<string, string>;
  /** The LLM configuration marked default; absent when the account has none. */
  defaultLlmId?: string;
}

export interface AgentProfile {
  agentId: string;
  name: string;
  description: string;
  createdByName: string;
  createdDate: string;
  /** The agent's own LLM configurations. */
  llms: Record<string, string>;
  /** The LLM configured in the agent, used when a call names none. */
  llmId?: string;
  /** Whether a structured response is configured. */
  structuredResponse: boolean;
}
