import MiniSearch from 'minisearch';
import type { QnaSystem } from '../data/model.js';
import { checkEmbeddings, type EmbeddingModel, type Ranking } from '../embedding/model.js';
import { loadWordVectors } from '../embedding/word-vectors.js';
import { type FilterExpression, matchesFilter } from './filter.js';
import type { Hit, Passage } from './hit.js';
import { type PassageSpace, passageSpace, project } from './passage-space.js';
import { demoteRepeats, repeatKey } from './repeats.js';
import { Speller } from './spelling.js';
import { normaliseTerm } from './terms.js';

const tokenize: (text: string) => string[] = MiniSearch.getDefault('tokenize');

/** Longer query terms are matched as written or by prefix, never fuzzily. */
const maxFuzzyTermLength = 32;

/** Texts per call to the embedding model while indexing, so a remote model gets requests of bounded size. */
const embedBatch = 128;

/** The passage's text as embedded by default: its document's title gives a short paragraph its subject. */
const titled = (title: string, text: string) => [`${title}. ${text}`];

/** Questions whose vectors (per model) and scores are kept: a repeated one is not embedded or scored again. */
const queryCacheSize = 256;

/** One model's part of the ranking: its unit-length passage vectors and its weight. */
interface Signal {
  model: EmbeddingModel;
  weight: number;
  /**
   * The passages' vectors, one row of `width` per passage, in one array: a search reads them all in
   * order, and a contiguous array is read about twice as fast as one array per passage. In the
   * coordinates of `space` when there is one, else as the model made them.
   */
  matrix: Float64Array;
  width: number;
  /** The span of the passages, when comparing in it saves work (see passage-space.ts). */
  space: PassageSpace | undefined;
  /** The corpus's mean vector, when the model asks for centring. */
  mean: Float64Array | undefined;
  /** The length of the model's vectors. */
  dimensions: number;
  /** The latest questions' vectors (in the coordinates of `space`, when there is one), by text. */
  queries: Map<string, Float64Array>;
}

/**
 * Ranked retrieval over one system's paragraphs: cosine similarities of embeddings, blended with
 * MiniSearch BM25 (prefix matching, and fuzzy matching for terms the corpus does not hold, i.e. likely
 * misspellings) normalised to [0, 1]. Without an embedding model, BM25 alone.
 */
export class Retriever {
  private readonly passages: Passage[] = [];
  private signals: Signal[] = [];
  private lexicalWeight = 1;
  /** An answer whose best passage scores below this cites nothing; 0 without a model. */
  answerFloor = 0;
  /** Corrects a question's misspelt words before it is embedded, when the ranking asks for it. */
  private speller: Speller | undefined;
  /** Every indexed term, as normaliseTerm leaves it. */
  private readonly vocabulary = new Set<string>();
  /** Indexed terms that begin a longer indexed term. */
  private readonly extendable = new Set<string>();
  private readonly index = new MiniSearch<{ id: number; title: string; text: string }>({
    fields: ['title', 'text'],
    processTerm: normaliseTerm,
    searchOptions: {
      boost: { title: 1.5 },
      // Prefix expansion of a term no longer indexed term starts with would find only the term itself.
      prefix: (term) => !this.vocabulary.has(term) || this.extendable.has(term),
      // Fuzzy expansion is most of a search's cost; a term found as written is not a misspelling, and
      // neither is a long one (MiniSearch's edit matrix grows with the square of the term's length).
      fuzzy: (term) => (term.length > maxFuzzyTermLength || this.vocabulary.has(term) ? false : 0.15),
      combineWith: 'OR',
    },
  });

