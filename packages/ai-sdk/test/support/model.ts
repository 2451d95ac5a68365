import { MockLanguageModelV3 } from 'ai/test';

type LanguageModelV3GenerateResult = Awaited<ReturnType<MockLanguageModelV3['doGenerate']>>;

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};

/** A model turn that calls one tool. */
export function toolCall(toolName: string, input: unknown): LanguageModelV3GenerateResult {
  return {
    content: [{ type: 'tool-call', toolCallId: `call-${toolName}`, toolName, input: JSON.stringify(input) }],
    finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
    usage,
    warnings: [],
  };
}

/** A model turn that answers in text. */
export function reply(text: string): LanguageModelV3GenerateResult {
  return {
    content: [{ type: 'text', text }],
    finishReason: { unified: 'stop', raw: 'stop' },
    usage,
    warnings: [],
  };
}

/** A mock model that plays the given turns in order, as the AI SDK's own test utilities do. */
export function scriptedModel(turns: LanguageModelV3GenerateResult[]): MockLanguageModelV3 {
  return new MockLanguageModelV3({ doGenerate: turns });
}
