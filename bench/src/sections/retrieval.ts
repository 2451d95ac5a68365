import { startEmulator } from '@dataworkz/emulator';
import { load } from '../load.js';
import type { Measurement, SectionResult } from '../measurement.js';
import { evaluateRetrieval, type RetrievalTarget } from '../retrieval/evaluate.js';
import { evaluationQuestions } from '../retrieval/questions.js';

interface NamedTarget extends RetrievalTarget {
  readonly name: string;
}

export interface RetrievalRequest {
  /** The emulator as shipped (embeddings blended with BM25). */
  readonly subject: NamedTarget;
  /** The same emulator with `embed: false`: BM25 alone, the earlier ranking. */
  readonly baseline: NamedTarget;
  readonly connections: number;
  readonly seconds: number;
  readonly rounds: number;
}

const section = '7. emulator retrieval';
/** A paraphrase: no word of it is in the passage that answers it. */
const loadQuestion = 'how do I get my money back';

/**
 * Recall@5 and MRR over the paraphrased questions for both retrievals, search latency under load for
 * both, and how long this fresh process takes from `startEmulator()` to a first search answered (the
 * built-in word vectors load on that first start).
 */
export async function measureRetrieval(request: RetrievalRequest): Promise<SectionResult> {
  const { subject, baseline, connections, seconds, rounds } = request;
  const out: Measurement[] = [];
  const questions = `${evaluationQuestions.length} paraphrased questions`;
  for (const target of [subject, baseline]) {
    const quality = await evaluateRetrieval(target, evaluationQuestions);
    const base = target === subject ? { baseline: baseline.name } : {};
    out.push(
      {
        section,
        metric: `recall@5, ${questions}`,
        subject: target.name,
        unit: '%',
        samples: [quality.recallAt5 * 100],
        ...base,
      },
      {
        section,
        metric: `MRR, ${questions}`,
        subject: target.name,
        unit: '',
        samples: [quality.mrr],
        ...base,
      },
    );
  }

  const samples = new Map(
    [subject, baseline].map((t) => [t.name, { rps: [] as number[], p50: [] as number[] }]),
  );
  for (let round = 0; round < rounds; round++) {
    for (const target of round % 2 === 0 ? [subject, baseline] : [baseline, subject]) {
      const systemId = target.systems['Customer Support Knowledge Base'] ?? '';
      const result = await load({
        url: `${target.url}/api/qna/v1/systems/${encodeURIComponent(systemId)}/search?query=${encodeURIComponent(loadQuestion)}`,
        headers: { authorization: `SSWS ${target.apiKey}` },
        connections,
        seconds,
      });
      samples.get(target.name)?.rps.push(result.requestsPerSecond);
      samples.get(target.name)?.p50.push(result.p50Ms);
    }
  }
  const where = `search, ${connections} connections`;
  for (const target of [subject, baseline]) {
    const s = samples.get(target.name);
    if (!s) continue;
    const base = target === subject ? { baseline: baseline.name } : {};
    out.push(
      { section, metric: `${where}: req/s`, subject: target.name, unit: 'req/s', samples: s.rps, ...base },
      { section, metric: `${where}: p50 latency`, subject: target.name, unit: 'ms', samples: s.p50, ...base },
    );
  }

  const started = performance.now();
  const emulator = await startEmulator({ apiKeys: ['start-key'] });
  try {
    const systems = (await (
      await fetch(`${emulator.url}/api/qna/v1/systems`, { headers: { authorization: 'SSWS start-key' } })
    ).json()) as Record<string, string>;
    const first = Object.keys(systems)[0] ?? '';
    const response = await fetch(`${emulator.url}/api/qna/v1/systems/${first}/search?query=backup`, {
      headers: { authorization: 'SSWS start-key' },
    });
    if (!response.ok) throw new Error(`first search: HTTP ${response.status}`);
    await response.arrayBuffer();
    out.push({
      section,
      metric: 'startEmulator() to first search answered, fresh process',
      subject: subject.name,
      unit: 'ms',
      samples: [performance.now() - started],
    });
  } finally {
    await emulator.close();
  }
  return {
    measurements: out,
    notes: [
      `Retrieval: ${questions} over the seeded systems (bench/src/retrieval/questions.ts); a question counts as found when a passage that answers it is among the first 5 results. Load: "${loadQuestion}" on the support knowledge base.`,
    ],
  };
}
