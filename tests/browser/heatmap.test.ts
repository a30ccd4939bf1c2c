// The heatmaps in Chromium: one row per CPU in topology order, columns from
// the engine's bounded history, migrations and violations marked, and a
// click that jumps back to the clicked time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, loadPreset, openLab, settled, shots, type Lab } from './harness';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(async () => lab?.close());

/** Pixel colour of a canvas at CSS coordinates. */
async function pixel(testId: string, x: number, y: number): Promise<number[]> {
  return lab.page.getByTestId(testId).evaluate(
    (el, [px, py]) => {
      const c = el as HTMLCanvasElement;
      const r = c.width / c.getBoundingClientRect().width;
      return [...(c.getContext('2d')?.getImageData(Math.round(px * r), Math.round(py * r), 1, 1).data ?? [])];
    },
    [x, y] as const,
  );
}

describe('heatmaps', () => {
  it('shows 64 CPUs over time with migrations and violations marked', async () => {
    await loadPreset(lab.page, 'group-imbalance-make');
    await hook(lab.page, 'runUntil', 1500e6);
    const marks = lab.page.getByTestId('heatmap-marks');
    expect(
      Number(
        await settled(
          async () => (await marks.getAttribute('data-migrations')) ?? '0',
          (m) => Number(m) > 0,
        ),
      ),
    ).toBeGreaterThan(0);
    expect(Number(await marks.getAttribute('data-violations'))).toBeGreaterThan(0);
    const meta = (await lab.page.getByTestId('heatmaps').locator('.meta').first().textContent()) ?? '';
    expect(meta).toMatch(/^\d+ buckets of/);
    const buckets = Number(meta.split(' ')[0]);
    expect(buckets).toBeGreaterThan(500);
    expect(buckets).toBeLessThanOrEqual(2048);
    // Rows: 64 CPUs in the canvas height; a busy CPU early on is coloured.
    const box = await lab.page.getByTestId('heatmap-nr_running').boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(64 * 2);
    const early = await pixel('heatmap-nr_running', 52 + ((box?.width ?? 0) - 68) * 0.25, 2);
    expect(early.slice(0, 3)).not.toEqual([245, 247, 250]);
    await lab.page.getByTestId('heatmaps').screenshot({ path: join(shots, 'heatmaps-64cpu.png') });
  });

  it('jumps back in time on a click (the axis spans the whole run)', async () => {
    const before = (await hook<{ now_ns: number }>(lab.page, 'view')).now_ns;
    const box = await lab.page.getByTestId('heatmap-load').boundingBox();
    if (!box) throw new Error('no heatmap');
    // 20% along the 4 s run: 800 ms, before the cursor at 1.5 s.
    await lab.page.getByTestId('heatmap-load').click({ position: { x: 52 + (box.width - 68) * 0.2, y: 10 } });
    const after = await settled(
      async () => (await hook<{ now_ns: number }>(lab.page, 'view')).now_ns,
      (t) => t < before,
    );
    expect(after).toBeGreaterThan(750e6);
    expect(after).toBeLessThan(850e6);
  });

  it('draws a single CPU', async () => {
    await loadPreset(lab.page, 'cfs-nice-levels');
    await hook(lab.page, 'runUntil', 300e6);
    await settled(
      async () => (await lab.page.getByTestId('heatmaps').locator('.meta').first().textContent()) ?? '',
      (t) => /^\d{3}/.test(t),
    );
    await lab.page.getByTestId('heatmaps').screenshot({ path: join(shots, 'heatmaps-1cpu.png') });
    expect(await lab.page.getByTestId('heatmap-nr_running').isVisible()).toBe(true);
  });
});
