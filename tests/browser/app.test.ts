// The built app in real Chromium (Debian's, driven by playwright-core): it
// opens on the preset, steps, draws as many tree nodes as the engine reports,
// shows errors naming the field, and renders hostile names as text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { preview, type PreviewServer } from 'vite';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

const root = join(import.meta.dirname, '..', '..');
const shots = join(root, 'test-results');
let server: PreviewServer;
let browser: BrowserContext;
let page: Page;

/** The app's test hook: every method answers once the engine worker has. */
interface Hook {
  view(): Promise<{ now_ns: number; events: number; cpus: { tree: { nodes: unknown[] } }[] } | null>;
  loadScenarioJson(json: string): Promise<boolean>;
  runUntil(ns: number): Promise<void>;
}

/** Polls an async value until it satisfies `ok` (React renders after the click resolves). */
async function settled<T>(read: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 3000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let v = await read();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 25));
    v = await read();
  }
  return v;
}

const text = (testId: string) => async () => (await page.getByTestId(testId).textContent()) ?? '';

async function engineTreeSize(): Promise<number> {
  return page.evaluate(async () => {
    const hook = (window as unknown as { __schedlab: Hook }).__schedlab;
    return (await hook.view())?.cpus[0].tree.nodes.length ?? -1;
  });
}

beforeAll(async () => {
  mkdirSync(shots, { recursive: true });
  server = await preview({ root, preview: { port: 0, host: '127.0.0.1' }, logLevel: 'error' });
  const address = server.httpServer.address();
  if (address === null || typeof address === 'string') throw new Error('no preview address');
  // A fresh profile directory per run (launchPersistentContext owns --user-data-dir).
  browser = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'schedlab-chromium-')), {
    executablePath: '/usr/bin/chromium',
    viewport: { width: 1280, height: 900 },
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
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  await page.goto(`http://127.0.0.1:${address.port}/`);
  await page.getByTestId('btn-step').waitFor();
});

afterAll(async () => {
  await browser?.close();
  await new Promise<void>((resolve) => server?.httpServer.close(() => resolve()));
});

describe('the lab in Chromium', () => {
  it('opens on the preset and steps through events and ticks', async () => {
    expect(await page.locator('.description').textContent()).toContain('cfs-nice-levels');
    for (let i = 0; i < 6; i++) await page.getByTestId('btn-step').click();
    for (let i = 0; i < 3; i++) await page.getByTestId('btn-tick').click();
    const t = Number(await page.getByTestId('sim-time').textContent());
    expect(t).toBeGreaterThan(0);
  });

  it('draws exactly as many tree nodes as the engine reports', async () => {
    for (let i = 0; i < 25; i++) {
      await page.getByTestId('btn-step').click();
      const engine = await engineTreeSize();
      const drawn = await settled(
        () => page.getByTestId('rb-node').count(),
        (n) => n === engine,
      );
      expect(drawn).toBe(engine);
      expect(await settled(text('nr-in-tree'), (t) => t === String(engine))).toBe(String(engine));
    }
    expect(await engineTreeSize()).toBeGreaterThan(0);
    // Every drawn node is red or black.
    const colours = await page
      .getByTestId('rb-node')
      .evaluateAll((els) => els.map((e) => e.getAttribute('data-color')));
    expect(colours.every((c) => c === 'red' || c === 'black')).toBe(true);
    await page.waitForTimeout(400); // let the move transition settle before the picture
    await page.screenshot({ path: join(shots, 'app.png'), fullPage: true });
  });

  it('labels the CPU lanes with a legend of the tasks that ran', async () => {
    const legend = (await page.getByTestId('gantt-legend').textContent()) ?? '';
    for (const name of ['hog-nice0', 'hog-nice5', 'hog-nice10']) expect(legend).toContain(name);
    const box = await page.getByTestId('gantt').boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(1000); // fills the panel at 1280 px
  });

  it('steps from the keyboard: → one event, t one tick', async () => {
    const events = () =>
      page.evaluate(async () => (await (window as unknown as { __schedlab: Hook }).__schedlab.view())?.events ?? -1);
    const before = await events();
    await page.locator('body').press('ArrowRight');
    expect(await settled(events, (n) => n === before + 1)).toBe(before + 1);
    const t0 = Number(await page.getByTestId('sim-time').textContent());
    await page.locator('body').press('t');
    expect(Number(await settled(text('sim-time'), (t) => Number(t) > t0))).toBeGreaterThan(t0);
  });

  it('plays and pauses', async () => {
    const before = Number(await page.getByTestId('sim-time').textContent());
    await page.getByTestId('btn-play').click();
    await page.waitForTimeout(500);
    await page.getByTestId('btn-play').click();
    const after = Number(await page.getByTestId('sim-time').textContent());
    expect(after).toBeGreaterThan(before);
  });

  it('names the bad field of a malformed scenario and keeps running', async () => {
    const ok = await page.evaluate(() => {
      const hook = (window as unknown as { __schedlab: Hook }).__schedlab;
      return hook.loadScenarioJson(
        JSON.stringify({
          version: 1,
          name: 'bad',
          duration_ms: 100,
          machine: { preset: 'uniprocessor' },
          processes: [{ name: 'a', nice: 99, program: [{ run_us: 10 }] }],
        }),
      );
    });
    expect(ok).toBe(false);
    expect(await settled(text('error'), (t) => t.includes('nice'))).toContain('processes[0].nice');
    expect(await page.getByTestId('btn-step').isEnabled()).toBe(true);
    await page.screenshot({ path: join(shots, 'app-error.png') });
  });

  it('shows the 64-CPU Group Imbalance preset: group runqueues and an explained balancing decision', async () => {
    await page.locator('[data-testid=preset-pick]').selectOption('group-imbalance-make');
    await settled(
      async () => (await page.locator('.description').textContent()) ?? '',
      (t) => t.includes('group-imbalance-make'),
    );
    await page.evaluate(() => (window as unknown as { __schedlab: Hook }).__schedlab.runUntil(300e6));
    const explanation = await settled(text('explanation'), (t) => t.startsWith('CPU'));
    expect(explanation).toMatch(/^CPU \d+ balancing at (SMT|MC|NUMA)/);
    expect(await page.getByTestId('group-rq').count()).toBeGreaterThan(0);
    expect(await page.locator('.lb-groups tbody tr').count()).toBeGreaterThan(1);
    const wasted = Number((await page.getByTestId('wasted').textContent())?.replace(' ms', ''));
    expect(wasted).toBeGreaterThan(0);
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(shots, 'app-group-imbalance.png'), fullPage: true });
  });

  it('renders hostile task names as text', async () => {
    const evil = '<img src=x onerror="window.__pwned=1">';
    const ok = await page.evaluate((name) => {
      const hook = (window as unknown as { __schedlab: Hook }).__schedlab;
      return hook.loadScenarioJson(
        JSON.stringify({
          version: 1,
          name: 'evil',
          duration_ms: 100,
          machine: { preset: 'uniprocessor' },
          processes: [
            { name, program: [{ body: [{ run_us: 1000 }] }] },
            { name: 'b', program: [{ body: [{ run_us: 1000 }] }] },
          ],
        }),
      );
    }, evil);
    expect(ok).toBe(true);
    for (let i = 0; i < 8; i++) await page.getByTestId('btn-step').click();
    const table = await settled(
      async () => (await page.locator('table.tasks').textContent()) ?? '',
      (t) => t.includes(evil),
    );
    expect(table).toContain(evil);
    expect(await page.getByTestId('gantt-legend').textContent()).toContain(evil);
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });
});
