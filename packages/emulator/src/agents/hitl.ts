import type { Decision, HitlRequest, HitlResolution } from './model.js';

export const approvalOptions = ['approve', 'reject'];
export const inputOptions = ['submit'];

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Whether a data part's data is meant as a resolution: it names the request it answers. */
export const isResolutionData = (data: unknown): data is Record<string, unknown> =>
  isObject(data) && 'requestId' in data;

/** The UI kit's resolution `{ requestId, selectedOption, userInput?, modifiedArgs? }`, or what is wrong with it. */
export function readResolution(data: Record<string, unknown>): HitlResolution | { malformed: string } {
  const { requestId, selectedOption, userInput, modifiedArgs } = data;
  if (typeof requestId !== 'string' || requestId === '')
    return { malformed: 'requestId must be a non-empty string' };
  if (typeof selectedOption !== 'string' || selectedOption === '')
    return { malformed: 'selectedOption must be a non-empty string' };
  if (userInput !== undefined && userInput !== null && typeof userInput !== 'string')
    return { malformed: 'userInput must be a string' };
  if (modifiedArgs !== undefined && modifiedArgs !== null && !isObject(modifiedArgs))
    return { malformed: 'modifiedArgs must be an object' };
  return {
    requestId,
    selectedOption,
    ...(typeof userInput === 'string' ? { userInput } : {}),
    ...(isObject(modifiedArgs) ? { modifiedArgs } : {}),
  };
}

/** What a resolution of `request` says, as the reply text and decision the scenario reads; or why it is refused. */
export function readReply(
  request: HitlRequest,
  resolution: HitlResolution,
): { text: string; decision?: Decision } | { refusal: string } {
  if (resolution.requestId !== request.requestId) {
    return { refusal: `Request ${resolution.requestId} is not the open question (${request.requestId}).` };
  }
  if (!request.options.includes(resolution.selectedOption)) {
    return {
      refusal: `"${resolution.selectedOption}" is not an option here; choose one of: ${request.options.join(', ')}.`,
    };
  }
  if (resolution.modifiedArgs && request.type !== 'APPROVAL_WITH_MODIFICATIONS') {
    return { refusal: 'This question takes no modified arguments.' };
  }
  switch (request.type) {
    case 'APPROVAL_REQUIRED':
    case 'APPROVAL_WITH_MODIFICATIONS':
      return {
        text: resolution.selectedOption,
        decision: resolution.selectedOption === 'approve' ? 'approve' : 'reject',
      };
    case 'INPUT_REQUIRED': {
      const text = resolution.userInput?.trim();
      return text ? { text } : { refusal: 'userInput is empty; it must hold the answer.' };
    }
    case 'CLARIFICATION_REQUIRED':
      return { text: resolution.selectedOption };
  }
}

const yes =
  /^\s*(yes|y|yeah|yep|sure|ok|okay|approve[ds]?|confirm(ed)?|go ahead|do it|please do|cancel it)\b/i;
const no = /^\s*(no|n|nope|nah|reject(ed)?|don'?t|do not|keep it|leave it|never ?mind)\b/i;

/** A plain-text answer to a yes/no question. */
export function decisionIn(text: string): Decision | undefined {
  if (no.test(text)) return 'reject';
  if (yes.test(text)) return 'approve';
  return undefined;
}
