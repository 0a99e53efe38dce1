/// <reference lib="dom" />
// Headless Chromium for the inspector's tests: Debian's `chromium` (or MNEMO_TEST_CHROMIUM) driven by
// playwright-core, which downloads nothing; every page records what went wrong and what it sent to /rpc.
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM = process.env.MNEMO_TEST_CHROMIUM ?? '/usr/bin/chromium';
export const chromiumFound = existsSync(CHROMIUM);

/** Where the screenshots go (git-ignored; CI keeps them as artifacts). */
export const ARTIFACTS = fileURLToPath(new URL('../../test-artifacts/inspector/', import.meta.url));

/** As root, in a closed network: no sandbox, no GPU, and no calls home at start. */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A fresh profile (an empty --user-data-dir) each time. */
export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), 'mnemo-chromium-'));
  mkdirSync(ARTIFACTS, { recursive: true });
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 },
    locale: 'en-US',
    timezoneId: 'UTC',
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface RpcCall {
  method: string;
  params: Record<string, unknown>;
}

export interface WatchedPage {
  page: Page;
  /** Console errors, uncaught exceptions, failed requests and answers of 400 or more. */
  problems: string[];
  calls: RpcCall[];
}

export async function watchedPage(context: BrowserContext, calls: RpcCall[] = []): Promise<WatchedPage> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`exception: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
  page.on('response', (response) => {
    if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
  });
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/rpc') calls.push(request.postDataJSON() as RpcCall);
  });
  return { page, problems, calls };
}

/** Waits until the view has rendered and every panel in it has loaded. */
export async function ready(page: Page, view: string): Promise<void> {
  await page.waitForSelector(`main[data-ready][data-view="${view}"]`);
  await page.waitForFunction(() => document.querySelector('.loading') === null);
}

/** Forgets that the current view was ready, then runs `act` (which must render the view again). */
export async function rerender(page: Page, view: string, act: () => Promise<unknown>): Promise<void> {
  await page.evaluate(() => document.getElementById('view')?.removeAttribute('data-ready'));
  await act();
  await ready(page, view);
}

/** Shows a view (`#/view?query`, not the one shown: that would not render again) and waits for it. */
export async function show(page: Page, view: string, query = ''): Promise<void> {
  await rerender(page, view, () =>
    page.evaluate((hash) => {
      if (location.hash === hash) throw new Error(`${hash} is shown already`);
      location.hash = hash;
    }, `#/${view}${query}`),
  );
}

/** The whole page, from the top (so that the sticky header sits at the top). */
export async function screenshot(page: Page, name: string): Promise<void> {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}
