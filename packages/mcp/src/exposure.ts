/** Which QnA systems and agents the server exposes: all of the account's, or only those listed. */
export interface Exposure {
  /** System ids to expose; all when undefined. */
  systems?: readonly string[] | undefined;
  /** Agent ids to expose; all when undefined. */
  agents?: readonly string[] | undefined;
}

/** Thrown when a document resource names a system the server does not expose. */
class NotExposedError extends Error {
  override readonly name = 'NotExposedError';
}

export function systemExposed(exposure: Exposure, systemId: string): boolean {
  return exposure.systems === undefined || exposure.systems.includes(systemId);
}

export function agentExposed(exposure: Exposure, agentId: string): boolean {
  return exposure.agents === undefined || exposure.agents.includes(agentId);
}

export function requireSystem(exposure: Exposure, systemId: string): string {
  if (!systemExposed(exposure, systemId)) {
    throw new NotExposedError(
      `QnA system ${systemId} is not exposed by this server; list_qna_systems names those that are.`,
    );
  }
  return systemId;
}