  /**
   * Indexes the system's paragraphs for BM25 now; with a ranking's models, the passages are embedded on
   * the first search or `indexed()` (a custom model's unusable vectors then fail whoever awaits it).
   */
  static deferred(system: QnaSystem, ranking: Ranking | undefined): Retriever {
    const retriever = new Retriever(system);
    if (!ranking || ranking.models.length === 0) return retriever;
    retriever.lexicalWeight = ranking.lexicalWeight;
    retriever.answerFloor = ranking.answerFloor;
    retriever.models = ranking.models.map(({ model }) => model);
    retriever.embedding = () => retriever.embedAll(ranking);
    return retriever;
  }

  /** The ranking's models, told to get ready as each search starts. */
  private models: EmbeddingModel[] = [];
  /** Embeds the passages with every model of the ranking, once. */
  private embedding: (() => Promise<void>) | undefined;
  private embedded: Promise<void> | undefined;

  /** Resolves once the passages are embedded (at once for a retriever that embedded them at creation). */
  indexed(): Promise<void> {
    if (this.embedding) {
      this.embedded = this.embedding();
      this.embedding = undefined;
    }
    return this.embedded ?? Promise.resolve();
  }

  private async embedAll(ranking: Ranking): Promise<void> {
    const signals: Signal[] = [];
    for (const { model, weight } of ranking.models) signals.push(await this.embedPassages(model, weight));
    if (ranking.correctSpelling) {
      const words = await loadWordVectors();
      this.speller = new Speller(this.vocabulary, (word) => words.row(word));
    }
    this.signals = signals;
    this.dimensions = signals[0]?.dimensions ?? 0;
  }

  private async embedPassages(model: EmbeddingModel, weight: number): Promise<Signal> {
    const textsOf = model.passageTexts ?? titled;
    // Each passage's texts, flattened: `owner[i]` is the passage text i belongs to.
    const texts: string[] = [];
    const owner: number[] = [];
    for (const passage of this.passages) {
      for (const text of textsOf(passage.document.title, passage.text)) {
        texts.push(text);
        owner.push(passage.id);
      }
    }
    const embedded: number[][] = [];
    for (let start = 0; start < texts.length; start += embedBatch) {
      const batch = texts.slice(start, start + embedBatch);
      embedded.push(...checkEmbeddings(await model.embed(batch), batch.length, embedded[0]?.length));
    }
    const dimensions = embedded[0]?.length ?? 0;
    // The mean of the texts' unit vectors: a passage's similarity is the mean of its texts' similarities.
    const sums = this.passages.map(() => new Float64Array(dimensions));
    const counts = this.passages.map(() => 0);
    embedded.forEach((vector, i) => {
      const at = owner[i] as number;
      const sum = sums[at] as Float64Array;
      const v = unit(vector);
      for (let c = 0; c < dimensions; c++) sum[c] = (sum[c] as number) + (v[c] as number);
      counts[at] = (counts[at] as number) + 1;
    });
    let vectors: Float64Array[] = sums.map((sum, at) =>
      sum.map((x) => x / Math.max(1, counts[at] as number)),
    );
    let mean: Float64Array | undefined;
    if (model.centre && vectors.length > 1) {
      mean = meanOf(vectors);
      const m = mean;
      vectors = vectors.map((v) => unit(v, m));
    }
    const space = passageSpace(vectors, dimensions);
    let matrix = space?.coordinates;
    if (!matrix) {
      const full = new Float64Array(vectors.length * dimensions);
      vectors.forEach((vector, at) => {
        full.set(vector, at * dimensions);
      });
      matrix = full;
    }
    const width = space ? space.rank : dimensions;
    const signal: Signal = { model, weight, matrix, width, space, mean, dimensions, queries: new Map() };
    // No passages: the model's length is learnt from a probe (there is no span, so rows are that long).
    if (dimensions === 0)
      signal.dimensions = signal.width = (await this.embedQuery(signal, 'dimensions')).length;
    return signal;
  }

  /** Length of the first model's vectors; 0 without a model (and until `indexed()` settles). */
  dimensions = 0;

  /** The latest questions' scores (see `blend`), by text; never changed once kept. */
  private readonly scored = new Map<string, Float64Array>();

