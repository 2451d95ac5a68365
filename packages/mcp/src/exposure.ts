import type { Dataworkz, RequestOptions } from '@dataworkz/client';
import { resolveOnce } from '@dataworkz/client/internal';

/**
 * Which QnA systems and agents the server exposes: all of the account's, or only those listed, each
 * by its id or its exact name (any case).
 */
export interface Exposure {
  /** Systems to expose, by id or name; all when undefined. */
  systems?: readonly string[] | undefined;
  /** Agents to expose, by id or name; all when undefined. */
  agents?: readonly string[] | undefined;
}

/** The exposure as ids, once names are resolved. */
export interface ExposedIds {
  systems?: readonly string[] | undefined;
  agents?: readonly string[] | undefined;
}

// Lists `resolveExposure` returned: a server given them resolves nothing again.
const resolvedLists = new WeakSet<readonly string[]>();

async function idsOf(
  list: readonly string[] | undefined,
  resolveAll: (entries: readonly string[]) => Promise<string[]>,
): Promise<readonly string[] | undefined> {
  if (list === undefined || resolvedLists.has(list)) return list;
  const ids = Object.freeze(list.length === 0 ? [] : await resolveAll(list));
  resolvedLists.add(ids);
  return ids;
}

/**
 * The exposure with every name turned into its id, with one list call per kind listed. Rejects with
 * the client's UnknownNameError (naming the entry and its close matches) or AmbiguousNameError for
 * an entry that names no system or agent, or several. Call it before serving to stop at start on a
 * wrong entry; a server given a resolved exposure resolves nothing again.
 */
export async function resolveExposure(
  dw: Dataworkz,
  exposure: Exposure,
  options?: RequestOptions,
): Promise<Exposure> {
  const [systems, agents] = await Promise.all([
    idsOf(exposure.systems, async (entries) =>
      (await dw.qna.resolveAll(entries, options)).map((s) => s.systemId),
    ),
    idsOf(exposure.agents, async (entries) =>
      (await dw.agents.resolveAll(entries, options)).map((a) => a.agentId),
    ),
  ]);
  return { systems, agents };
}

/** The exposure's ids, resolved on first use and kept (a failed resolution is not, so the next use tries again). */
export function lazyExposure(dw: Dataworkz, exposure: Exposure): () => Promise<ExposedIds> {
  return resolveOnce(() => resolveExposure(dw, exposure));
}

/** Thrown when a document resource names a system the server does not expose. */
class NotExposedError extends Error {
  override readonly name = 'NotExposedError';
}

export function systemExposed(exposure: ExposedIds, systemId: string): boolean {
  return exposure.systems === undefined || exposure.systems.includes(systemId);
}

export function agentExposed(exposure: ExposedIds, agentId: string): boolean {
  return exposure.agents === undefined || exposure.agents.includes(agentId);
}

export function requireSystem(exposure: ExposedIds, systemId: string): string {
  if (!systemExposed(exposure, systemId)) {
    throw new NotExposedError(
      `QnA system ${systemId} is not exposed by this server; list_qna_systems names those that are.`,
    );
  }
  return systemId;
}
