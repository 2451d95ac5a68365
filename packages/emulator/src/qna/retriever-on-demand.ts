import type { QnaSystem } from '../data/model.js';
import type { Ranking } from '../embedding/model.js';
import type { FilterExpression } from './filter.js';
import type { Hit } from './hit.js';
import type { Retriever } from './retriever.js';

/** What a QnA system's searches, answers and agents use of its retriever. */
export interface SystemRetriever {
  search(query: string, filter: FilterExpression, limit: number): Promise<Hit[]>;
  /** Resolves once the passages are embedded. */
  indexed(): Promise<void>;
  /** The question as the models read it (its misspellings corrected), once the system was searched. */
  corrected(query: string): string;
  /** Length of the first model's vectors; 0 without a model, and until `indexed()` settles. */
  readonly dimensions: number;
  /** An answer whose best passage scores below this cites nothing. */
  readonly answerFloor: number;
}

/**
 * A system's retriever, loaded and built when the system is first searched (or `indexed()`): a start
 * that lists systems, or asks one of them, loads no index (MiniSearch, the spelling corrector, the
 * passages' span) and builds none for the other systems.
 */
export class RetrieverOnDemand implements SystemRetriever {
  private built: Retriever | undefined;
  private building: Promise<Retriever> | undefined;

  constructor(
    private readonly system: QnaSystem,
    private readonly ranking: Ranking | undefined,
  ) {}

  private retriever(): Promise<Retriever> {
    this.building ??= import('./retriever.js').then(({ Retriever }) => {
      this.built = Retriever.deferred(this.system, this.ranking);
      return this.built;
    });
    return this.building;
  }

  async search(query: string, filter: FilterExpression, limit: number): Promise<Hit[]> {
    return (await this.retriever()).search(query, filter, limit);
  }

  async indexed(): Promise<void> {
    await (await this.retriever()).indexed();
  }

  corrected(query: string): string {
    return this.built ? this.built.corrected(query) : query;
  }

  get dimensions(): number {
    return this.built?.dimensions ?? 0;
  }

  get answerFloor(): number {
    if (this.built) return this.built.answerFloor;
    return this.ranking && this.ranking.models.length > 0 ? this.ranking.answerFloor : 0;
  }
}
