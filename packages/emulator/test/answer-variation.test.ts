import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { afterEach, describe, expect, it } from 'vitest';
import { call, obj, q } from './support/http.js';

// The answers an evaluation gate is tried against: the same every time by default, varied as an LLM
// sampling at a temperature with `answerVariation`, and repeatable with its seed.

const questions = [
  'How long do I have to return hardware?',
  'When are refunds issued?',
  'How long is the warranty for Gold members?',
  'Which payment methods are accepted?',
  'What should I do if a parcel arrives damaged?',
];
const { systemId } = seed.systems.supportKb;
const llmProviderId = seed.llms.accountDefault;

async function answers(emu: Emulator, times: number): Promise<string[]> {
  const said: string[] = [];
  for (let i = 0; i < times; i += 1) {
    for (const questionText of questions) {
      const path = `/api/qna/v1/systems/${systemId}/answer?${q({ questionText, llmProviderId })}`;
      said.push(obj((await call(emu, path)).json).answer as string);
    }
  }
  return said;
}

describe('answerVariation', () => {
  const started: Emulator[] = [];
  const start = async (options: Parameters<typeof startEmulator>[0]) => {
    const emu = await startEmulator({ port: 0, embed: false, ...options });
    started.push(emu);
    return emu;
  };
  afterEach(async () => {
    for (const emu of started.splice(0)) await emu.close();
  });

  it('answers a question the same way every time without it', async () => {
    const said = await answers(await start({}), 3);
    expect(said.slice(0, 5)).toEqual(said.slice(5, 10));
    expect(said.slice(0, 5)).toEqual(said.slice(10, 15));
  });

  it('varies the answers between askings, from the retrieved sentences only, and repeats them with the same seed', async () => {
    const first = await answers(await start({ answerVariation: { temperature: 0.8, seed: 7 } }), 4);
    const byQuestion = questions.map((_, q) => new Set(first.filter((_, i) => i % questions.length === q)));
    // Over four askings at least some questions got more than one answer.
    expect(byQuestion.filter((set) => set.size > 1).length).toBeGreaterThan(0);
    // Every answer still cites the contexts it says, as the service's do.
    for (const answer of first) expect(answer).toMatch(/^\n\n.+\[\d+\]\.$/s);
    const again = await answers(await start({ answerVariation: { temperature: 0.8, seed: 7 } }), 4);
    expect(again).toEqual(first);
    const otherSeed = await answers(await start({ answerVariation: { temperature: 0.8, seed: 8 } }), 4);
    expect(otherSeed).not.toEqual(first);
  });

  it('refuses a temperature outside 0 to 1 and a seed that is no integer', async () => {
    await expect(start({ answerVariation: { temperature: 2 } })).rejects.toThrow(
      'Option answerVariation.temperature must be a number from 0 to 1',
    );
    await expect(start({ answerVariation: { temperature: 0.5, seed: 1.5 } })).rejects.toThrow(
      'Option answerVariation.seed must be an integer',
    );
  });
});
