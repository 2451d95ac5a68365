// The emulator's web console in headless Chromium, as a person uses it: the emulator started with the
// `dataworkz emulator` command, its overview, its data and an agent's card, a search, an agent chat,
// the request log with a request from another program, a fault switched on and used up (the panel
// following live), the API key nowhere in the page or its traffic until the person asks for it.
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoot, CHROMIUM, CHROMIUM_FLAGS } from './browser-harness.js';

const resultsDir = process.env.CONSOLE_SHOTS_DIR ?? join(appRoot, 'test-results');
const cliBin = join(
  dirname(fileURLToPath(import.meta.resolve('@dataworkz/cli/package.json'))),
  'bin/dataworkz.js',
);

interface Started {
  child: ChildProcess;
  baseUrl: string;
  apiKey: string;
  consoleUrl: string;
}

/** Starts `dataworkz emulator --port 0` and reads the lines it prints. */
function startCli(home: string): Promise<Started> {
  const child = spawn(process.execPath, [cliBin, 'emulator', '--port', '0'], {
    env: { PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    const found: {
      baseUrl?: string | undefined;
      apiKey?: string | undefined;
      consoleUrl?: string | undefined;
    } = {};
    let stderr = '';
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`dataworkz emulator exited (${code}): ${stderr}`)));
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      found.baseUrl ??= /^export DATAWORKZ_BASE_URL=(\S+)/.exec(line)?.[1];
      found.apiKey ??= /^export DATAWORKZ_API_KEY=(\S+)/.exec(line)?.[1];
      found.consoleUrl ??= /^# console: (\S+)/.exec(line)?.[1];
      const { baseUrl, apiKey, consoleUrl } = found;
      if (baseUrl && apiKey && consoleUrl) resolve({ child, baseUrl, apiKey, consoleUrl });
    });
  });
}

let home: string;
let emulator: Started;
let browser: BrowserContext;
let page: Page;
const pageErrors: string[] = [];
/** Everything the page sent and received: request lines, headers, bodies. */
const traffic: string[] = [];
const pendingBodies: Promise<void>[] = [];
/** The console's live log stream, read alongside by this test (the page's own copy never ends). */
let logStream = '';
const logStreamAbort = new AbortController();

beforeAll(async () => {
  home = mkdtempSync(join(tmpdir(), 'dataworkz-console-'));
  emulator = await startCli(home);
  browser = await chromium.launchPersistentContext(join(home, 'profile'), {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_FLAGS,
    viewport: { width: 1400, height: 1000 },
  });
  await browser.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: new URL(emulator.consoleUrl).origin,
  });
  page = await browser.newPage();
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') pageErrors.push(message.text());
  });
  page.on('request', (request) => {
    pendingBodies.push(
      request.allHeaders().then((headers) => {
        traffic.push(
          `${request.method()} ${request.url()}`,
          JSON.stringify(headers),
          request.postData() ?? '',
        );
      }),
    );
  });
  page.on('response', (response) => {
    const url = response.url();
    pendingBodies.push(
      response.allHeaders().then(async (headers) => {
        traffic.push(JSON.stringify(headers));
        // The live log's event stream never ends; the test reads its own copy of it below.
        if (url.endsWith('/console/api/events')) return;
        traffic.push(await response.text().catch(() => ''));
      }),
    );
  });
  const events = await fetch(`${emulator.consoleUrl}/api/events`, { signal: logStreamAbort.signal });
  const reader = events.body?.pipeThrough(new TextDecoderStream()).getReader();
  void (async () => {
    try {
      for (let next = await reader?.read(); next && !next.done; next = await reader?.read())
        logStream += next.value;
    } catch {
      // Aborted at the end of the test.
    }
  })();
  mkdirSync(resultsDir, { recursive: true });
});

afterAll(async () => {
  logStreamAbort.abort();
  await browser?.close();
  if (emulator?.child.exitCode === null) {
    const exited = new Promise((resolve) => emulator.child.once('exit', resolve));
    emulator.child.kill('SIGINT');
    await exited;
  }
  rmSync(home, { recursive: true, force: true });
});

