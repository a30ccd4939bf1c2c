// Your own scheduler in the page (issue 18, items 2 and 3): the starter
// policies run the 64-CPU Group Imbalance preset in Chromium's engine worker
// with the trace hash `schedsim run` gives natively; a policy whose loop never
// ends stops the run at the step limit while the page stays responsive; a policy
// that starves a task trips the watchdog, and the page says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hook, openLab, root, settled, shots, type Lab } from './harness';
import { nativeReport } from './policy-link';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1280, height: 720 });
});
afterAll(async () => lab?.close());

declare global {
  interface Window {
    __longTasks?: number[];
  }
}

const preset = readFileSync(join(root, 'wasm-core', 'presets', 'group-imbalance-make.json'), 'utf8');
const starter = (name: string) => readFileSync(join(root, 'wasm-core', 'policies', `${name}.js`), 'utf8');

function scenario(name: string, source: string, ms: number, extra: Record<string, unknown> = {}): string {
  const s = JSON.parse(preset) as Record<string, unknown>;
  s.name = name;
  s.policy = { kind: 'ext', source, ...extra };
  s.duration_ms = ms;
  return JSON.stringify(s);
}

const nativeHash = (json: string) => nativeReport(json).trace_hash;

async function load(json: string, name: string): Promise<void> {
  const page = lab.page;
  expect(await hook<boolean>(page, 'loadScenarioJson', json)).toBe(true);
  await settled(
    async () => (await page.locator('.description').textContent()) ?? '',
    (t) => t.includes(name),
    20000,
  );
}

async function notes(): Promise<string> {
  const list = lab.page.getByTestId('run-note');
  return settled(
    async () => ((await list.count()) > 0 ? (await list.allTextContents()).join('\n') : ''),
    (t) => t.length > 0,
    20000,
  );
}

describe('sched_ext policies in the page', () => {
  it('runs every starter on the 64-CPU Group Imbalance machine with the native trace hash', async () => {
    for (const name of ['global-fifo', 'percpu-rr', 'weighted-vtime', 'keep-busy-skeleton']) {
      const json = scenario(`ext-${name}`, starter(name), 200);
      await load(json, `ext-${name}`);
      await hook(lab.page, 'runUntil', 200e6);
      expect(await hook<string>(lab.page, 'traceHash'), name).toBe(nativeHash(json));
      expect(await lab.page.getByTestId('run-note').count(), name).toBe(0);
    }
    await lab.page.screenshot({ path: join(shots, 'sched-ext-starter.png') });
  });

  it('stops a loop that never ends at the step limit, and the page stays responsive', async () => {
    const page = lab.page;
    const src = 'function dispatch(cpu, prev) {\n  if (scx.now() > 5000000) {\n    while (true) {}\n  }\n}\n';
    await load(scenario('ext-endless', src, 1000), 'ext-endless');
    await page.evaluate(() => {
      window.__longTasks = [];
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longTasks?.push(e.duration);
      }).observe({ type: 'longtask' });
    });
    await page.getByTestId('btn-play').click();
    const text = await notes();
    expect(text).toMatch(/dispatch: the policy went past 2000000 steps in one callback/);
    // Stopped: Play is off again. Responsive: the page draws its next frame at once, and no main-thread task
    // took long.
    await settled(
      async () => (await page.getByTestId('btn-play').textContent()) ?? '',
      (t) => t === 'Play',
      10000,
    );
    const t0 = Date.now();
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
    expect(Date.now() - t0).toBeLessThan(2000);
    const longest = await page.evaluate(() => Math.max(0, ...(window.__longTasks ?? [])));
    console.log(`endless loop: longest main-thread task ${longest.toFixed(0)} ms`);
    expect(longest).toBeLessThan(200);
    await page.getByTestId('run-notes').screenshot({ path: join(shots, 'sched-ext-endless.png') });
  });

  it('trips the watchdog on a starved task and says why', async () => {
    const src =
      'function init() { scx.create_dsq(7); }\n' +
      'function enqueue(p, f) { scx.dsq_insert(p, p.pid === 2 ? 7 : scx.DSQ_GLOBAL, scx.SLICE_DFL, f); }\n';
    await load(scenario('ext-starve', src, 300, { watchdog_ms: 100 }), 'ext-starve');
    await hook(lab.page, 'runUntil', 300e6);
    expect(await notes()).toMatch(/watchdog: runnable task R2 \(pid 2\) was not run for \d+ ms.*fair class/);
    await lab.page.getByTestId('run-notes').screenshot({ path: join(shots, 'sched-ext-watchdog.png') });
  });
});
