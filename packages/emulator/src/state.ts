import type { AgentDefinition } from './agents/model.js';
import { OrderBook } from './agents/order-book.js';
import type { KnowledgeSource } from './agents/toolbox.js';
import type { QnaSystem } from './data/model.js';
import { own } from './data/own.js';
import type { Dataset } from './dataset.js';
import type { EmbeddingModel, EmbedFunction, Ranking } from './embedding/model.js';
import { wordVectorModel } from './embedding/word-average.js';
import { HttpError } from './http/errors.js';
import { type AnswerVariation, answerDraws, type Varied, varied } from './qna/answer-variation.js';
import { RetrieverOnDemand } from './qna/retriever-on-demand.js';

export interface StateOptions {
  /** The embedding model; false for lexical retrieval only. Default: the built-in word vectors. */
  embed?: EmbedFunction | 'word-vectors' | false | undefined;
  /** The sentence encoder, when installed and wanted: it then leads the default ranking. */
  sentenceEncoder?: EmbeddingModel | undefined;
  /** Embed the passages now (in the background) rather than on the first search. */
  warm?: boolean | undefined;
  /** How the QnA answers vary between askings; default none. */
  answerVariation?: AnswerVariation | undefined;
}

/**
 * The built-in rankings. The weights and the answer floor were chosen on the tuning half of the
 * retrieval evaluation in bench/ (the held-out half was measured once, after): with the sentence
 * encoder, 0.7 of it, 0.15 of the word vectors and 0.15 of BM25; without it, 0.7 word vectors and
 * 0.3 BM25. Under the floor (0.2, below every answerable tuning question's best score) an answer cites
 * nothing. Both correct a question's misspellings before embedding it (see qna/spelling.ts).
 */
function builtInRanking(sentenceEncoder: EmbeddingModel | undefined): Ranking {
  return sentenceEncoder
    ? {
        models: [
          { model: sentenceEncoder, weight: 0.7 },
          { model: wordVectorModel, weight: 0.15 },
        ],
        lexicalWeight: 0.15,
        answerFloor: 0.2,
        correctSpelling: true,
      }
    : {
        models: [{ model: wordVectorModel, weight: 0.7 }],
        lexicalWeight: 0.3,
        answerFloor: 0,
        correctSpelling: true,
      };
}

/** The ranking `options` ask for; undefined for BM25 alone. */
function rankingOf(options: StateOptions): Ranking | undefined {
  if (options.embed === false) return undefined;
  if (options.embed === 'word-vectors') return builtInRanking(undefined);
  if (options.embed) {
    return {
      models: [{ model: { embed: options.embed, centre: false }, weight: 0.7 }],
      lexicalWeight: 0.3,
      answerFloor: 0,
    };
  }
  return builtInRanking(options.sentenceEncoder);
}

/** The dataset with its search indexes, and lookups that answer 404 for unknown ids. */
export class ServiceState {
  readonly knowledge = new Map<string, KnowledgeSource>();
  /** The orders API's records, changed by agents (cancellations) for this emulator only. */
  readonly orders = new OrderBook();
  private readonly agents = new Map<string, AgentDefinition>();
  /** How each QnA answer varies, drawn from one generator per emulator; undefined: not at all. */
  answerVariation: Varied | undefined;

  private constructor(readonly dataset: Dataset) {
    for (const agent of dataset.agents) this.agents.set(agent.agentId, agent);
  }

  /** Indexes every system's passages (embedding them takes time, and a custom model is async). */
  static async create(dataset: Dataset, options: StateOptions = {}): Promise<ServiceState> {
    const state = new ServiceState(dataset);
    const draws = answerDraws(options.answerVariation);
    if (draws && options.answerVariation)
      state.answerVariation = varied(draws, options.answerVariation.temperature);
    const ranking = rankingOf(options);
    // The built-in models embed the passages on the first search: a start that never searches never
    // loads their tables. A custom model embeds them now, so unusable vectors fail the start.
    const deferEmbedding = typeof options.embed !== 'function';
    for (const system of dataset.systems) {
      const retriever = new RetrieverOnDemand(system, ranking);
      if (!deferEmbedding) await retriever.indexed();
      // A failure surfaces again, and is answered, on the first search.
      else if (options.warm) retriever.indexed().catch(() => undefined);
      state.knowledge.set(system.systemId, { system, retriever });
    }
    return state;
  }

  agent(agentId: string): AgentDefinition {
    const agent = this.agents.get(agentId);
    if (!agent) throw new HttpError(404, `No agent with id: ${agentId}`, {}, 'AGENT_NOT_FOUND');
    return agent;
  }

  system(systemId: string): KnowledgeSource {
    const source = this.knowledge.get(systemId);
    if (!source) throw new HttpError(404, `No QnA system with id: ${systemId}`, {}, 'SYSTEM_NOT_FOUND');
    return source;
  }

  /** LLMs an agent may run on: the account's and its own. */
  agentLlms(agent: AgentDefinition): Record<string, string> {
    return { ...this.dataset.account.llms, ...agent.llms };
  }

  /** `llmId`, else the agent's LLM, else the account default; 400 when none or an unknown one. */
  selectAgentLlm(agent: AgentDefinition, llmId: string | undefined): { llmId: string; model: string } {
    const llms = this.agentLlms(agent);
    const chosen = llmId ?? agent.llmId ?? this.dataset.account.defaultLlmId;
    if (chosen === undefined) {
      throw new HttpError(
        400,
        `No LLM could be determined for agent ${agent.agentId}: pass llmId, configure an LLM in the agent, or mark an account LLM as default`,
        {},
        'LLM_NOT_DETERMINED',
      );
    }
    const model = own(llms, chosen);
    if (model === undefined) throw unknownLlm(chosen, `agent ${agent.agentId}`);
    return { llmId: chosen, model };
  }

  /** An LLM id must be one configured for the system. */
  checkSystemLlm(system: QnaSystem, llmProviderId: string): void {
    if (own(system.llms, llmProviderId) === undefined)
      throw unknownLlm(llmProviderId, `QnA system ${system.systemId}`);
  }
}

function unknownLlm(llmId: string, owner: string): HttpError {
  return new HttpError(400, `LLM provider ${llmId} is not configured for ${owner}`, {}, 'LLM_NOT_CONFIGURED');
}
