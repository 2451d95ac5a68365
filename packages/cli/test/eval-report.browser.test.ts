// The evaluation report as a reader opens it: from disk in headless Chromium, with no network, its
// charts drawn and no console error.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { evaluateQna } from '@dataworkz/cli/eval';
import { Dataworkz } from '@dataworkz/client';
import { seed, startEmulator } from '@dataworkz/emulator';
import { chromium } from 'playwright-core';
import { expect, it } from 'vitest';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SCREENSHOT = process.env.EVAL_REPORT_SCREENSHOT ?? join(tmpdir(), 'eval-report.png');

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
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu'],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1400 } });
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
  } finally {
    await browser.close();
  }
});
