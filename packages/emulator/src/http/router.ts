import { HttpError } from './errors.js';

/** The spec's name of each of the service's operations. */
export type OperationId =
  | 'listAgents'
  | 'respondToAgent'
  | 'listAgentLlmProviders'
  | 'getAgentCardLegacy'
  | 'getAgentCard'
  | 'streamAgent'
  | 'listQnaSystems'
  | 'getQnaSystem'
  | 'listQnaLlmProviders'
  | 'searchQnaSystem'
  | 'answerQnaQuestion'
  | 'listQnaFilters'
  | 'getQnaDocument'
  | 'searchQnaSystemWithHistory'
  | 'answerQnaQuestionWithHistory'
  | 'listQnaQuestionHistory'
  | 'getQnaQuestion'
  | 'callAgentLegacy';

interface RouteSpec {
  method: 'GET' | 'POST';
  path: string;
  operationId: OperationId;
  /** Also answered with one `/` after the path. */
  trailingSlash?: true;
}

/** The 13 operations of the service's API, with their exact paths, then those beyond the contract. */
const routes: RouteSpec[] = [
  { method: 'GET', path: '/api/agents/v1/', operationId: 'listAgents' },
  { method: 'POST', path: '/api/agents/v1/{agentId}/response', operationId: 'respondToAgent' },
  { method: 'GET', path: '/api/agents/v1/llm-providers', operationId: 'listAgentLlmProviders' },
  {
    method: 'GET',
    path: '/api/agents/v1/a2a/{agentId}/.well-known/agent.json',
    operationId: 'getAgentCardLegacy',
  },
  {
    method: 'GET',
    path: '/api/agents/v1/a2a/{agentId}/.well-known/agent-card.json',
    operationId: 'getAgentCard',
  },
  // A2A clients that join paths to the card's URL as a base (httpx, Python's A2A kits) post to `.../stream/`.
  {
    method: 'POST',
    path: '/api/agents/v1/a2a/{agentId}/stream',
    operationId: 'streamAgent',
    trailingSlash: true,
  },
  { method: 'GET', path: '/api/qna/v1/systems', operationId: 'listQnaSystems' },
  { method: 'GET', path: '/api/qna/v1/systems/{systemId}', operationId: 'getQnaSystem' },
  { method: 'GET', path: '/api/qna/v1/systems/{systemId}/llm-providers', operationId: 'listQnaLlmProviders' },
  { method: 'GET', path: '/api/qna/v1/systems/{systemId}/search', operationId: 'searchQnaSystem' },
  { method: 'GET', path: '/api/qna/v1/systems/{systemId}/answer', operationId: 'answerQnaQuestion' },
  { method: 'GET', path: '/api/qna/v1/systems/{systemId}/filters', operationId: 'listQnaFilters' },
  { method: 'GET', path: '/api/qna/v1/systems/{systemId}/document', operationId: 'getQnaDocument' },
  // Beyond the published contract: chat over the corpus and the question history.
  {
    method: 'POST',
    path: '/api/qna/v1/systems/{systemId}/search',
    operationId: 'searchQnaSystemWithHistory',
  },
  {
    method: 'POST',
    path: '/api/qna/v1/systems/{systemId}/answer',
    operationId: 'answerQnaQuestionWithHistory',
  },
  {
    method: 'GET',
    path: '/api/qna/v1/systems/{systemId}/questionshistory',
    operationId: 'listQnaQuestionHistory',
  },
  {
    method: 'GET',
    path: '/api/qna/v1/systems/{systemId}/questions/{questionId}',
    operationId: 'getQnaQuestion',
  },
  // Legacy, outside the spec: the agent call the vendor's first demos make, served for them alone.
  {
    method: 'POST',
    path: '/api/qna/v1/systems/{systemId}/call-agent',
    operationId: 'callAgentLegacy',
  },
];

/** Every operationId: the contract's 13, then those beyond it, then the legacy one. */
export const operationIds: readonly OperationId[] = routes.map((r) => r.operationId);

const knownIds = new Set<string>(operationIds);

export function isOperationId(value: string): value is OperationId {
  return knownIds.has(value);
}

interface CompiledRoute {
  method: string;
  operationId: OperationId;
  /** Literal segments, `undefined` where a parameter goes. */
  literals: (string | undefined)[];
  /** Parameter names by segment index. */
  names: (string | undefined)[];
}

// Routes grouped by segment count, so a lookup compares literals of a handful of candidates only.
const bySegmentCount = new Map<number, CompiledRoute[]>();
for (const r of routes.flatMap((route) =>
  route.trailingSlash ? [route, { ...route, path: `${route.path}/` }] : [route],
)) {
  const segments = r.path.split('/');
  const param = (s: string) => (s.startsWith('{') ? s.slice(1, -1) : undefined);
  const compiled: CompiledRoute = {
    method: r.method,
    operationId: r.operationId,
    literals: segments.map((s) => (param(s) === undefined ? s : undefined)),
    names: segments.map(param),
  };
  const group = bySegmentCount.get(segments.length) ?? [];
  group.push(compiled);
  bySegmentCount.set(segments.length, group);
}

function fits(route: CompiledRoute, segments: string[]): boolean {
  for (let i = 0; i < segments.length; i++) {
    const literal = route.literals[i];
    if (literal === undefined ? segments[i] === '' : literal !== segments[i]) return false;
  }
  return true;
}

interface RouteMatch {
  operationId: OperationId;
  params: Record<string, string>;
}

/** Where a method and path lead; `resolve()` turns a miss into the service's 404 or 405. */
export interface RouteLookup {
  /** The operation for the method, else the first one the path names (faults match on it before the method is checked). */
  readonly operationId: OperationId | undefined;
  /** The operation with its decoded path parameters: 404 for unknown paths, 405 (with Allow) for a wrong method, 400 for bad percent-encoding. */
  resolve(): RouteMatch;
}

export function lookupRoute(method: string, path: string): RouteLookup {
  const segments = path.split('/');
  let forMethod: CompiledRoute | undefined;
  let first: CompiledRoute | undefined;
  let allow: string[] | undefined;
  for (const route of bySegmentCount.get(segments.length) ?? []) {
    if (!fits(route, segments)) continue;
    first ??= route;
    if (route.method === method) {
      forMethod = route;
      break;
    }
    allow ??= [];
    if (!allow.includes(route.method)) allow.push(route.method);
  }
  return {
    operationId: (forMethod ?? first)?.operationId,
    resolve: () => {
      if (!first) throw new HttpError(404, `No endpoint ${method} ${path}`, {}, 'NOT_FOUND');
      if (!forMethod) {
        throw new HttpError(
          405,
          `Request method '${method}' is not supported for ${path}`,
          { allow: (allow ?? []).join(', ') },
          'METHOD_NOT_ALLOWED',
        );
      }
      return { operationId: forMethod.operationId, params: decodeParams(forMethod, segments) };
    },
  };
}

function decodeParams(route: CompiledRoute, segments: string[]): Record<string, string> {
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i++) {
    const name = route.names[i];
    if (name === undefined) continue;
    const raw = segments[i] ?? '';
    try {
      params[name] = raw.includes('%') ? decodeURIComponent(raw) : raw;
    } catch {
      throw new HttpError(400, `Path parameter '${name}' is not valid percent-encoding`, {}, 'BAD_PATH');
    }
  }
  return params;
}