/** Screenshots of the page as it stands, at 1400 and 800 pixels wide. */
async function screenshots(name: string): Promise<void> {
  for (const width of [1400, 800]) {
    await page.setViewportSize({ width, height: 1000 });
    await page.screenshot({ path: join(resultsDir, `console-${name}-${width}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1400, height: 1000 });
}

/** Opens one of the console's views by its link in the navigation. */
async function running(view: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Console sections' }).getByRole('link', { name: view }).click();
}

const htmlSeen: string[] = [];
async function keepHtml(): Promise<void> {
  htmlSeen.push(await page.content());
}

/** A request from a program other than the page: the `dataworkz` command, with the printed key. */
async function runCli(args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)(process.execPath, [cliBin, ...args], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      NO_COLOR: '1',
      DATAWORKZ_BASE_URL: emulator.baseUrl,
      DATAWORKZ_API_KEY: emulator.apiKey,
    },
  });
  return stdout;
}

describe('the emulator console in headless Chromium', () => {
  it('opens on an overview: what is running, and how to point a client at it', async () => {
    await page.goto(emulator.consoleUrl);
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toMatch(/^Dataworkz emulator \d+\.\d+\.\d+/);
    const running = page.getByRole('region', { name: 'What is running' });
    await expect
      .poll(() => running.getByRole('link').allTextContents())
      .toEqual([
        'Product Documentation',
        'Customer Support Knowledge Base',
        'Order Status Assistant',
        'Product Advisor',
        'Support Policy Helper',
        'No fault in force',
        expect.stringMatching(/^\d+ requests? in the log$/),
      ]);
    expect(await running.textContent()).toContain('2 systems');
    expect(await running.textContent()).toContain('3 agents');
    expect(await running.textContent()).toContain('0.3 and 1.0, per request');
    const connect = page.getByRole('region', { name: 'Point a client at it' });
    expect(await connect.getByTestId('base-url').textContent()).toBe(new URL(emulator.consoleUrl).origin);
    // The key stays out of the page until asked for (the last test asks).
    expect(await connect.getByTestId('export-line').textContent()).toBe(
      `export DATAWORKZ_BASE_URL=${new URL(emulator.consoleUrl).origin} DATAWORKZ_API_KEY=${'•'.repeat(12)}`,
    );
    expect(await page.getByTestId('live-status').textContent()).toBe(
      'no faults · 0 streams open · emulating',
    );
    await keepHtml();
    await screenshots('overview');
  });

  it('shows the QnA systems and agents by name, with their details', async () => {
    await running('Data');
    const lists = page.getByRole('region', { name: 'Data' });
    await expect
      .poll(() => lists.getByRole('link').allTextContents())
      .toEqual([
        'Product Documentation',
        'Customer Support Knowledge Base',
        'Order Status Assistant',
        'Product Advisor',
        'Support Policy Helper',
      ]);
    await page.getByRole('link', { name: 'Customer Support Knowledge Base' }).click();
    const details = page.getByRole('region', { name: 'Details' });
    await expect
      .poll(() => details.getByRole('heading', { level: 2 }).textContent())
      .toBe('Customer Support Knowledge Base');
    await expect.poll(() => details.getByRole('cell', { name: 'topic' }).count()).toBeGreaterThan(0);
    await expect.poll(() => details.getByRole('cell', { name: 'gpt-4o', exact: true }).count()).toBe(1);
    await keepHtml();
    await screenshots('data');
  });

  it("reads an agent's card as a person would: endpoints, capabilities, extensions, scenarios", async () => {
    await page.getByRole('link', { name: 'Order Status Assistant' }).click();
    const details = page.getByRole('region', { name: 'Details' });
    await expect
      .poll(() => details.getByRole('heading', { level: 2 }).textContent())
      .toBe('Order Status Assistant');
    const reach = details.getByRole('region', { name: 'How to reach it (A2A)' });
    await expect
      .poll(() => reach.getByRole('row').nth(1).textContent())
      .toMatch(/\/api\/agents\/v1\/a2a\/[\w-]+\/streamJSONRPC0\.3\.0$/);
    const capabilities = details.getByTestId('agent-capabilities');
    expect(await capabilities.textContent()).toContain('Streamingyes');
    expect(await details.getByTestId('extension-uri').textContent()).toBe(
      'https://dataworkz.com/agents/ext/provided-values/v1',
    );
    const scenarios = details.getByRole('region', { name: /^Scenarios/ });
    expect(await scenarios.getByRole('heading', { level: 3 }).textContent()).toBe('Scenarios (4)');
    expect(await scenarios.getByRole('heading', { level: 4 }).allTextContents()).toEqual([
      'Order status order-status',
      'Return eligibility return-eligibility',
      'Customer orders customer-orders',
      'Cancel an order cancel-order',
    ]);
    // How a scenario is picked, which the card does not say.
    await expect
      .poll(() => scenarios.locator('.scenario').first().locator('.words').textContent())
      .toBe('Picked by words beginning with: status, where, track, shipped, arriv, deliver, when');
    expect(await scenarios.textContent()).toContain('gets a question back');
    // The raw card is there, folded away.
    const raw = details.locator('details', { hasText: 'The agent card as JSON' });
    expect(await raw.getAttribute('open')).toBeNull();
    expect(await details.getByLabel('Agent card as JSON').textContent()).toContain('"streaming": true');
    await keepHtml();
    await screenshots('agent');

    // An example opens the Playground with the agent and the message ready.
    await scenarios.getByRole('link', { name: '“Where is my order?”' }).click();
    const chat = page.getByRole('region', { name: 'Chat with an agent' });
    await expect.poll(() => chat.getByLabel('Message (Enter sends)').inputValue()).toBe('Where is my order?');
    expect(await chat.getByLabel('Agent').inputValue()).toBe(
      await page.evaluate(() => new URLSearchParams(location.search).get('agent')),
    );
    await chat.getByLabel('Message (Enter sends)').fill('');
  });

  it('finds the passage a person means in the support system, with its source', async () => {
    await page.getByRole('link', { name: 'Playground' }).click();
    const qna = page.getByRole('region', { name: 'Search and answer' });
    await qna.getByLabel('QnA system').selectOption({ label: 'Customer Support Knowledge Base' });
    // None of these words is in the support articles: the ranking has to know what they mean.
    await qna.getByLabel('Query').fill('my stuff showed up wrecked');
    await qna.getByRole('button', { name: 'Search' }).click();
    const first = qna.locator('.passage').first();
    await expect.poll(() => first.locator('.passage-title strong').textContent()).toBe('Damaged deliveries');
    expect(await first.textContent()).toContain('support_kb`articles`body');
    expect(await first.textContent()).toContain('s3a://dataworkz-support-kb/articles/Damaged_deliveries.txt');
    expect(await first.locator('.score').textContent()).toMatch(/^score 0\.\d{3}$/);
  });

  it('chats with the order agent: its steps as they stream, then its answer', async () => {
    const chat = page.getByRole('region', { name: 'Chat with an agent' });
    await chat.getByLabel('Agent').selectOption({ label: 'Order Status Assistant' });
    await chat.getByLabel('Context values (JSON, optional)').fill('{"customerId": "C-100"}');
    await chat.getByLabel('Message (Enter sends)').fill('Where is order 1001?');
    await chat.getByLabel('Message (Enter sends)').press('Enter');
    await expect
      .poll(() => chat.getByTestId('agent-answer').first().textContent())
      .toBe('Order 1001 for Ada Lovelace shipped on 2026-03-02 with DHL and is expected on 2026-03-05.');
    const steps = await chat
      .getByRole('list', { name: 'Task updates' })
      .getByRole('listitem')
      .allTextContents();
    expect(steps[0]).toBe('SCENARIO_SELECTED Selected scenario: Order status');
    expect(steps).toContain('TOOL_CALL Fetching order 1001 from the orders APIorders.getOrder');
    expect(await chat.locator('.turn').first().locator('.state').textContent()).toBe(
      'Task completed, scenario “Order status”',
    );
    expect(await chat.getByLabel('Context values sent').textContent()).toContain('"customerId": "C-100"');

    // An approval asked back: the reply goes to the same task, which then completes.
    await chat.getByLabel('Message (Enter sends)').fill('Please cancel order 1003');
    await chat.getByLabel('Message (Enter sends)').press('Enter');
    const turns = chat.locator('.turn');
    await expect.poll(() => turns.nth(1).locator('.state').textContent()).toMatch(/^Task input-required/);
    await chat.getByLabel('Message (Enter sends)').fill('approve');
    await chat.getByLabel('Message (Enter sends)').press('Enter');
    await expect.poll(() => turns.nth(2).locator('.state').textContent()).toMatch(/^Task completed/);
    expect(await turns.nth(2).getByTestId('agent-answer').textContent()).toContain('1003');
    await keepHtml();
    await screenshots('playground');
  });

  it("logs another program's request, live, with its status and without the key", async () => {
    await page.getByRole('link', { name: 'Request log' }).click();
    expect(await runCli(['agents', 'list', '--json'])).toContain('Order Status Assistant');
    const row = page.locator('tr', { has: page.getByRole('cell', { name: 'program' }) }).filter({
      has: page.getByRole('link', { name: '/api/agents/v1/', exact: true }),
    });
    await expect.poll(() => row.locator('.status').textContent()).toBe('200');
    expect(await row.locator('td').nth(5).textContent()).toMatch(/^req-\d+$/);
    await row.getByRole('link').click();
    const details = page.getByRole('region', { name: 'Request details' });
    await expect
      .poll(() => details.getByRole('row', { name: /^authorization/ }).textContent())
      .toBe('authorizationSSWS [redacted]');
    await keepHtml();
    await screenshots('log');
  });

  it('switches a fault on; the panel follows, live, as requests use it up', async () => {
    await page.getByRole('link', { name: 'Faults and limits' }).click();
    await page.getByLabel('Applies to').selectOption('listQnaSystems');
    await page.getByLabel('Times').fill('2');
    await page.getByLabel('Status code (empty: the operation answers)').fill('503');
    await page.getByRole('button', { name: 'Switch the fault on' }).click();
    const inForce = page.getByTestId('active-faults');
    await expect.poll(() => inForce.textContent()).toBe('listQnaSystems: answer 503 (2 uses left)');
    await expect
      .poll(() => page.getByTestId('live-status').textContent())
      .toBe('1 fault in force · 0 streams open · emulating');
    await keepHtml();
    await screenshots('faults-before');

    // Another program's requests use the fault up: the panel follows without a reload.
    const headers = { authorization: `SSWS ${emulator.apiKey}` };
    const faulted = await fetch(`${emulator.baseUrl}/api/qna/v1/systems`, { headers });
    expect(faulted.status).toBe(503);
    expect(((await faulted.json()) as { code: string }).code).toBe('INJECTED_FAULT');
    await expect.poll(() => inForce.textContent()).toBe('listQnaSystems: answer 503 (1 use left)');
    await screenshots('faults-one-left');
    expect((await fetch(`${emulator.baseUrl}/api/qna/v1/systems`, { headers })).status).toBe(503);
    await expect.poll(() => page.getByTestId('no-faults').count()).toBe(1);
    await expect
      .poll(() => page.getByTestId('live-status').textContent())
      .toBe('no faults · 0 streams open · emulating');
    await keepHtml();
    await screenshots('faults-after');
    expect((await fetch(`${emulator.baseUrl}/api/qna/v1/systems`, { headers })).status).toBe(200);
    // The API itself still refuses a request without a credential.
    expect((await fetch(`${emulator.baseUrl}/api/qna/v1/systems`)).status).toBe(401);
  });

  it('never shows the key, in the HTML or the traffic, unless asked, and logs no page error', async () => {
    await Promise.all(pendingBodies);
    expect(traffic.length).toBeGreaterThan(20);
    expect(logStream).toContain('/api/agents/v1/');
    expect(logStream).toContain('event: state');
    for (const text of [...htmlSeen, ...traffic, logStream]) expect(text).not.toContain(emulator.apiKey);
    expect(pageErrors).toEqual([]);
  });

  it('shows the key and copies the export line when asked', async () => {
    await page.getByRole('link', { name: 'Overview' }).click();
    const connect = page.getByRole('region', { name: 'Point a client at it' });
    await connect.getByRole('button', { name: 'Show the key' }).click();
    await expect.poll(() => connect.getByTestId('api-key').textContent()).toBe(emulator.apiKey);
    const line = `export DATAWORKZ_BASE_URL=${new URL(emulator.consoleUrl).origin} DATAWORKZ_API_KEY=${emulator.apiKey}`;
    expect(await connect.getByTestId('export-line').textContent()).toBe(line);
    await connect.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => connect.getByTestId('copy-note').textContent()).toBe('Copied, with the key.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(line);
    await connect.getByRole('button', { name: 'Hide the key' }).click();
    expect(await connect.getByTestId('api-key').textContent()).toBe('•'.repeat(12));
    await screenshots('overview-copied');
    // A browser elsewhere, or a page elsewhere, does not get it.
    const foreign = await fetch(`${emulator.consoleUrl}/api/key`, {
      headers: { origin: 'http://attacker.example' },
    });
    expect(foreign.status).toBe(403);
    expect(pageErrors).toEqual([]);
  });
});
