// The emulator's console opened from elsewhere, as through Docker's port mapping: Chromium talks to a
// relay on loopback, and the relay reaches the emulator from this machine's own non-loopback address,
// so the emulator sees a peer that is not on its machine (as a container sees its host through the
// bridge). The page asks for the key once, keeps it for the tab, and then works as on loopback; the
// key never rides in a URL.
import { mkdirSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { type Emulator, startEmulator } from '@dataworkz/emulator';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRoot, CHROMIUM, CHROMIUM_FLAGS } from './browser-harness.js';

const resultsDir = process.env.CONSOLE_SHOTS_DIR ?? join(appRoot, 'test-results');
const apiKey = 'console-remote-key-0123456789';

/** This machine's first IPv4 address that is not a loopback one: where the relay's connections leave from. */
const outside = Object.values(networkInterfaces())
  .flat()
  .find((a) => a !== undefined && a.family === 'IPv4' && !a.internal)?.address;

describe.skipIf(outside === undefined)('the console opened from elsewhere, in headless Chromium', () => {
  let emulator: Emulator;
  let relay: Server;
  let consoleUrl: string;
  let browser: Browser;
  let page: Page;
  /** Every URL the page asked for. */
  const urls: string[] = [];
  const pageErrors: string[] = [];

  beforeAll(async () => {
    emulator = await startEmulator({ console: true, host: '0.0.0.0', apiKeys: [apiKey] });
    const port = Number(new URL(emulator.url).port);
    relay = createServer((client) => {
      const upstream = connect({ host: '127.0.0.1', port, localAddress: outside });
      client.pipe(upstream).pipe(client);
      client.on('error', () => upstream.destroy());
      upstream.on('error', () => client.destroy());
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const address = relay.address() as { port: number };
    consoleUrl = `http://127.0.0.1:${address.port}/console`;
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_FLAGS });
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.on('request', (request) => urls.push(request.url()));
    page.on('pageerror', (error) => pageErrors.push(error.message));
    mkdirSync(resultsDir, { recursive: true });
  });

  afterAll(async () => {
    await browser?.close();
    relay?.close();
    await emulator?.close();
  });

  it('asks for the key, refuses a wrong one, and keeps the right one for the tab', async () => {
    await page.goto(consoleUrl);
    const form = page.getByTestId('key-form');
    await expect.poll(() => form.isVisible()).toBe(true);
    expect(await form.textContent()).toContain("This console needs the emulator's API key");
    await page.screenshot({ path: join(resultsDir, 'console-remote-asks.png'), fullPage: true });

    await page.getByTestId('key-input').fill('not-the-key-at-all');
    await page.getByRole('button', { name: 'Use this key' }).click();
    await expect.poll(() => form.textContent()).toContain('The emulator refused the key this tab was given.');

    await page.getByTestId('key-input').fill(apiKey);
    await page.getByRole('button', { name: 'Use this key' }).click();
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent())
      .toMatch(/^Dataworkz emulator \d+\.\d+\.\d+/);
    expect(await page.getByTestId('key-form').count()).toBe(0);
    // The live channel (fetch with the key in a header) says what is in force.
    await expect
      .poll(() => page.getByTestId('live-status').textContent())
      .toBe('no faults · 0 streams open · emulating');
    await page.screenshot({ path: join(resultsDir, 'console-remote-with-key.png'), fullPage: true });

    // Another view, as a person moves on: no second question.
    await page
      .getByRole('navigation', { name: 'Console sections' })
      .getByRole('link', { name: 'Data' })
      .click();
    await expect
      .poll(() => page.getByRole('region', { name: 'Data' }).getByRole('link').count())
      .toBeGreaterThan(0);
    expect(await page.getByTestId('key-form').count()).toBe(0);
    expect(await page.evaluate(() => sessionStorage.getItem('dataworkz-console-key'))).toBe(apiKey);
  });

  it('never puts the key in a URL, and logs no page error', () => {
    expect(urls.some((url) => url.includes('/console/api/events'))).toBe(true);
    for (const url of urls) expect(url).not.toContain(apiKey);
    expect(pageErrors).toEqual([]);
  });
});
