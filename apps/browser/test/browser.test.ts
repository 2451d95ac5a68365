import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type FinalAnswer, streamAgent } from '@dataworkz/a2a';
import Dataworkz from '@dataworkz/client';
import { type RecordedRequest, seed } from '@dataworkz/emulator';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoot, type Harness, openPage, startHarness } from './browser-harness.js';

const resultsDir = join(appRoot, 'test-results');
const agentId = seed.agents.orderStatus.agentId;
const systemId = seed.systems.productDocs.systemId;
const question = 'Can I return order 1002?';

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

async function connect(apiKey: string): Promise<void> {
  await page.goto(harness.pageUrl);
  await page.getByLabel('Base URL').fill(harness.emulator.url);
  await page.getByLabel('API key').fill(apiKey);
  await page.getByRole('button', { name: 'Connect' }).click();
}

/** The agent streams the page opened (its origin tells them from Node's), since `from` requests. */
function pageStreamRequests(from: number): RecordedRequest[] {
  const pageOrigin = new URL(harness.pageUrl).origin;
  return harness.emulator.requests
    .slice(from)
    .filter((request) => request.path.endsWith('/stream') && request.headers.origin === pageOrigin);
}

/**
 * Clicks Ask and waits for the answer expected; checks the task updates (all, in the order the agent
 * sent them) and the status line. Returns the stream requests the page made meanwhile.
 */
async function askAndExpect(expected: FinalAnswer, expectedUpdates: string[]) {
  const sentBefore = harness.emulator.requests.length;
  await page.getByRole('button', { name: 'Ask' }).click();
  await expect.poll(() => page.locator('#answer').textContent()).toBe(expected.answer);
  expect(await page.locator('#task-updates > li').allTextContents()).toEqual(expectedUpdates);
  expect(await page.locator('#ask-status').textContent()).toBe(
    `Task ${expected.state} after ${expectedUpdates.length} task updates.`,
  );
  return pageStreamRequests(sentBefore);
}

