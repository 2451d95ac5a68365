import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoot, type Harness, openPage, startHarness } from './browser-harness.js';

const resultsDir = join(appRoot, 'test-results');

let harness: Harness;
let page: Page;
let pageErrors: string[] = [];

beforeAll(async () => {
  harness = await startHarness();
  ({ page, errors: pageErrors } = await openPage(harness));
});

afterAll(async () => {
  await harness?.close();
});

async function say(text: string): Promise<void> {
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send' }).click();
}

const agentMessages = () => page.locator('#messages > li.assistant');

describe('the chat page: the AI SDK chat client against a chat route', () => {
  it('shows the steps live, the agent asking back, and the answer on the same task', async () => {
    await page.goto(harness.chatUrl);
    await say('Where is my order?');
    // While the run streams, the status line shows the step the agent is on.
    await expect.poll(() => page.locator('#chat-status').textContent()).toMatch(/^Working: /);
    await expect.poll(() => page.locator('#chat-status').textContent()).toBe('The agent asked a question.');
    const question = agentMessages().first();
    expect(await question.locator('.asks').count()).toBe(1);
    expect(await question.locator('.text').textContent()).toMatch(/order/i);
    expect(await question.locator('.steps > li').count()).toBeGreaterThan(0);

    const streamsBefore = harness.emulator.requests.filter((request) =>
      request.path.endsWith('/stream'),
    ).length;
    await say('It is 1002');
    await expect.poll(() => agentMessages().count()).toBe(2);
    await expect.poll(() => page.locator('#chat-status').textContent()).toBe('');
    const answer = agentMessages().nth(1);
    expect(await answer.locator('.text').textContent()).toMatch(/1002/);
    // The question is answered: nothing waits for a reply any more.
    expect(await page.locator('#messages .asks').count()).toBe(0);
    const steps = await answer.locator('.steps > li').allTextContents();
    expect(steps.length).toBeGreaterThan(1);
    expect(steps.every((step) => step.trim() !== '')).toBe(true);

    // The reply continued the task the agent asked on: the route sent its taskId.
    const streams = harness.emulator.requests.filter((request) => request.path.endsWith('/stream'));
    expect(streams.length).toBe(streamsBefore + 1);
    const [first, second] = streams.slice(-2).map((request) => JSON.parse(request.body).params.message);
    expect(second.taskId).toBeDefined();
    expect(second.contextId).toBe(first.contextId ?? second.contextId);

    await expect.poll(() => harness.emulator.openStreams).toBe(0);
    mkdirSync(resultsDir, { recursive: true });
    await page.screenshot({ path: join(resultsDir, 'chat-page.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it('stops a run: the agent’s stream closes', async () => {
    await page.goto(harness.chatUrl);
    await say('Where is order 1001?');
    await expect.poll(() => page.locator('#chat-status').textContent()).toMatch(/^Working: /);
    expect(harness.emulator.openStreams).toBe(1);
    await page.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => harness.emulator.openStreams).toBe(0);
    await expect.poll(() => page.getByRole('button', { name: 'Send' }).isEnabled()).toBe(true);
  });
});
