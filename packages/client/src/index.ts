import { Dataworkz } from './client.js';

export default Dataworkz;
export { type AuthorizedInit, type ClientOptions, Dataworkz } from './client.js';
export { APIPromise, type WithResponse } from './core/api-promise.js';
export { type BackoffOptions, backoffDelay, retryAfterMs } from './core/backoff.js';
export {
  APIConnectionError,
  APIConnectionTimeoutError,
  APIError,
  APIUserAbortError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  DataworkzError,
  errorFromResponse,
  excerpt,
  InternalServerError,
  InvalidParameterError,
  MalformedResponseError,
  NotFoundError,
  PermissionDeniedError,
  QueryFailedError,
  RateLimitError,
  type Redactor,
  RedirectError,
  ResponseTooLargeError,
  UnprocessableEntityError,
} from './core/errors.js';
export type { Logger, LogLevel } from './core/logger.js';
export {
  AmbiguousNameError,
  type NamedEntry,
  type NamedKind,
  type NamedScope,
  NoAnsweringLlmError,
  type ResolveOptions,
  UnknownNameError,
} from './core/names.js';
export type { Fetch, RequestOptions, RetryEvent } from './core/request-options.js';
export type { TokenProvider } from './core/token-provider.js';
export { type DocumentSource, documentIdOf } from './document-id.js';
export {
  FilterExpression,
  type FilterFields,
  type FilterValue,
  filter,
  filterOfFields,
} from './filter.js';
export { type FiltersSchemaZod, filtersSchema } from './filter-schema.js';
export type { components, operations, paths } from './generated/schema.js';
export { type Passage, passageOf } from './passage.js';
export { type Properties, parseProperties, serializeProperties } from './properties.js';
export type { Agents, CardOptions, RespondParams } from './resources/agents.js';
export type { AnswerParams, DocumentParams, Qna, SearchParams } from './resources/qna.js';
export type { APIResource } from './resources/resource.js';
export type * from './types.js';
