import type { EvaluationQuestion } from './question.js';

export interface RetrievalTarget {
  readonly url: string;
  readonly apiKey: string;
  /** QnA system name to id. */
  readonly systems: Readonly<Record<string, string>>;
}

export interface RetrievalQuality {
  /** Questions with an answer in the corpus. */
  readonly answerable: number;
  /** Share of answerable questions whose first search result is relevant. */
  readonly recallAt1: number;
  /** Share of answerable questions with a relevant passage among the first 5 search results. */
  readonly recallAt5: number;
  /** Mean of 1 / rank of the first relevant search result (0 when none is in the first 5). */
  readonly mrr: number;
  /** Questions without an answer in the corpus. */
  readonly unanswerable: number;
  /** Share of those whose answer says nothing was found and cites no passage. */
  readonly declined: number;
  /** Share of answerable questions whose answer cites a relevant passage. */
  readonly answeredFromRelevant: number;
}

interface ResultItem {
  readonly title: string;
  readonly data: string;
}

interface Answer {
  readonly answer: string;
  readonly context: readonly ResultItem[];
}

/**
 * Asks the search endpoint every answerable question (5 results, the default) and scores the ranks of
 * relevant passages; asks the answer endpoint every question, and checks that an unanswerable one is
 * declined (no passage cited) and an answerable one is answered citing a relevant passage.
 */
export async function evaluateRetrieval(
  target: RetrievalTarget,
  questions: readonly EvaluationQuestion[],
): Promise<RetrievalQuality> {
  let answerable = 0;
  let first = 0;
  let found = 0;
  let reciprocalRanks = 0;
  let unanswerable = 0;
  let declined = 0;
  let answeredFromRelevant = 0;
  const llms = new Map<string, string>();
  for (const question of questions) {
    const systemId = target.systems[question.system];
    if (systemId === undefined) throw new Error(`no QnA system named ${question.system}`);
    const isRelevant = (item: ResultItem) =>
      question.relevant.some(
        (r) => item.title.startsWith(r.title) && (!r.text || item.data.includes(r.text)),
      );
    let llm = llms.get(systemId);
    if (llm === undefined) {
      const providers = await get<Record<string, string>>(
        target,
        `/api/qna/v1/systems/${systemId}/llm-providers`,
      );
      llm = Object.keys(providers)[0] ?? '';
      llms.set(systemId, llm);
    }
    const answer = await get<Answer>(
      target,
      `/api/qna/v1/systems/${systemId}/answer?questionText=${encodeURIComponent(question.question)}&llmProviderId=${encodeURIComponent(llm)}`,
    );
    const cited = citedContexts(answer);
    if (question.relevant.length === 0) {
      unanswerable += 1;
      if (cited.length === 0) declined += 1;
      continue;
    }
    answerable += 1;
    if (cited.some(isRelevant)) answeredFromRelevant += 1;
    const body = await get<{ searchResultsList: ResultItem[] }>(
      target,
      `/api/qna/v1/systems/${systemId}/search?query=${encodeURIComponent(question.question)}`,
    );
    const rank = body.searchResultsList.slice(0, 5).findIndex(isRelevant);
    if (rank === 0) first += 1;
    if (rank >= 0) {
      found += 1;
      reciprocalRanks += 1 / (rank + 1);
    }
  }
  const share = (n: number, of: number) => (of === 0 ? 0 : n / of);
  return {
    answerable,
    recallAt1: share(first, answerable),
    recallAt5: share(found, answerable),
    mrr: share(reciprocalRanks, answerable),
    unanswerable,
    declined: share(declined, unanswerable),
    answeredFromRelevant: share(answeredFromRelevant, answerable),
  };
}

/** The contexts an answer cites as `[n]`. */
function citedContexts(answer: Answer): ResultItem[] {
  const cited = new Set([...answer.answer.matchAll(/\[(\d+)\]/g)].map((m) => Number(m[1])));
  return answer.context.filter((_, i) => cited.has(i + 1));
}

async function get<T>(target: RetrievalTarget, path: string): Promise<T> {
  const response = await fetch(`${target.url}${path}`, {
    headers: { authorization: `SSWS ${target.apiKey}` },
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return (await response.json()) as T;
}
