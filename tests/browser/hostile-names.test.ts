// Scenario text is rendered as text in every new view: a process named like
// markup shows up literally in the topology, the runqueue list, the metrics
// charts and the compare table, and no element is created from it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hook, openLab, settled, type Lab } from './harness';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(async () => lab?.close());

describe('hostile names', () => {
  it('stay text in the topology, the runqueue list, the charts and compare', async () => {
    const evil = '<img src=x onerror="window.__pwned=1">';
    const procs = [
      { name: evil, threads: 2, program: [{ body: [{ run_us: 2000 }, { sleep_us: 500 }] }] },
      ...Array.from({ length: 3 }, (_, i) => ({ name: `b${i}`, program: [{ body: [{ run_us: 1000 }] }] })),
    ];
    const ok = await hook<boolean>(
      lab.page,
      'loadScenarioJson',
      JSON.stringify({
        version: 1,
        name: `<b>${evil}</b>`,
        duration_ms: 200,
        machine: { preset: 'laptop-2c4t' },
        processes: procs,
      }),
    );
    expect(ok).toBe(true);
    await hook(lab.page, 'runUntil', 100e6);
    await lab.page.getByTestId('compare-pick').selectOption('bugs:linux-4.1-fixed');
    await lab.page.getByTestId('compare').waitFor();
    await lab.page.getByTestId('rq-mode-list').click();
    const titles = await lab.page.getByTestId('cpu-cell').locator('title').allTextContents();
    expect(titles.some((t) => t.includes(evil))).toBe(true);
    const shares = await settled(
      async () => (await lab.page.getByTestId('share-chart').textContent()) ?? '',
      (t) => t.includes(evil.slice(0, 13)),
    );
    expect(shares).toContain(evil.slice(0, 13));
    expect(await lab.page.getByTestId('compare-table').textContent()).toContain(`${evil}: CPU share`);
    expect(await lab.page.getByTestId('compare').textContent()).toContain(`<b>${evil}</b>`);
    expect(await lab.page.locator('img').count()).toBe(0);
    expect(await lab.page.locator('.app b b').count()).toBe(0);
    expect(await lab.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  });
});
