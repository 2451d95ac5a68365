// Starts what the browser test needs: a production build of the page served by `vite preview`, the
// emulator allowing that page's origin (CORS), and Debian's Chromium driven by playwright-core.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Emulator, seed, startEmulator } from '@dataworkz/emulator';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { build, type PreviewServer, preview } from 'vite';

export const appRoot = fileURLToPath(new URL('..', import.meta.url));
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Harness {
  pageUrl: string;
  /** The chat page, whose /api/chat route the preview server answers with the emulator's agents. */
  chatUrl: string;
  emulator: Emulator;
  browser: BrowserContext;
  close(): Promise<void>;
}

export async function startHarness(): Promise<Harness> {
  const workDir = mkdtempSync(join(tmpdir(), 'dataworkz-browser-'));
  const outDir = join(workDir, 'dist');
  let server: PreviewServer | undefined;
  let emulator: Emulator | undefined;
  let browser: BrowserContext | undefined;
  const close = async () => {
    await browser?.close();
    await emulator?.close();
    await server?.close();
    rmSync(workDir, { recursive: true, force: true });
  };
  try {
    await build({ root: appRoot, logLevel: 'error', build: { outDir, emptyOutDir: true } });
    server = await preview({
      root: appRoot,
      logLevel: 'error',
      build: { outDir },
      preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
    });
    const pageUrl = server.resolvedUrls?.local[0];
    if (!pageUrl) throw new Error('vite preview reported no local address');
    emulator = await startEmulator({
      port: 0,
      host: '127.0.0.1',
      cors: { origins: [new URL(pageUrl).origin] },
      agentStepDelayMs: 150,
    });
    // The chat route runs in this process (a plugin of the preview server) and reads the deployment
    // from the environment on its first request.
    process.env.DATAWORKZ_BASE_URL = emulator.url;
    process.env.DATAWORKZ_API_KEY = emulator.apiKey;
    process.env.DATAWORKZ_AGENT_ID = seed.agents.orderStatus.agentId;
    // A persistent context on a fresh folder: a clean --user-data-dir for every run.
    browser = await chromium.launchPersistentContext(join(workDir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_FLAGS,
      viewport: { width: 1100, height: 1300 },
    });
    return { pageUrl, chatUrl: new URL('chat.html', pageUrl).href, emulator, browser, close };
  } catch (error) {
    await close();
    throw error;
  }
}

/** A new page of the harness's browser, and the errors it reports (uncaught, or logged as errors). */
export async function openPage(harness: Harness): Promise<{ page: Page; errors: string[] }> {
  const page = await harness.browser.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { page, errors };
}