  /** The most passages that repeat one another (see repeats.ts). */
  private mostCopies = 1;

  private constructor(system: QnaSystem) {
    const copiesOf = new Map<string, number>();
    for (const document of system.documents) {
      this.learn(document.title);
      for (const text of document.paragraphs) {
        const passage = { id: this.passages.length, document, text, repeatKey: repeatKey(text) };
        this.passages.push(passage);
        const copies = (copiesOf.get(passage.repeatKey) ?? 0) + 1;
        copiesOf.set(passage.repeatKey, copies);
        this.mostCopies = Math.max(this.mostCopies, copies);
        this.index.add({ id: passage.id, title: document.title, text });
        this.learn(text);
      }
    }
    // Sorted, the terms a term begins come right after it.
    const sorted = [...this.vocabulary].sort();
    sorted.forEach((term, i) => {
      if (sorted[i + 1]?.startsWith(term)) this.extendable.add(term);
    });
  }

  private learn(text: string): void {
    for (const token of tokenize(text)) {
      const term = normaliseTerm(token);
      if (term) this.vocabulary.add(term);
    }
  }

  private async embedQuery(signal: Signal, query: string): Promise<Float64Array> {
    const known = signal.queries.get(query);
    if (known) return known;
    const [vector] = checkEmbeddings(await signal.model.embed([query]), 1, signal.dimensions || undefined);
    const unitVector = unit(vector ?? []);
    const centred = signal.mean ? unit(unitVector, signal.mean) : unitVector;
    const { space } = signal;
    const wanted = space ? project(centred, space.basis, space.rank) : centred;
    remember(signal.queries, query, wanted);
    return wanted;
  }

  /** The question as the models read it: its misspelt words corrected, when the ranking asks for it. */
  corrected(query: string): string {
    return this.speller ? this.speller.correct(query) : query;
  }

  /**
   * The `limit` best passages of those `filter` admits: the filter narrows the candidates, and changes a
   * score only by leaving out a better passage it repeats (repeats.ts). With a model every admitted
   * passage is a candidate (nothing is returned only when the filter admits nothing); without one, those
   * BM25 finds. The models embed the question with its misspellings
   * corrected (when the ranking asks for it); BM25 reads it as written, matching misspellings fuzzily.
   */
  async search(query: string, filter: FilterExpression, limit: number): Promise<Hit[]> {
    const admitted = (passage: Passage) =>
      filter.clauses.length === 0 || matchesFilter(passage.document, filter);
    // Enough candidates that demoting repeats cannot bring up a passage left out (see repeats.ts).
    const pool = limit * this.mostCopies;
    const hits: Hit[] = [];
    for (const model of this.models) model.prepare?.();
    await this.indexed();
    if (this.signals.length === 0) {
      for (const [id, score] of this.lexicalScores(query, false)) {
        const passage = this.passages[id];
        if (passage && admitted(passage)) hits.push({ passage, score });
        if (hits.length >= pool) break;
      }
      return demoteRepeats(hits, byRepeatKey, limit);
    }
    const blended = this.scored.get(query) ?? (await this.blend(query));
    // The best `limit` kept in order as the passages go by (ties: the earlier passage first).
    for (const passage of this.passages) {
      if (!admitted(passage)) continue;
      const score = Math.min(1, blended[passage.id] as number);
      if (hits.length >= pool && score <= (hits[hits.length - 1] as Hit).score) continue;
      let at = hits.length;
      while (at > 0 && (hits[at - 1] as Hit).score < score) at -= 1;
      hits.splice(at, 0, { passage, score });
      if (hits.length > pool) hits.pop();
    }
    return demoteRepeats(hits, byRepeatKey, limit);
  }

