// Compare mode in Chromium: the Group Imbalance run beside the same scenario
// with the bugs fixed, on one clock (forward and after stepping back), with
// the metric deltas computed from both engines' reports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, loadPreset, openLab, settled, shots, type Lab } from './harness';

interface Report {
  wasted_core_ns: number;
  migrations: number;
}
interface Partner {
  nowNs: number;
  traceHash: string;
  report: Report;
}

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(async () => lab?.close());

const fmt = (ns: number) => `${(ns / 1e6).toFixed(3)} ms`;

describe('compare mode', () => {
  it('runs buggy and fixed side by side on one clock with metric deltas', async () => {
    await loadPreset(lab.page, 'group-imbalance-make');
    await lab.page.getByTestId('compare-pick').selectOption('bugs:linux-4.1-fixed');
    await lab.page.getByTestId('compare').waitFor();
    await hook(lab.page, 'runUntil', 1500e6);
    const p = await hook<Partner>(lab.page, 'partner');
    expect(p.nowNs).toBe(1500e6);
    const a = await hook<Report>(lab.page, 'report');
    // The fixed kernel wastes less core time on this workload.
    expect(p.report.wasted_core_ns).toBeLessThan(a.wasted_core_ns);
    const row = lab.page.getByTestId('compare-row').first();
    const cells = await settled(
      async () => row.locator('td').allTextContents(),
      (c) => c[1] === fmt(a.wasted_core_ns),
    );
    expect(cells.slice(0, 3)).toEqual(['wasted core time', fmt(a.wasted_core_ns), fmt(p.report.wasted_core_ns)]);
    expect(cells[3]).toMatch(/^−/);
    expect(await lab.page.getByTestId('compare-b').locator('canvas[data-testid=heatmap-nr_running]').count()).toBe(1);
    await lab.page.getByTestId('compare').screenshot({ path: join(shots, 'compare.png') });

    // One clock backwards too: a step back rewinds the partner to the same time, exactly.
    // A tick always moves the clock on, so the wait below only ends once the
    // step back has really rewound the partner.
    const before = await hook<Partner>(lab.page, 'partner');
    await lab.page.getByTestId('btn-tick').click();
    const forward = await settled(
      () => hook<Partner>(lab.page, 'partner'),
      (x) => x.nowNs > before.nowNs,
    );
    expect(forward.nowNs).toBeGreaterThan(before.nowNs);
    // Several events can share an instant (a tick and the balancing it starts), so a step back
    // is seen in the event count, not always in the clock.
    const ahead = await hook<{ now_ns: number; events: number }>(lab.page, 'view');
    await lab.page.getByTestId('btn-back-event').click();
    const view = await settled(
      () => hook<{ now_ns: number; events: number }>(lab.page, 'view'),
      (v) => v.events < ahead.events,
    );
    expect(view.events).toBe(ahead.events - 1);
    const back = await settled(
      () => hook<Partner>(lab.page, 'partner'),
      (x) => x.nowNs === view.now_ns,
    );
    expect(back.nowNs).toBeLessThanOrEqual(forward.nowNs);
    expect(back.nowNs).toBe(view.now_ns);
    await hook(lab.page, 'seekTime', 1500e6);
    expect((await hook<Partner>(lab.page, 'partner')).traceHash).toBe(p.traceHash);
  });
});
