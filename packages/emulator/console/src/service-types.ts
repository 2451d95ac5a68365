// The shapes of the service's answers the console reads (the parts it shows).

export interface Agent {
  agentId: string;
  name: string;
  description?: string;
  createdByName?: string;
  createdDate?: string;
  scenariosCount?: string;
}

export interface QnaFilter {
  name: string;
  type: string;
  description?: string;
  cardinality?: number;
  values?: (string | number | boolean)[];
}

export interface Passage {
  source?: string;
  type?: string;
  data?: string;
  contents?: string;
  link?: string;
  documentId?: string;
  title?: string;
  similarityScore?: number;
  score?: number;
  metadata?: Record<string, unknown>;
}

export interface SearchAnswer {
  question?: string;
  answer?: string;
  context?: Passage[];
  /** Search answers list their passages here. */
  searchResultsList?: Passage[];
  status?: string;
  failureReason?: string;
}

/** `{ id: name }` maps, as the service lists systems and LLM providers. */
export type NameMap = Record<string, string>;
