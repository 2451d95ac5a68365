import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, call, obj } from './support/http.js';
import { componentValidator } from './support/spec.js';

// The legacy agent call as the vendor's agent demos send it: the text appended to the URL unencoded,
// an agent spec and the chat so far in the body.
const kb = seed.systems.supportKb.systemId;
const llm = seed.llms.accountDefault;
let emu: Emulator;

beforeAll(async () => {
  emu = await startEmulator({ apiKeys: ['legacy-key'] });
});
afterAll(() => emu.close());

const agentSpec = {
  persona: 'You are a helpful assistant for an online store.',
  scenarioSelectionFailureMessage: 'I could not follow what you meant. Please rephrase and try.',
  scenarios: [
    {
      name: 'qna',
      description: 'Query for information on policies such as shipping policies, cancellation, refunds',
      examples: ['What is the returns process?', 'Do you ship internationally?'],
      toolRefs: [{ name: 'GetPolicies', toolId: 'policies-tool', properties: {} }],
    },
    {
      name: 'greetings',
      description: 'When the user greets us with a welcome message',
      instructions: 'Please respond with a cheery welcome message.',
      examples: [],
      toolRefs: [],
    },
  ],
  tools: [{ toolId: 'policies-tool', typeId: 'qna', description: 'Store policies', implConfig: {} }],
};

const demoHistory = [
  { by: 'USER', text: 'My customer id is C-100.' },
  { by: 'AI', text: 'How may I assist you today?' },
];

/** The request as the demo builds it: `urlTemplate + userText`, no encoding of the text. */
function callAgent(
  userText: string,
  body: unknown = { agentSpec, conversationHistory: demoHistory },
  options: { systemId?: string; llmId?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
  const raw = `/api/qna/v1/systems/${options.systemId ?? kb}/call-agent?llmProviderId=${options.llmId ?? llm}&userText=${userText}`;
  return call(emu, raw, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...options.headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const isError = componentValidator('Error');

function expectError(res: Answer, status: number, message: RegExp | string) {
  expect(res.status).toBe(status);
  expect(isError(res.json)).toBe(true);
  expect(obj(res.json)).toMatchObject({ status, message: expect.stringMatching(message) });
}

describe('POST /api/qna/v1/systems/{systemId}/call-agent (legacy)', () => {
  it("answers the vendor demo's request with a top-level answer, citing the corpus, and a probe", async () => {
    const res = await callAgent('How long do I have to return an item?');
    expect(res.status).toBe(200);
    const body = obj(res.json);
    expect(body.scenario).toBe('qna');
    expect(body.status).toBe('COMPLETED');
    expect(body.answer).toEqual(expect.stringMatching(/return.*\[\d\]/is));
    const probe = obj(body.probe);
    expect(probe).toMatchObject({ id: 'CALL_AGENT', status: 'COMPLETED', __DW__pipeline: true });
    const steps = probe.children as { ref: string; data: Record<string, unknown> }[];
    expect(steps.map((s) => s.ref)).toEqual(['SCENARIO_SELECTION', 'QNA_SEARCH', 'COMPOSE']);
    const passages = steps[1]?.data.Input as { Content: string }[];
    expect(passages.length).toBeGreaterThan(0);
    // The cited sentences come from the passages the search returned.
    const cited = String(body.answer).split(/ \[\d\]+\.?\s*/)[0] ?? '';
    expect(passages.some((p) => p.Content.includes(cited.slice(0, 30)))).toBe(true);
  });

  it('takes the scenario without tools from its words, and a text no scenario fits gets the failure message', async () => {
    const hello = obj((await callAgent('Hello, welcome message!')).json);
    expect(hello).toMatchObject({
      scenario: 'greetings',
      answer:
        'I can help with these: Query for information on policies such as shipping policies, cancellation, refunds.',
    });
    const lost = obj((await callAgent('zzzz qqqq')).json);
    expect(lost).toMatchObject({ scenario: '', answer: agentSpec.scenarioSelectionFailureMessage });
  });

  it('reads a follow-up through the conversation: the earlier question gives it its topic', async () => {
    const history = [
      ...demoHistory,
      { by: 'USER', text: 'What is the returns policy?' },
      { by: 'AI', text: '…' },
    ];
    const res = await callAgent('and for damaged items?', { agentSpec, conversationHistory: history });
    expect(res.status).toBe(200);
    expect(obj(res.json).scenario).toBe('qna');
  });

  it('refuses bad input with the usual Error shapes', async () => {
    expectError(await callAgent('hi', undefined, { systemId: 'no-such-system' }), 404, /No QnA system/);
    const noText = await call(emu, `/api/qna/v1/systems/${kb}/call-agent?llmProviderId=${llm}`, {
      method: 'POST',
      body: JSON.stringify({ agentSpec }),
    });
    expectError(noText, 400, /userText/);
    expectError(await callAgent('hi', undefined, { llmId: 'not-an-llm' }), 400, /not configured/);
    expectError(await callAgent('hi', '{"agentSpec": '), 400, /not valid JSON/);
    expectError(await callAgent('hi', ''), 400, /agentSpec/);
    expectError(await callAgent('hi', { conversationHistory: [] }), 400, /agentSpec must be a JSON object/);
    expectError(await callAgent('hi', { agentSpec: { scenarios: [] } }), 400, /non-empty array/);
    expectError(await callAgent('hi', { agentSpec: { scenarios: [{ description: 'x' }] } }), 400, /name/);
    expectError(
      await callAgent('hi', { agentSpec, conversationHistory: [{ by: 'ROBOT', text: 'x' }] }),
      400,
      /conversationHistory\[0\]/,
    );
    const anonymous = await fetch(
      `${emu.url}/api/qna/v1/systems/${kb}/call-agent?llmProviderId=${llm}&userText=hi`,
      { method: 'POST', body: JSON.stringify({ agentSpec }) },
    );
    expect(anonymous.status).toBe(401);
    expect(isError(await anonymous.json())).toBe(true);
  });
});
