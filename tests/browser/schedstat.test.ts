// The schedstat panel: the selected CPU's 4.1 counters per domain and idle
// type, the same numbers the engine's report carries (and `schedsim run
// --schedstat` prints), following the CPU picked in the machine view.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, loadPreset, openLab, settled, shots, type Lab } from './harness';
import { defined } from '../defined';

interface Report {
  schedstat: {
    cpu: number;
    domains: { level: string; counters: { lb: { lb_count: number; lb_failed: number }[]; alb_pushed: number } }[];
  }[];
}

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(async () => lab?.close());

describe('schedstat panel', () => {
  it('shows the picked CPU counters per domain, as the engine reports them', async () => {
    const p = lab.page;
    await loadPreset(p, 'group-imbalance-lu');
    await hook(p, 'runUntil', 1e9);
    const panel = p.getByTestId('schedstat');
    await panel.waitFor();
    const report = await hook<Report>(p, 'report');
    // CPU 0 is shown first: one row per domain and idle type, the passes column as the engine counted them.
    const cpu0 = defined(report.schedstat.find((c) => c.cpu === 0));
    const rows = panel.getByTestId('schedstat-row');
    expect(await rows.count()).toBe(cpu0.domains.length * 3);
    const cells = async (i: number) => (await rows.nth(i).locator('td').allTextContents()).slice(2).map(Number);
    for (const [di, d] of cpu0.domains.entries()) {
      for (let k = 0; k < 3; k++) {
        const c = await cells(di * 3 + k);
        expect(c[0]).toBe(d.counters.lb[k].lb_count);
        expect(c[2]).toBe(d.counters.lb[k].lb_failed);
      }
    }
    expect(await panel.locator('h2').textContent()).toContain('CPU 0');
    // Picking another CPU shows its counters.
    await p.getByTestId('topology').locator('[data-testid=cpu-cell][data-cpu="11"]').click();
    await settled(
      async () => (await panel.locator('h2').textContent()) ?? '',
      (x) => x.includes('CPU 11'),
    );
    const pushed = report.schedstat.flatMap((c) => c.domains).reduce((n, d) => n + d.counters.alb_pushed, 0);
    expect(pushed).toBeGreaterThan(0);
    await panel.screenshot({ path: join(shots, 'schedstat-panel.png') });
  });
});
