import type { AnswerResponse } from '@dataworkz/client';

/** The probe node whose chunks the LLM was given. */
const MERGE_NODE = 'MERGE_NEIGHBOURING_CONTEXT';

/** As the vendor's harness walks the probe: the first object (depth first) holding the node's name as a value. */
function findMergeNode(value: unknown): Record<string, unknown> | undefined {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = findMergeNode(item);
      if (found) return found;
    }
    return undefined;
  }
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  for (const field of Object.values(record)) {
    if (field === MERGE_NODE) return record;
    const found = findMergeNode(field);
    if (found) return found;
  }
  return undefined;
}

/** The chunks the LLM was given (`data.Input[].Content` of the merge node), or undefined without one. */
export function probeChunks(probe: unknown): string[] | undefined {
  const node = findMergeNode(probe);
  const input = (node?.data as { Input?: unknown } | undefined)?.Input;
  if (!Array.isArray(input)) return undefined;
  return input.map((item) => {
    const content = (item as { Content?: unknown } | null)?.Content;
    return typeof content === 'string' ? content : '';
  });
}

/** An answer's chunks: from its probe where it has the merge node, else its `context` passages. */
export function answerChunks(response: AnswerResponse): { chunks: string[]; from: 'probe' | 'context' } {
  const fromProbe = probeChunks((response as { probe?: unknown }).probe);
  if (fromProbe) return { chunks: fromProbe, from: 'probe' };
  return { chunks: response.context.map((item) => item.data ?? item.contents ?? ''), from: 'context' };
}
