// While playing, what is scrolled out of view is neither drawn nor read
// (src/app/seen.tsx, src/stores/refresh.ts): at the top of the page the
// machine plays while the lanes and the heatmaps further down keep what they
// last drew; scrolled into view, they follow the run again; paused,
// everything shows the cursor whatever is in view.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hook, loadPreset, openLab, settled, type Lab } from './harness';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1280, height: 720 });
});
afterAll(async () => lab?.close());

interface Cursor {
  now_ns: number;
  events: number;
}

describe('parts of the page out of view', () => {
  it('are left as drawn while playing, follow the run once in view, and show the cursor when paused', async () => {
    const page = lab.page;
    await loadPreset(page, 'group-imbalance-make');
    await page.evaluate(() => window.scrollTo(0, 0));
    const part = (name: string) => page.locator(`[data-part=${name}]`);
    // The observer has told: the machine is in view, the lanes and the heatmaps below it are not.
    for (const [name, seen] of [
      ['topology', 'true'],
      ['lanes', 'false'],
      ['heatmaps', 'false'],
    ] as const) {
      expect(
        await settled(
          () => part(name).getAttribute('data-seen'),
          (v) => v === seen,
          10_000,
        ),
      ).toBe(seen);
    }
    const gantt = page.getByTestId('gantt');
    const laneEnd = async () => Number(await gantt.getAttribute('data-t1'));
    const marks = page.getByTestId('heatmap-marks');
    const migrationsMarked = async () => Number(await marks.getAttribute('data-migrations'));
    const [t1, marked] = [await laneEnd(), await migrationsMarked()];

    await page.getByTestId('btn-play').click();
    const start = await hook<Cursor>(page, 'cursor');
    // Far enough into the make for migrations to have happened since.
    await settled(
      () => hook<Cursor>(page, 'cursor'),
      (c) => c.now_ns > start.now_ns + 300e6,
      60_000,
    );
    // The machine followed the run; the parts out of view did not move.
    expect(await laneEnd()).toBe(t1);
    expect(await migrationsMarked()).toBe(marked);
    // Their canvases are not shown meanwhile (the compositor would take their pixels again at every frame).
    const laneCanvas = async () => gantt.evaluate((canvas) => getComputedStyle(canvas).visibility);
    expect(await laneCanvas()).toBe('hidden');

    // Scrolled into view, the lanes follow the run again while it plays.
    // Centred, not at the viewport's edge, where a panel above changing height while playing could push it out.
    await gantt.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    expect(
      await settled(
        () => part('lanes').getAttribute('data-seen'),
        (v) => v === 'true',
        10_000,
      ),
    ).toBe('true');
    expect(await settled(laneEnd, (t) => t > t1, 20_000)).toBeGreaterThan(t1);
    // The canvas is shown by the part's own render, which may come a frame after the drawing: wait for it.
    expect(await settled(laneCanvas, (v) => v === 'visible', 10_000)).toBe('visible');

    // Paused, every part shows the cursor, the heatmaps (still out of view) included.
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.getByTestId('btn-play').click();
    expect(await page.getByTestId('btn-play').textContent()).toBe('Play');
    const at = await hook<Cursor>(page, 'cursor');
    expect(await settled(laneEnd, (t) => t === at.now_ns, 20_000)).toBe(at.now_ns);
    expect(await settled(migrationsMarked, (m) => m > marked, 20_000)).toBeGreaterThan(marked);
  });
});
