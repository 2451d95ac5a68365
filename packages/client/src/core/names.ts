import { DataworkzError, InvalidParameterError } from './errors.js';
import { requireId } from './params.js';
import type { RequestOptions } from './request-options.js';

/** A QnA system, an agent or an LLM configuration as the list endpoints name it (an LLM's name is its model). */
export interface NamedEntry {
  id: string;
  name: string;
}

/** What a name was looked up among. */
export type NamedKind = 'QnA system' | 'agent' | 'LLM';

/** Options of `qna.resolve()` and `agents.resolve()`. */
export interface ResolveOptions extends RequestOptions {
  /** Ids to look among; the others count as absent (e.g. a server that exposes only some). */
  within?: readonly string[] | undefined;
}

/** How many close matches an unknown name lists, at most. */
const MAX_CLOSE_MATCHES = 5;

const quoteEach = (entries: readonly NamedEntry[]) =>
  entries.map((e) => `"${e.name}" (id ${e.id})`).join(', ');

/**
 * Where an LLM was looked up: the LLMs of one QnA system (`'QnA system <id>'`) or of the account
 * (`'account'`, the agents' list). Absent for QnA systems and agents.
 */
export type NamedScope = `QnA system ${string}` | 'account';

/** The kind as a sentence names it: "LLM of QnA system 1234", or just "agent". */
const kindIn = (kind: NamedKind, scope: NamedScope | undefined) =>
  scope === undefined ? kind : `${kind} of the ${scope}`;

/** No QnA system, agent or LLM has the given id or name (compared without case); `closeMatches` are the near ones. */
export class UnknownNameError extends DataworkzError {
  override name = 'UnknownNameError';
  readonly kind: NamedKind;
  readonly given: string;
  /** Names within a few edits of the given one, or holding it, nearest first. */
  readonly closeMatches: readonly NamedEntry[];
  /** For an LLM: the QnA system (or the account) looked in. */
  declare readonly scope?: NamedScope;
  /** For an LLM: every LLM of that system or account, as the message lists them (a short list). */
  declare readonly available?: readonly NamedEntry[];

  constructor(
    kind: NamedKind,
    given: string,
    closeMatches: readonly NamedEntry[],
    among?: { scope: NamedScope; available: readonly NamedEntry[] },
  ) {
    const near =
      closeMatches.length > 0 ? `Close matches: ${quoteEach(closeMatches)}.` : 'None has a close name.';
    const listed =
      among === undefined
        ? near
        : among.available.length > 0
          ? `Its LLMs: ${quoteEach(among.available)}.`
          : 'It has none.';
    super(`No ${kindIn(kind, among?.scope)} has the id or name "${given}". ${listed}`);
    this.kind = kind;
    this.given = given;
    this.closeMatches = closeMatches;
    if (among !== undefined) {
      this.scope = among.scope;
      this.available = among.available;
    }
  }
}

/** Several QnA systems, agents or LLMs have the given name (compared without case): the id tells them apart. */
export class AmbiguousNameError extends DataworkzError {
  override name = 'AmbiguousNameError';
  readonly kind: NamedKind;
  readonly given: string;
  readonly matches: readonly NamedEntry[];
  /** For an LLM: the QnA system (or the account) looked in. */
  declare readonly scope?: NamedScope;

  constructor(kind: NamedKind, given: string, matches: readonly NamedEntry[], scope?: NamedScope) {
    super(
      `"${given}" names ${matches.length} ${kind}s${scope === undefined ? '' : ` of the ${scope}`}: ${quoteEach(matches)}. Give the id instead.`,
    );
    this.kind = kind;
    this.given = given;
    this.matches = matches;
    if (scope !== undefined) this.scope = scope;
  }
}

/** No LLM was named and the QnA system lists none, so there is nothing to answer with. */
export class NoAnsweringLlmError extends DataworkzError {
  override name = 'NoAnsweringLlmError';
  /** The QnA system that lists no LLM. */
  readonly systemId: string;

  constructor(systemId: string) {
    super(`QnA system ${systemId} has no LLM configuration to answer with.`);
    this.systemId = systemId;
  }
}

