import type { Message, Task } from '@a2a-js/sdk';
import { isResolutionData, readResolution } from '../agents/hitl.js';
import type { AgentInput, HitlRequest, HitlType, PendingQuestion, Turn } from '../agents/model.js';

const hitlTypes = new Set<unknown>([
  'APPROVAL_REQUIRED',
  'APPROVAL_WITH_MODIFICATIONS',
  'INPUT_REQUIRED',
  'CLARIFICATION_REQUIRED',
] satisfies HitlType[]);

const textOf = (message: Message) =>
  message.parts
    .map((p) => (p.kind === 'text' ? p.text : ''))
    .join(' ')
    .trim();

/**
 * What a user message says: its text, and a resolution of a human-in-the-loop request when a data
 * part (not one of provided values) names a `requestId`.
 */
export function readTaskReply(
  message: Message,
  extensionUri: string,
): Pick<AgentInput, 'text' | 'resolution'> {
  const part = message.parts.find(
    (p) => p.kind === 'data' && p.metadata?.[extensionUri] !== true && isResolutionData(p.data),
  );
  const text = textOf(message);
  return part?.kind === 'data' ? { text, resolution: readResolution(part.data) } : { text };
}

/** The question a task waiting for input asked, as its last agent message states it in `metadata`. */
export function pendingQuestionOf(task: Task | undefined): PendingQuestion | undefined {
  if (task?.status.state !== 'input-required') return undefined;
  const metadata = task.status.message?.metadata;
  const request = (metadata?.hitlRequests as unknown[] | undefined)?.[0] as HitlRequest | undefined;
  const scenario = metadata?.scenario;
  if (typeof scenario !== 'string' || typeof request !== 'object' || request === null) return undefined;
  if (
    typeof request.requestId !== 'string' ||
    !hitlTypes.has(request.type) ||
    !Array.isArray(request.options)
  )
    return undefined;
  return { scenario, request };
}

/** The turns of a task before `current`: the user's requests and the agent's answers and questions. */
export function turnsOf(task: Task, current: Message): Turn[] {
  return (task.history ?? []).flatMap((m): Turn[] => {
    const text = m.messageId === current.messageId ? '' : textOf(m);
    return text ? [{ by: m.role === 'user' ? 'USER' : 'AI', text }] : [];
  });
}
