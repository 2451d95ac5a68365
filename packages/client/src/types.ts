import type { components } from './generated/schema.js';

type Schemas = components['schemas'];

export type ErrorBody = Schemas['Error'];
export type AgentListItem = Schemas['AgentListItem'];
export type ConversationMessage = Schemas['ConversationMessage'];
export type ContextValues = Schemas['ContextValues'];
export type AgentResponseRequest = Schemas['AgentResponseRequest'];
export type AgentResponse = Schemas['AgentResponse'];
export type AgentResponseData = Schemas['AgentResponseData'];
export type AgentFailedResponse = Schemas['AgentFailedResponse'];
export type StructuredResponse = Schemas['StructuredResponse'];
export type ExecutionStatus = Schemas['ExecutionStatus'];
export type FailedResult = Schemas['FailedResult'];
export type QueryPlan = Schemas['QueryPlan'];
export type QueryPlanObject = Schemas['QueryPlanObject'];
export type QueryPlanStep = Schemas['QueryPlanStep'];
export type Probe = Schemas['Probe'];
export type ProbeNode = Schemas['ProbeNode'];
export type LlmProviderMap = Schemas['LlmProviderMap'];
export type AgentCard = Schemas['AgentCard'];
export type AgentProvider = Schemas['AgentProvider'];
export type AgentCapabilities = Schemas['AgentCapabilities'];
export type AgentExtension = Schemas['AgentExtension'];
export type AgentSkill = Schemas['AgentSkill'];
export type JsonRpcRequest = Schemas['JsonRpcRequest'];
export type StreamTimeout = Schemas['StreamTimeout'];
export type QnaSystemMap = Schemas['QnaSystemMap'];
export type QnaSystemDetails = Schemas['QnaSystemDetails'];
export type SearchResultItem = Schemas['SearchResultItem'];
export type SearchResultInfo = Schemas['SearchResultInfo'];
export type QueryResultFields = Schemas['QueryResultFields'];
export type SearchResponse = Schemas['SearchResponse'];
export type AnswerResponse = Schemas['AnswerResponse'];
export type FilterList = Schemas['FilterList'];
export type Filter = Schemas['Filter'];
export type QnaConversationRequest = Schemas['QnaConversationRequest'];
export type QuestionHistory = Schemas['QuestionHistory'];
export type QuestionRecord = Schemas['QuestionRecord'];
export type QualityScore = Schemas['QualityScore'];

/**
 * A result type that also admits the fields the spec does not name. Results keep every field the
 * service sends, but their types declare only the known ones (so a misspelled name does not compile);
 * cast to this to read the others: `(hit as WithUnknownFields<SearchResultItem>).rank`, typed `unknown`.
 */
export type WithUnknownFields<T> = T & { [key: string]: unknown };

type ScoreName = Exclude<keyof QuestionRecord, 'llm_response' | 'llm_model'>;

/**
 * An answered question from the question history (beyond the published contract): its answer
 * parsed, its model, and its quality scores (spelled as the service spells them) as numbers.
 */
export type AnsweredQuestion = {
  /** The answer response, parsed from the JSON text the service keeps. */
  llm_response: AnswerResponse;
  /** The model that answered. */
  llm_model?: string;
} & { [K in ScoreName]?: number };
