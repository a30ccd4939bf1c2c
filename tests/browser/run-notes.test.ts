// The report's notes in the lab (issue 19 item 9 on the page): a program
// whose loop takes no time is ended by the engine, and the page says so,
// under the metrics, in the engine's words; a run with nothing to note shows
// no notes box.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, loadPreset, openLab, settled, shots, type Lab } from './harness';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(async () => lab?.close());

const SCENARIO = JSON.stringify({
  version: 1,
  name: 'zero-time-loop',
  seed: 1,
  duration_ms: 50,
  machine: { nodes: 1, cores_per_node: 2, threads_per_core: 1 },
  processes: [
    // A finite loop validation lets through, but of 100,000 steps that take no time: the engine ends the thread.
    { name: 'spinner', program: [{ run_us: 100 }, { repeat: 100000, body: [{ run_us: 0 }] }, { run_us: 100 }] },
    { name: 'worker', program: [{ body: [{ run_us: 1000 }, { sleep_us: 1000 }] }] },
  ],
});

describe('run notes', () => {
  it('say what the run could not do, and are absent when there is nothing to say', async () => {
    const page = lab.page;
    expect(await hook<boolean>(page, 'loadScenarioJson', SCENARIO)).toBe(true);
    await settled(
      async () => (await page.locator('.description').textContent()) ?? '',
      (t) => t.includes('zero-time-loop'),
      20000,
    );
    await hook(page, 'runUntil', 50e6);
    const notes = page.getByTestId('run-note');
    const first = await settled(
      async () => ((await notes.count()) > 0 ? ((await notes.first().textContent()) ?? '') : ''),
      (t) => t.length > 0,
      10000,
    );
    expect(first).toContain('took no time');
    expect(first).toContain('spinner');
    await page.getByTestId('run-notes').screenshot({ path: join(shots, 'run-notes.png') });

    await loadPreset(page, 'cfs-nice-levels');
    await hook(page, 'runUntil', 100e6);
    await settled(
      () => page.getByTestId('run-notes').count(),
      (n) => n === 0,
      10000,
    );
  });
});
