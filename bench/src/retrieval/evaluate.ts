import type { EvaluationQuestion } from './questions.js';

export interface RetrievalTarget {
  readonly url: string;
  readonly apiKey: string;
  /** QnA system name to id. */
  readonly systems: Readonly<Record<string, string>>;
}

export interface RetrievalQuality {
  /** Share of questions with a relevant passage among the first 5 results. */
  readonly recallAt5: number;
  /** Mean of 1 / rank of the first relevant result (0 when none is in the first 5). */
  readonly mrr: number;
}

interface ResultItem {
  readonly title: string;
  readonly data: string;
}

/** Asks the search endpoint every question (5 results, the default) and scores the ranks of relevant passages. */
export async function evaluateRetrieval(
  target: RetrievalTarget,
  questions: readonly EvaluationQuestion[],
): Promise<RetrievalQuality> {
  let found = 0;
  let reciprocalRanks = 0;
  for (const question of questions) {
    const systemId = target.systems[question.system];
    if (systemId === undefined) throw new Error(`no QnA system named ${question.system}`);
    const url = `${target.url}/api/qna/v1/systems/${encodeURIComponent(systemId)}/search?query=${encodeURIComponent(question.question)}`;
    const response = await fetch(url, {
      headers: { authorization: `SSWS ${target.apiKey}` },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    const body = (await response.json()) as { searchResultsList: ResultItem[] };
    const rank = body.searchResultsList
      .slice(0, 5)
      .findIndex((item) =>
        question.relevant.some(
          (r) => item.title.startsWith(r.title) && (!r.text || item.data.includes(r.text)),
        ),
      );
    if (rank >= 0) {
      found += 1;
      reciprocalRanks += 1 / (rank + 1);
    }
  }
  return { recallAt5: found / questions.length, mrr: reciprocalRanks / questions.length };
}
