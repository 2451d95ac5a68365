import { HttpError } from './errors.js';

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
  | 'getQnaDocument';

interface RouteSpec {
  method: 'GET' | 'POST';
  path: string;
  operationId: OperationId;
}

/** The 13 operations of spec/openapi.yaml, with their exact paths. */
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
  { method: 'POST', path: '/api/agents/v1/a2a/{agentId}/stream', operationId: 'streamAgent' },
  { method: 'GET', path: '/api/qna/v1/systems', operationId: 'listQnaSystems' },
  { method: 'GET', path: '/api/qna/v1/systems/{systemId}', operationId: 'getQnaSystem' },
  { method: 'GET', path: '/api/qna/v1/systems/{systemId}/llm-providers', operationId: 'listQnaLlmProviders' },
  { method: 'GET', path: '/api/qna/v1/systems/{systemId}/search', operationId: 'searchQnaSystem' },
  { method: 'GET', path: '/api/qna/v1/systems/{systemId}/answer', operationId: 'answerQnaQuestion' },
  { method: 'GET', path: '/api/qna/v1/systems/{systemId}/filters', operationId: 'listQnaFilters' },
  { method: 'GET', path: '/api/qna/v1/systems/{systemId}/document', operationId: 'getQnaDocument' },
];

const compiled = routes.map((r) => ({ ...r, segments: r.path.split('/') }));

export interface RouteMatch {
  operationId: OperationId;
  params: Record<string, string>;
}

/** The operation a path names, regardless of method (faults match on it before the method is checked). */
export function matchPath(path: string): { matches: (RouteMatch & { method: string })[] } {
  const segments = path.split('/');
  const matches: (RouteMatch & { method: string })[] = [];
  for (const route of compiled) {
    if (route.segments.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    route.segments.forEach((pattern, i) => {
      const actual = segments[i] ?? '';
      if (pattern.startsWith('{')) {
        if (actual === '') ok = false;
        else params[pattern.slice(1, -1)] = actual;
      } else if (pattern !== actual) {
        ok = false;
      }
    });
    if (ok) matches.push({ method: route.method, operationId: route.operationId, params });
  }
  return { matches };
}

/** Resolves method and path to an operation: 404 for unknown paths, 405 (with Allow) for a wrong method. */
export function route(method: string, path: string): RouteMatch {
  const { matches } = matchPath(path);
  if (matches.length === 0) throw new HttpError(404, `No endpoint ${method} ${path}`, {}, 'NOT_FOUND');
  const match = matches.find((m) => m.method === method);
  if (!match) {
    const allow = [...new Set(matches.map((m) => m.method))].join(', ');
    throw new HttpError(
      405,
      `Request method '${method}' is not supported for ${path}`,
      { allow },
      'METHOD_NOT_ALLOWED',
    );
  }
  const params: Record<string, string> = {};
  for (const [name, raw] of Object.entries(match.params)) {
    try {
      params[name] = decodeURIComponent(raw);
    } catch {
      throw new HttpError(400, `Path parameter '${name}' is not valid percent-encoding`, {}, 'BAD_PATH');
    }
  }
  return { operationId: match.operationId, params };
}
