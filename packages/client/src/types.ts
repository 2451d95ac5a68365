import type { components } from './generated/schema.js';

type Schemas = components['schemas'];

/** @interface */
export type ErrorBody = Schemas['Error'];
/** @interface */
export type AgentListItem = Schemas['AgentListItem'];
/** @interface */
export type ConversationMessage = Schemas['ConversationMessage'];
/** @interface */
export type ContextValues = Schemas['ContextValues'];
/** @interface */
export type AgentResponseRequest = Schemas['AgentResponseRequest'];
/** @interface */
export type AgentResponse = Schemas['AgentResponse'];
/** @interface */
export type AgentResponseData = Schemas['AgentResponseData'];
/** @interface */
export type AgentFailedResponse = Schemas['AgentFailedResponse'];
/** @interface */
export type StructuredResponse = Schemas['StructuredResponse'];
/** @useDeclaredType */
export type ExecutionStatus = Schemas['ExecutionStatus'];
/** @interface */
export type FailedResult = Schemas['FailedResult'];
/** @useDeclaredType */
export type QueryPlan = Schemas['QueryPlan'];
/** @interface */
export type QueryPlanObject = Schemas['QueryPlanObject'];
/** @interface */
export type QueryPlanStep = Schemas['QueryPlanStep'];
/** @useDeclaredType */
export type Probe = Schemas['Probe'];
/** @interface */
export type ProbeNode = Schemas['ProbeNode'];
/** @interface */
export type LlmProviderMap = Schemas['LlmProviderMap'];
/** @interface */
export type AgentCard = Schemas['AgentCard'];
/** @interface */
export type AgentProvider = Schemas['AgentProvider'];
/** @interface */
export type AgentCapabilities = Schemas['AgentCapabilities'];
/** @interface */
export type AgentExtension = Schemas['AgentExtension'];
/** @interface */
export type AgentSkill = Schemas['AgentSkill'];
/** @interface */
export type JsonRpcRequest = Schemas['JsonRpcRequest'];
/** @interface */
export type StreamTimeout = Schemas['StreamTimeout'];
/** @interface */
export type QnaSystemMap = Schemas['QnaSystemMap'];
/** @interface */
export type QnaSystemDetails = Schemas['QnaSystemDetails'];
/** @interface */
export type SearchResultItem = Schemas['SearchResultItem'];
/** @interface */
export type SearchResultInfo = Schemas['SearchResultInfo'];
/** @interface */
export type QueryResultFields = Schemas['QueryResultFields'];
/** @interface */
export type SearchResponse = Schemas['SearchResponse'];
/** @interface */
export type AnswerResponse = Schemas['AnswerResponse'];
/** @interface */
export type FilterList = Schemas['FilterList'];
/** @interface */
export type Filter = Schemas['Filter'];
/** @interface */
export type QnaConversationRequest = Schemas['QnaConversationRequest'];
/** @interface */
export type QuestionHistory = Schemas['QuestionHistory'];
/** @interface */
export type QuestionRecord = Schemas['QuestionRecord'];
/** @useDeclaredType */
export type QualityScore = Schemas['QualityScore'];

/**
 * A result type that also admits the fields the spec does not name. Results keep every field the
 * service sends, but their types declare only the known ones (so a misspelled name does not compile);
 * cast to this to read the others: `(hit as WithUnknownFields<SearchResultItem>).rank`, typed `unknown`.
 */
export type WithUnknownFields<T> = T & { [key: string]: unknown };

/**
 * An answered question from the question history (beyond the published contract): its answer
 * parsed, its model, and its quality scores (spelled as the service spells them) as numbers.
 */
export type AnsweredQuestion = {
  /** The answer response, parsed from the JSON text the service keeps. */
  llm_response: AnswerResponse;
  /** The model that answered. */
  llm_model?: string;
} & { [K in Exclude<keyof QuestionRecord, 'llm_response' | 'llm_model'>]?: number };