describe('the browser example in headless Chromium', () => {
  it('shows the service refusing a wrong API key, without the key', async () => {
    await connect('wrong-key-123');
    const status = page.locator('#connection-status');
    await expect.poll(() => status.textContent()).toMatch(/^401 /);
    expect(await status.getAttribute('class')).toBe('error');
    expect(await status.textContent()).not.toContain('wrong-key-123');
    expect(await page.locator('#search').isVisible()).toBe(false);
    // The browser itself reports the two refused requests; nothing else may fail.
    expect(pageErrors.filter((text) => !text.includes('status of 401'))).toEqual([]);
  });

  it('connects, searches a QnA system and streams an agent answer with its task updates', async () => {
    pageErrors.length = 0;
    // What the page should show, computed through the same packages from Node.
    const dw = new Dataworkz({ baseUrl: harness.emulator.url, apiKey: harness.emulator.apiKey });
    const [systems, agents] = await Promise.all([dw.qna.list(), dw.agents.list()]);
    const search = await dw.qna.search(systemId, { query: 'install', properties: { include_probe: false } });
    const run = streamAgent(dw, agentId, { text: question });
    const expectedUpdates: string[] = [];
    for await (const event of run) {
      if (event.type === 'task-update') expectedUpdates.push(String(event.data.message));
    }
    const expected = await run.finalAnswer();
    expect(expectedUpdates.length).toBeGreaterThan(0);
    expect(expected.answer).not.toBe('');

    await connect(harness.emulator.apiKey);
    await expect
      .poll(() => page.locator('#connection-status').textContent())
      .toBe(`Connected: ${Object.keys(systems).length} QnA systems, ${agents.length} agents.`);

    await page.getByLabel('QnA system').selectOption(systemId);
    await page.getByLabel('Search terms').fill('install');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.locator('#search-status').textContent()).toMatch(/results for "install"/);
    const hits = search.searchResultsList ?? [];
    expect(hits.length).toBeGreaterThan(0);
    expect(await page.locator('#search-results > li').count()).toBe(hits.length);
    expect(await page.locator('#search-results > li').first().textContent()).toContain(hits[0]?.source ?? '');

    await page.getByLabel('Agent').selectOption(agentId);
    await page.getByLabel('Question').fill(question);
    expect(await page.getByLabel('Your name').inputValue()).toBe('');
    const sent = await askAndExpect(expected, expectedUpdates);
    // No name, no context values: the page asked for no extension.
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers['x-a2a-extensions']).toBeUndefined();

    mkdirSync(resultsDir, { recursive: true });
    await page.screenshot({ path: join(resultsDir, 'browser-example.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });

  it('sends the name typed in as a context value, and shows the personalised answer', async () => {
    pageErrors.length = 0;
    // What the page should show, computed through the same packages from Node.
    const dw = new Dataworkz({ baseUrl: harness.emulator.url, apiKey: harness.emulator.apiKey });
    const plain = await streamAgent(dw, agentId, { text: question }).finalAnswer();
    const run = streamAgent(dw, agentId, { text: question, contextValues: { userName: 'Grace' } });
    const expectedUpdates: string[] = [];
    for await (const event of run) {
      if (event.type === 'task-update') expectedUpdates.push(String(event.data.message));
    }
    const expected = await run.finalAnswer();
    expect(expected.answer).toBe(`Hi Grace! ${plain.answer}`);

    await connect(harness.emulator.apiKey);
    await expect.poll(() => page.locator('#connection-status').textContent()).toMatch(/^Connected: /);
    await page.getByLabel('Agent').selectOption(agentId);
    await page.getByLabel('Question').fill(question);
    await page.getByLabel('Your name').fill('Grace');
    const sent = await askAndExpect(expected, expectedUpdates);
    // The page's own request asked for the provided-values extension, with the name in the message.
    expect(sent).toHaveLength(1);
    expect(sent[0]?.headers['x-a2a-extensions']).toBe(harness.emulator.extensionUri);
    expect(sent[0]?.body).toContain('"userName":"Grace"');

    mkdirSync(resultsDir, { recursive: true });
    await page.screenshot({ path: join(resultsDir, 'browser-context-values.png'), fullPage: true });
    expect(pageErrors).toEqual([]);
  });
});

describe('the browser example with the emulator in the page', () => {
  it('searches and streams an answer with no server behind the page', async () => {
    pageErrors.length = 0;
    const pageOrigin = new URL(harness.pageUrl).origin;
    const leftThePage: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).origin !== pageOrigin) leftThePage.push(request.url());
    });
    // What the page should show, computed through the same packages from Node.
    const dw = new Dataworkz({ baseUrl: harness.emulator.url, apiKey: harness.emulator.apiKey });
    const run = streamAgent(dw, agentId, { text: question });
    const expectedUpdates: string[] = [];
    for await (const event of run) {
      if (event.type === 'task-update') expectedUpdates.push(String(event.data.message));
    }
    const expected = await run.finalAnswer();
    const personalised = await streamAgent(dw, agentId, {
      text: question,
      contextValues: { userName: 'Grace' },
    }).finalAnswer();
    expect(personalised.answer).toBe(`Hi Grace! ${expected.answer}`);
    const expectedHits = (
      await dw.qna.search(systemId, { query: 'install', properties: { include_probe: false } })
    ).searchResultsList?.length;
    const emulatorRequests = harness.emulator.requests.length;

    await page.goto(`${harness.pageUrl}?mode=in-process`);
    await expect
      .poll(() => page.locator('#connection-status').textContent())
      .toBe('The emulator runs in this page: connect to it, no server needed.');
    expect(await page.getByLabel('Base URL').inputValue()).toBe('https://dw.example');
    await page.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => page.locator('#connection-status').textContent()).toMatch(/^Connected: /);

    await page.getByLabel('QnA system').selectOption(systemId);
    await page.getByLabel('Search terms').fill('install');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect.poll(() => page.locator('#search-status').textContent()).toMatch(/results for "install"/);
    expect(await page.locator('#search-results > li').count()).toBe(expectedHits);

    await page.getByLabel('Agent').selectOption(agentId);
    await page.getByLabel('Question').fill(question);
    await page.getByRole('button', { name: 'Ask' }).click();
    await expect.poll(() => page.locator('#answer').textContent()).toBe(expected.answer);
    expect(await page.locator('#task-updates > li').allTextContents()).toEqual(expectedUpdates);

    // The name reaches the emulator in the page as a context value, through the same SDK path.
    await page.getByLabel('Your name').fill('Grace');
    await page.getByRole('button', { name: 'Ask' }).click();
    await expect.poll(() => page.locator('#answer').textContent()).toBe(personalised.answer);
    expect(await page.locator('#task-updates > li').allTextContents()).toEqual(expectedUpdates);

    mkdirSync(resultsDir, { recursive: true });
    await page.screenshot({ path: join(resultsDir, 'browser-in-process.png'), fullPage: true });
    // Nothing went to a server: not to the origin the client was given, nor to the emulator on Node.
    expect(leftThePage).toEqual([]);
    expect(harness.emulator.requests.length).toBe(emulatorRequests);
    expect(pageErrors).toEqual([]);
  });
});