  /**
   * Every passage's score for `query`, by passage id: BM25's share and each model's similarities.
   * Kept for the latest questions: the same question asked again (a test suite's, a demo's, a load
   * test's) is not scored again; only the filter, the order and the response are worked out anew.
   */
  private async blend(query: string): Promise<Float64Array> {
    const lexical = this.lexicalScores(query, true);
    const embedded = this.corrected(query);
    const wanted = await Promise.all(this.signals.map((signal) => this.embedQuery(signal, embedded)));
    const blended = new Float64Array(this.passages.length);
    for (const [id, score] of lexical) blended[id] = this.lexicalWeight * score;
    this.signals.forEach((signal, i) => {
      addSimilarities(wanted[i] as Float64Array, signal.matrix, signal.width, signal.weight, blended);
    });
    remember(this.scored, query, blended);
    return blended;
  }

  /**
   * BM25 scores, best first, scaled so the best is 1; for blending, weighted by the share of the
   * query's terms each passage matches (one common word in common is a weak match).
   */
  private lexicalScores(query: string, byCoverage: boolean): Map<number, number> {
    const results = this.index.search(query);
    const scores = new Map<number, number>();
    const best = results[0]?.score ?? 0;
    if (best <= 0) return scores;
    const queryTerms =
      new Set(
        tokenize(query)
          .map(normaliseTerm)
          .filter((t) => t !== null),
      ).size || 1;
    for (const r of results) {
      const coverage = byCoverage ? Math.min(1, r.queryTerms.length / queryTerms) : 1;
      scores.set(r.id as number, (r.score / best) * coverage);
    }
    return scores;
  }
}

const byRepeatKey = (hit: Hit) => hit.passage.repeatKey;

/** Keeps `value` under `key`, forgetting the oldest of `queryCacheSize` (Maps iterate in insertion order). */
function remember<T>(cache: Map<string, T>, key: string, value: T): void {
  if (cache.size >= queryCacheSize) cache.delete(cache.keys().next().value as string);
  cache.set(key, value);
}

/** `vector` less `minus` (when given), scaled to length 1; all zeros stay zeros. */
function unit(vector: ArrayLike<number>, minus?: Float64Array): Float64Array {
  const out = new Float64Array(vector.length);
  let norm = 0;
  for (let i = 0; i < out.length; i++) {
    const x = (vector[i] as number) - (minus ? (minus[i] as number) : 0);
    out[i] = x;
    norm += x * x;
  }
  norm = Math.sqrt(norm);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i] = (out[i] as number) / norm;
  return out;
}

function meanOf(vectors: Float64Array[]): Float64Array {
  const mean = new Float64Array(vectors[0]?.length ?? 0);
  for (const v of vectors)
    for (let i = 0; i < mean.length; i++) mean[i] = (mean[i] ?? 0) + (v[i] ?? 0) / vectors.length;
  return mean;
}

/**
 * Adds `weight` × each passage's similarity to `query` (negative ones as 0) to `into`, the passages'
 * rows read in order. Four running sums: one sum waits on its previous addition at every step, four
 * let the processor overlap them (JavaScript has no vector instructions), about twice as fast.
 */
function addSimilarities(
  query: Float64Array,
  matrix: Float64Array,
  dimensions: number,
  weight: number,
  into: Float64Array,
): void {
  const rows = into.length;
  const whole = dimensions - (dimensions % 4);
  for (let row = 0; row < rows; row++) {
    const base = row * dimensions;
    let s0 = 0;
    let s1 = 0;
    let s2 = 0;
    let s3 = 0;
    let c = 0;
    for (; c < whole; c += 4) {
      s0 += (query[c] as number) * (matrix[base + c] as number);
      s1 += (query[c + 1] as number) * (matrix[base + c + 1] as number);
      s2 += (query[c + 2] as number) * (matrix[base + c + 2] as number);
      s3 += (query[c + 3] as number) * (matrix[base + c + 3] as number);
    }
    for (; c < dimensions; c++) s0 += (query[c] as number) * (matrix[base + c] as number);
    const similarity = s0 + s1 + s2 + s3;
    if (similarity > 0) into[row] = (into[row] as number) + weight * similarity;
  }
}
