// The built site (`pnpm docs:build` first) as a reader meets it, in headless Chromium: the home page
// without console errors, the search finding a guide, a diagram drawn, Run buttons running their snippets in the page.
import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic } from './static-server.js';

const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const shots = fileURLToPath(new URL('../test-results/', import.meta.url));
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let browser: Browser;
let origin: string;
let close: () => Promise<void>;

beforeAll(async () => {
  if (!existsSync(new URL('../dist/index.html', import.meta.url))) {
    throw new Error('No built site in apps/docs/dist: run `pnpm docs:build` first');
  }
  const server = await serveStatic(dist);
  origin = server.origin;
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  mkdirSync(shots, { recursive: true });
  close = async () => {
    await browser.close();
    await server.close();
  };
});

afterAll(async () => close?.());

/** A page whose console errors and uncaught exceptions are collected. */
async function open(path: string): Promise<{ page: Page; errors: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${origin}${path}`, { waitUntil: 'networkidle' });
  return { page, errors };
}

describe('the documentation site in Chromium', () => {
  it('opens the home page without a console error', async () => {
    const { page, errors } = await open('/');
    expect((await page.locator('.VPHero .name').textContent()) ?? '').toContain('Dataworkz TypeScript SDK');
    await page.screenshot({ path: `${shots}home.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('finds a guide with the local search', async () => {
    const { page, errors } = await open('/');
    await page.locator('.VPNavBarSearch button').click();
    await page.locator('#localsearch-input').fill('resume dropped connection');
    const first = page.locator('.VPLocalSearchBox .results a').first();
    await expect.poll(() => first.getAttribute('href')).toContain('/guides/agents/resume');
    await page.screenshot({ path: `${shots}search.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  // A concept's words find the guide that explains it first, before reference entries that share them.
  const searches: [query: string, guide: RegExp][] = [
    ['retry', /\/guides\/errors(#|$)/],
    ['resume', /\/guides\/agents\/resume(#|$)/],
    ['timeout', /\/guides\/errors(#|$)/],
    ['api key', /\/guides\/auth(#|$)/],
    ['test offline', /\/guides\/testing\//],
    ['langchain', /\/guides\/langchain(#|$)/],
    ['rate limit', /\/guides\/(errors|testing\/faults)(#|$)/],
    ['context values', /\/guides\/agents\/context-values(#|$)/],
    ['record', /\/guides\/testing\/record-replay(#|$)/],
    ['ask back question', /\/guides\/agents\/input-required(#|$)/],
    ['DATAWORKZ_BASE_URL', /\/getting-started(#|$)/],
  ];
  it.each(searches)('"%s" finds its guide first', async (query, guide) => {
    const { page, errors } = await open('/');
    await page.locator('.VPNavBarSearch button').click();
    await page.locator('#localsearch-input').fill(query);
    const first = page.locator('.VPLocalSearchBox .results a').first();
    await expect.poll(() => first.getAttribute('href')).toMatch(guide);
    if (query === 'retry' || query === 'ask back question') {
      await page.screenshot({ path: `${shots}search-${query.replaceAll(' ', '-')}.png` });
    }
    expect(errors).toEqual([]);
    await page.close();
  });

  it('renders a guide and the TypeScript API reference', async () => {
    const guide = await open('/guides/qna/search-and-answers');
    expect((await guide.page.locator('.vp-doc h1').textContent()) ?? '').not.toBe('');
    await guide.page.screenshot({ path: `${shots}guide.png` });
    expect(guide.errors).toEqual([]);
    await guide.page.close();
    const api = await open('/reference/api/@dataworkz/client/index/classes/Dataworkz');
    expect((await api.page.locator('.vp-doc h1').textContent()) ?? '').toContain('Dataworkz');
    // The client's two resources, as rows of its properties table.
    const cells = await api.page.locator('.vp-doc td').allTextContents();
    expect(cells.map((cell) => cell.trim())).toEqual(expect.arrayContaining(['qna', 'agents']));
    await api.page.screenshot({ path: `${shots}api-reference.png` });
    // A symbol's page says where it is: the breadcrumb leads back to its package.
    const crumb = api.page.locator('.vp-doc p', { hasText: 'TypeScript API' }).first().getByRole('link', {
      name: '@dataworkz/client',
      exact: true,
    });
    await crumb.click();
    await api.page.waitForURL(/\/reference\/api\/@dataworkz\/client\/$/);
    // The sidebar leads to a package's page and to each kind of symbol on it, not to every symbol: a
    // sidebar of every symbol is written into every page (see .vitepress/sidebar.ts).
    const sidebar = api.page.locator('.VPSidebar');
    await sidebar.getByRole('link', { name: '@dataworkz/a2a', exact: true }).click();
    await api.page.waitForURL(/\/@dataworkz\/a2a\/$/);
    await sidebar.getByRole('link', { name: 'Classes', exact: true }).click();
    await api.page.waitForURL(/\/@dataworkz\/a2a\/#classes$/);
    await expect
      .poll(() => api.page.locator('.vp-doc a', { hasText: 'AgentRun' }).first().isVisible())
      .toBe(true);
    await api.page.screenshot({ path: `${shots}api-sidebar.png` });
    expect(api.errors).toEqual([]);
    await api.page.close();
    const html = await (
      await fetch(`${origin}/reference/api/@dataworkz/client/index/classes/Dataworkz`)
    ).text();
    expect(html.length).toBeLessThan(100_000);
  });

  it("names the types the client's methods return, and leaves a framework's inherited members to its reference", async () => {
    const qna = await open('/reference/api/@dataworkz/client/index/interfaces/Qna');
    const text = (await qna.page.locator('.vp-doc').textContent()) ?? '';
    expect(text).toContain('APIPromise<AnswerResponse>');
    expect(text).toContain('APIPromise<SearchResponse>');
    expect(text).not.toContain('object & object');
    // The result's type links to its own page.
    const link = qna.page.locator('.vp-doc a', { hasText: /^AnswerResponse$/ }).first();
    expect(await link.getAttribute('href')).toMatch(/(^\.\/|interfaces\/)AnswerResponse$/);
    await qna.page.screenshot({ path: `${shots}api-qna.png` });
    expect(qna.errors).toEqual([]);
    await qna.page.close();

    const client = await (
      await fetch(`${origin}/reference/api/@dataworkz/client/index/classes/Dataworkz`)
    ).text();
    for (const property of ['qna', 'agents']) {
      const row = new RegExp(`id="property-${property}"[\\s\\S]*?</tr>`).exec(client)?.[0] ?? '';
      expect(row, property).toMatch(/<td>[^<-][^<]{20,}/);
    }
    const retriever = await (
      await fetch(`${origin}/reference/api/@dataworkz/langchain/classes/DataworkzRetriever`)
    ).text();
    expect(retriever).not.toContain('lc_aliases');
    // Every HTTP operation: a curl request, a response example and the SDK call that makes it.
    for (const tag of ['agents', 'qna']) {
      const http = await (await fetch(`${origin}/reference/http/${tag}`)).text();
      const operations = http.match(/ · operation <code>/g)?.length ?? 0;
      expect(operations, tag).toBeGreaterThan(0);
      expect(http.match(/<strong>Request<\/strong>, with curl/g)?.length, tag).toBe(operations);
      expect(http.match(/<strong>Response<\/strong> 2/g)?.length, tag).toBe(operations);
      expect(http.match(/<strong>From the SDK<\/strong>/g)?.length, tag).toBe(operations);
    }
    expect(retriever).toContain(
      'https://v03.api.js.langchain.com/classes/_langchain_core.retrievers.BaseRetriever.html',
    );
  });

  it('draws a mermaid diagram in the page', async () => {
    const { page, errors } = await open('/explanation/architecture');
    const diagram = page.locator('.vp-doc .mermaid svg').first();
    await expect.poll(() => diagram.count()).toBeGreaterThan(0);
    expect(await diagram.locator('text, foreignObject').count()).toBeGreaterThan(0);
    await diagram.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}diagram.png` });
    expect(errors).toEqual([]);
    await page.close();
  });

  it('runs the getting-started answer in the page', async () => {
    const { page, errors } = await open('/getting-started');
    const block = page.locator('.run-snippet').first();
    await block.locator('button').click();
    await expect.poll(() => block.getAttribute('data-state')).toBe('done');
    expect((await block.locator('.run-snippet__output').textContent()) ?? '').toContain('answers:');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('streams an agent run in the page, its steps before its answer', async () => {
    const { page, errors } = await open('/guides/agents/streaming');
    const block = page.locator('.run-snippet').first();
    await block.locator('button').click();
    await expect.poll(() => block.getAttribute('data-state')).toBe('done');
    const output = (await block.locator('.run-snippet__output').textContent()) ?? '';
    expect(output).toMatch(/step|task/i);
    await block.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${shots}stream.png`, fullPage: false });
    expect(errors).toEqual([]);
    await page.close();
  });
});
