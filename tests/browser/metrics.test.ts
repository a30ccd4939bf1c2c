// The metrics charts in Chromium: a share bar per process, a latency CDF per
// woken process, and wasted cores over time adding up to the engine's figure.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, loadPreset, openLab, settled, shots, type Lab } from './harness';
import { defined } from '../defined';

interface Report {
  wasted_core_ns: number;
  longest_wasted_idle: [number, number, number] | null;
  processes: { name: string }[];
}

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(async () => lab?.close());

describe('metrics charts', () => {
  it('draw the engine’s shares, latency distributions and wasted cores', async () => {
    await loadPreset(lab.page, 'group-imbalance-make');
    await hook(lab.page, 'runUntil', 1500e6);
    const report = await hook<Report>(lab.page, 'report');
    const cdfs = await hook<unknown[]>(lab.page, 'latencyCdfs', 40);
    const charts = lab.page.getByTestId('metrics-charts');
    expect(
      await settled(
        () => charts.getByTestId('share-bar').count(),
        (n) => n === Math.min(10, report.processes.length),
      ),
    ).toBe(Math.min(10, report.processes.length));
    const labels = await charts.getByTestId('share-bar').locator('text.chart-label').allTextContents();
    expect(labels[0]).toBe(report.processes[0].name.slice(0, 14));
    expect(cdfs.length).toBeGreaterThan(0);
    expect(await charts.getByTestId('latency-cdf').count()).toBe(cdfs.length);
    const total = Number(await charts.getByTestId('wasted-chart').getAttribute('data-total-ns'));
    expect(total).toBeGreaterThan(0.8 * report.wasted_core_ns);
    expect(total).toBeLessThanOrEqual(report.wasted_core_ns);
    // The headline strip names the longest stretch a CPU idled while work waited.
    const longest = report.longest_wasted_idle;
    expect(longest).not.toBeNull();
    expect(await lab.page.getByTestId('longest-wasted').textContent()).toBe(
      `${(defined(longest)[2] / 1e6).toFixed(3)} ms on CPU ${defined(longest)[0]}`,
    );
    await charts.scrollIntoViewIfNeeded();
    await lab.page.waitForTimeout(200);
    await charts.screenshot({ path: join(shots, 'metrics-charts.png') });
  });
});