// Written out rather than a dependency: the client stays at one runtime dependency for browser bundles.
/** Levenshtein distance (insertions, deletions, substitutions), one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length > 1);

/** Whether a typed word stands for a word of a name: its start, or a typo of it (one edit from 4 letters, two from 7). */
function wordMatches(typed: string, word: string): boolean {
  if (typed.length >= 3 && word.startsWith(typed)) return true;
  const allowed = typed.length >= 7 ? 2 : typed.length >= 4 ? 1 : 0;
  return (
    allowed > 0 && Math.abs(typed.length - word.length) <= allowed && editDistance(typed, word) <= allowed
  );
}

/**
 * How close a name is to what was typed, 0 when not close: the share of the typed words that stand
 * for a word of the name, or 1 for a name a few edits from the whole text (a third of its length).
 */
function closeness(given: string, name: string): number {
  const typed = given.toLowerCase();
  const whole = name.toLowerCase();
  if (editDistance(typed, whole) <= Math.max(2, Math.floor(typed.length / 3))) return 1;
  const typedWords = wordsOf(typed);
  const nameWords = wordsOf(whole);
  if (typedWords.length === 0) return 0;
  const matched = typedWords.filter((t) => nameWords.some((w) => wordMatches(t, w))).length;
  return matched / typedWords.length >= 0.5 ? matched / typedWords.length : 0;
}

/** The entries whose names are close to `given`, closest first. */
function closeMatchesOf(given: string, entries: readonly NamedEntry[]): NamedEntry[] {
  return entries
    .map((entry) => ({ entry, score: closeness(given, entry.name) }))
    .filter((c) => c.score > 0)
    .sort((a, b) => b.score - a.score)
    .slice(0, MAX_CLOSE_MATCHES)
    .map((c) => c.entry);
}

const PARAMETER_OF: Record<NamedKind, string> = {
  'QnA system': 'systemId',
  agent: 'agentId',
  LLM: 'llmProviderId',
};

/** Checks the argument before anything is sent: a non-empty string. */
export const requireIdOrName = (kind: NamedKind, given: unknown): string =>
  requireId(PARAMETER_OF[kind], given);

/** The entries of an id-to-name map (the QnA system and LLM lists), in the service's order. */
export const entriesOf = (map: Record<string, unknown>): NamedEntry[] =>
  Object.entries(map).map(([id, name]) => ({ id, name: String(name) }));

/**
 * The entry `given` names: the one with that id, else the one whose name equals it without regard
 * to case. Returns undefined when none does; throws AmbiguousNameError when several do.
 */
export function findByIdOrName(
  kind: NamedKind,
  given: string,
  entries: readonly NamedEntry[],
  scope?: NamedScope,
): NamedEntry | undefined {
  const byId = entries.find((e) => e.id === given);
  if (byId) return byId;
  const lower = given.trim().toLowerCase();
  const named = entries.filter((e) => e.name.trim().toLowerCase() === lower);
  if (named.length > 1) throw new AmbiguousNameError(kind, given, named, scope);
  return named[0];
}

/**
 * The entry `given` names: the one with that id, else the one whose name equals it without regard
 * to case. Throws UnknownNameError (with the close matches; for an LLM, with every LLM of `scope`)
 * or AmbiguousNameError.
 */
export function pickByIdOrName(
  kind: NamedKind,
  given: string,
  entries: readonly NamedEntry[],
  within?: readonly string[],
  scope?: NamedScope,
): NamedEntry {
  const wanted = requireIdOrName(kind, given);
  if (within) entries = entries.filter((e) => within.includes(e.id));
  const found = findByIdOrName(kind, wanted, entries, scope);
  if (found) return found;
  const closeMatches = closeMatchesOf(wanted.trim(), entries);
  throw new UnknownNameError(
    kind,
    wanted,
    closeMatches,
    scope === undefined ? undefined : { scope, available: entries },
  );
}

/** Checks a list of ids or names before anything is sent: an array of non-empty strings. */
export function requireIdsOrNames(kind: NamedKind, given: unknown): readonly string[] {
  if (!Array.isArray(given)) {
    throw new InvalidParameterError(
      `${PARAMETER_OF[kind]}s`,
      `Expected an array of ${kind} ids or names, got ${given === null ? 'null' : typeof given}.`,
    );
  }
  for (const item of given) requireIdOrName(kind, item);
  return given as readonly string[];
}
