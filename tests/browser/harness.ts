// Shared set-up of the browser tests: `vite preview` of the built app through
// Vite's API on a free port, and Debian's Chromium through playwright-core
// with a fresh profile. Each test file opens its own lab.
//
// The preview server reads vite.config.ts, so every response carries the
// Content-Security-Policy header users get (src/csp.ts, the one definition),
// and the built page its meta tag: the tests run under the policy users do.
// A page that meets a violation of it fails its test file when the lab
// closes: something the app needs was refused, however quietly.
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { preview, type PreviewServer } from 'vite';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const root = join(import.meta.dirname, '..', '..');
export const shots = join(root, 'test-results');

export interface Lab {
  page: Page;
  url: string;
  /** The Content-Security-Policy violations the lab's pages have met so far (directive and what was refused). */
  cspViolations(): string[];
  /** Stops the static server only (the browser stays): nothing is served any more. */
  stopServer(): Promise<void>;
  close(): Promise<void>;
}

export async function openLab(viewport = { width: 1280, height: 900 }): Promise<Lab> {
  mkdirSync(shots, { recursive: true });
  const server: PreviewServer = await preview({ root, preview: { port: 0, host: '127.0.0.1' }, logLevel: 'error' });
  const address = server.httpServer.address();
  if (address === null || typeof address === 'string') throw new Error('no preview address');
  const browser: BrowserContext = await chromium.launchPersistentContext(
    mkdtempSync(join(tmpdir(), 'schedlab-chromium-')),
    {
      executablePath: '/usr/bin/chromium',
      viewport,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  );
  const violations: string[] = [];
  await browser.exposeBinding('__schedlabCspViolation', (_source, v: string) => void violations.push(v));
  await browser.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) => {
      const report = (window as unknown as { __schedlabCspViolation: (v: string) => void }).__schedlabCspViolation;
      report(`${e.effectiveDirective} refused ${e.blockedURI || 'inline'} (${e.sourceFile}:${e.lineNumber})`);
    });
  });
  const page = browser.pages()[0] ?? (await browser.newPage());
  const url = `http://127.0.0.1:${address.port}/`;
  await page.goto(url);
  await page.getByTestId('btn-step').waitFor();
  let serving = true;
  const stopServer = async () => {
    if (!serving) return;
    serving = false;
    // Keep-alive connections would hold the server open (and keep serving).
    (server.httpServer as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    await new Promise<void>((resolve) => server.httpServer.close(() => resolve()));
  };
  return {
    page,
    url,
    cspViolations: () => [...violations],
    stopServer,
    close: async () => {
      await browser.close();
      await stopServer();
      if (violations.length > 0) throw new Error(`Content-Security-Policy violations:\n${violations.join('\n')}`);
    },
  };
}

/** Polls an async value until it satisfies `ok` (React renders after the action resolves). */
export async function settled<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 3000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let v = await read();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 25));
    v = await read();
  }
  return v;
}

/** Calls a method of the app's documented test hook (`window.__schedlab`). */
export function hook<T>(page: Page, method: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(
    ([m, a]) => {
      const h = (window as unknown as { __schedlab: Record<string, (...x: unknown[]) => unknown> }).__schedlab;
      return h[m](...a) as T;
    },
    [method, args] as const,
  );
}

export async function loadPreset(page: Page, name: string): Promise<void> {
  await page.locator('[data-testid=preset-pick]').selectOption(name);
  await settled(
    async () => (await page.locator('.description').textContent()) ?? '',
    (t) => t.includes(name),
  );
}
