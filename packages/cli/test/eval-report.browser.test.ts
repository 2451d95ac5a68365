// The evaluation report as a reader opens it: from disk in headless Chromium, with no network, its
// charts drawn and no console error.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { evaluateQna } from '@dataworkz/cli/eval';
import { Dataworkz } from '@dataworkz/client';
import { seed, startEmulator } from '@dataworkz/emulator';
import { chromium, type Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { degradedAnswers } from './support/degraded-answers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = process.env.EVAL_REPORT_SCREENSHOT ?? join(tmpdir(), 'eval-report.png');

/** A page of headless Chromium the size of `viewport`, closed with its browser when `use` ends. */
async function withPage(viewport: { width: number; height: number }, use: (page: Page) => Promise<void>) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    await use(await browser.newPage({ viewport }));
  } finally {
    await browser.close();
  }
}

it('opens report.html from disk with its charts and without a console error or a request', async () => {
  const emu = await startEmulator({ port: 0 });
  let report: string;
  let metrics: number;
  try {
    const result = await evaluateQna({
      client: new Dataworkz({ baseUrl: emu.url, apiKey: emu.apiKey }),
      golden: fileURLToPath(new URL('./fixtures/eval/support-golden.csv', import.meta.url)),
      systems: [seed.systems.supportKb.name, seed.systems.productDocs.name],
      outDir: mkdtempSync(join(tmpdir(), 'dataworkz-eval-report-')),
    });
    report = result.files.report;
    metrics = Object.keys(result.stats[0]?.means ?? {}).length;
  } finally {
    await emu.close();
  }
  await withPage({ width: 1200, height: 1400 }, async (page) => {
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('request', (request) => {
      if (!request.url().startsWith('file:')) requests.push(request.url());
    });
    await page.goto(pathToFileURL(report).href, { waitUntil: 'load' });
    expect(await page.locator('figure.chart svg').count()).toBe(metrics);
    // Two experiments: a bar each in every chart.
    expect(
      await page.locator('figure.chart').first().locator('rect[fill^="#"]:not([fill="#eef2f7"])').count(),
    ).toBe(2);
    await page.screenshot({ path: SCREENSHOT, fullPage: false });
    // A block per question (six), the two systems side by side in it, in the stats' order.
    expect(await page.locator('details').count()).toBe(6);
    await page.locator('details').first().locator('summary').click();
    const columns = page.locator('details[open] .side > section');
    expect(await columns.locator('h3').allTextContents()).toEqual([
      seed.systems.supportKb.name,
      seed.systems.productDocs.name,
    ]);
    const boxes = await Promise.all([columns.nth(0).boundingBox(), columns.nth(1).boundingBox()]);
    expect(boxes[1]?.x).toBeGreaterThan((boxes[0]?.x ?? 0) + (boxes[0]?.width ?? 0) - 1);
    expect(boxes[1]?.y).toBe(boxes[0]?.y);
    expect(await page.locator('details[open] ol.chunks li').count()).toBeGreaterThan(0);
    await page.screenshot({ path: SCREENSHOT.replace(/\.png$/, '-question.png'), fullPage: true });
    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
  });
});

it('opens with the comparison when a baseline is given: the regressions first, marked, with their intervals', async () => {
  const emu = await startEmulator({ port: 0, embed: false });
  let report: string;
  try {
    const client = new Dataworkz({ baseUrl: emu.url, apiKey: emu.apiKey });
    const golden = fileURLToPath(new URL('./fixtures/eval/support-golden.csv', import.meta.url));
    const systems = [seed.systems.supportKb.name];
    const base = await evaluateQna({
      client,
      golden,
      systems,
      outDir: mkdtempSync(join(tmpdir(), 'dataworkz-eval-base-')),
    });
    // Every answer of the next run says it does not know, from a chunk about something else.
    emu.faults.add(degradedAnswers(6));
    const result = await evaluateQna({
      client,
      golden,
      systems,
      outDir: mkdtempSync(join(tmpdir(), 'dataworkz-eval-report-')),
      baseline: base.files.results,
    });
    expect(result.regressions.length).toBeGreaterThan(0);
    report = result.files.report;
  } finally {
    await emu.close();
  }
  await withPage({ width: 1200, height: 900 }, async (page) => {
    await page.goto(pathToFileURL(report).href, { waitUntil: 'load' });
    // The first heading under the title, in view without scrolling.
    expect(await page.locator('h2').first().textContent()).toBe('Compared with the baseline');
    expect(await page.locator('p.headline').textContent()).toMatch(
      /^Regressed: \d+ metrics of 1 experiment fell below the baseline\.$/,
    );
    // The header cells in order, as the eye reads them across.
    const header = await page.locator('table.comparison th').allTextContents();
    expect(header.join(' | ')).toBe(
      'experiment | source | metric | baseline | now | difference | 95 % interval | verdict | dropped most',
    );
    const first = page.locator('table.comparison tbody tr').first();
    expect(await first.getAttribute('class')).toBe('verdict-regressed');
    // Marked in red, as the eye reads it.
    expect(
      await first
        .locator('td')
        .first()
        .evaluate((cell) => getComputedStyle(cell).backgroundColor),
    ).toBe('rgb(254, 226, 226)');
    expect(await first.isVisible()).toBe(true);
    const recall = page.locator('table.comparison tr', { hasText: 'context_recall' });
    expect(await recall.locator('td').allTextContents()).toEqual([
      seed.systems.supportKb.name,
      'support',
      'context_recall',
      '1.000',
      '0.000',
      '-1.000',
      '[-1.000, -1.000]',
      'regressed',
      expect.stringMatching(/^"How long do I have to return hardware\?" 1\.000 → 0\.000; /),
    ]);
    await page.screenshot({ path: SCREENSHOT.replace(/\.png$/, '-comparison.png'), fullPage: false });
  });
});
