// EDF against fixed priorities in Chromium: the runqueue panel draws the
// class each preset's tasks are in (the real-time array for the rate-monotonic
// FIFO pair, the deadline tree for the SCHED_DEADLINE pair, neither for a fair
// run), the lanes mark each missed deadline where the hand-work puts it (t9's,
// due at 9 + 18k ms) with a legend entry and, for the mark pointed at, words
// saying what it is, and
// the lesson walks through both presets. Screenshots at 1280×720 and at the
// default size (1280×900), and one step on the presentation stage.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { hook, openLab, root, settled, shots, type Lab } from './harness';
import { axeViolations } from './axe';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1280, height: 720 });
  // A step scrolls its panel into view at once (no smooth scroll under way when a screenshot is taken).
  await lab.page.emulateMedia({ reducedMotion: 'reduce' });
});
afterAll(async () => lab?.close());

const preset = (name: string) => readFileSync(join(root, 'wasm-core', 'presets', `${name}.json`), 'utf8');
const text = async (page: Page, id: string) => (await page.getByTestId(id).first().textContent()) ?? '';
const misses = async (page: Page) => Number(await page.getByTestId('gantt').getAttribute('data-misses'));

/** The lanes' window, in ms. */
async function lanesSpan(page: Page): Promise<number> {
  const g = page.getByTestId('gantt');
  return (Number(await g.getAttribute('data-t1')) - Number(await g.getAttribute('data-t0'))) / 1e6;
}

/** Where a time and a CPU's lane are on the lanes' canvas (page px), as canvas.ts lays them out. */
async function lanePoint(page: Page, tNs: number, cpu: number): Promise<{ x: number; y: number }> {
  const g = page.getByTestId('gantt');
  const box = await g.boundingBox();
  if (!box) throw new Error('no lanes');
  const [t0, t1] = [Number(await g.getAttribute('data-t0')), Number(await g.getAttribute('data-t1'))];
  // LABEL_W_PX on the left, 20 px on the right; one CPU's lane is 26 px tall, 2 px from the top.
  const x = box.x + 48 + ((tNs - t0) / (t1 - t0)) * (box.width - 68);
  return { x, y: box.y + 2 + cpu * 26 + 13 };
}

describe('EDF against fixed priorities', () => {
  it('draws each class in the runqueue panel for the presets that have its tasks', async () => {
    const { page } = lab;
    expect(await hook<boolean>(page, 'loadScenarioJson', preset('edf-vs-fixed-priorities-rm'))).toBe(true);
    await hook(page, 'runUntil', 1e6);
    await page.getByTestId('rt-runqueue').waitFor();
    const levels = await settled(
      () => page.getByTestId('rt-level').allTextContents(),
      (l) => l.length === 2,
      10000,
    );
    // Rate-monotonic: t6 (6 ms) at rt_priority 20 = prio 79 runs; t9 (9 ms) at 10 = prio 89 waits.
    expect(levels[0]).toMatch(/prio 79 \(rt_priority 20\).*t6 FIFO · running/);
    expect(levels[1]).toMatch(/prio 89 \(rt_priority 10\).*t9 FIFO/);
    expect(await page.getByTestId('dl-runqueue').count()).toBe(0);

    expect(await hook<boolean>(page, 'loadScenarioJson', preset('edf-vs-fixed-priorities'))).toBe(true);
    await hook(page, 'runUntil', 6.5e6);
    await page.getByTestId('dl-runqueue').waitFor();
    const rows = await settled(
      () => page.getByTestId('dl-task').allTextContents(),
      (r) => r.length === 2,
      10000,
    );
    // EDF at 6.5 ms: t9 (due at 9) runs, 1 ms of its 4 left when the 6 ms tick charged it; t6's new job is due at 12.
    expect(rows[0]).toMatch(/^t9\s*2\.500 ms\s*1\.000 \/ 4\.000 ms\s*9\.000 ms\s*running\s*0$/);
    expect(rows[1]).toMatch(/^t6\s*5\.500 ms\s*3\.000 \/ 3\.000 ms\s*6\.000 ms\s*queued\s*0$/);
    expect(await page.getByTestId('dl-node').count()).toBe(2);
    expect(await page.getByTestId('rt-runqueue').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByTestId('dl-runqueue').screenshot({ path: join(shots, 'edf-dl-runqueue.png') });

    // A fair run has neither class's panel.
    expect(await hook<boolean>(page, 'loadScenarioJson', preset('cfs-nice-levels'))).toBe(true);
    await hook(page, 'runUntil', 5e6);
    await settled(
      () => page.locator('.rbtree-panel').count(),
      (n) => n > 0,
      10000,
    );
    expect(await page.getByTestId('dl-runqueue').count()).toBe(0);
    expect(await page.getByTestId('rt-runqueue').count()).toBe(0);
  });

  it('marks each missed deadline on its lane, with a legend entry and words for the one pointed at', async () => {
    const { page } = lab;
    expect(await hook<boolean>(page, 'loadScenarioJson', preset('edf-vs-fixed-priorities-rm'))).toBe(true);
    await hook(page, 'runUntil', 200e6);
    // 200 ms: t9 missed at 9 + 18k for k = 0..10 (the last seen at 190 ms).
    expect(
      await settled(
        () => misses(page),
        (n) => n === 11,
        10000,
      ),
    ).toBe(11);
    expect(await text(page, 'gantt-miss-legend')).toBe('▼missed deadline (11 in view)');
    expect(await page.getByTestId('gantt').getAttribute('aria-label')).toContain(
      '11 missed deadlines in the window: t9 at 9.000 ms on CPU 0, t9 at 27.000 ms on CPU 0',
    );
    // Zoomed in to 25 ms ending at the cursor (4× in, then a rewind to 25 ms): one miss, at 9 ms.
    for (let i = 0; i < 3; i++) await page.getByTestId('gantt-zoom-in').click();
    expect(
      await settled(
        () => lanesSpan(page),
        (s) => s === 25,
      ),
    ).toBe(25);
    await hook(page, 'seekTime', 25e6);
    expect(
      await settled(
        () => misses(page),
        (n) => n === 1,
        10000,
      ),
    ).toBe(1);
    const at = await lanePoint(page, 9e6, 0);
    await page.mouse.move(at.x, at.y);
    const tip = page.getByTestId('gantt-miss-tip');
    await tip.waitFor();
    expect(await tip.textContent()).toBe(
      '▼t9 missed its deadline of 9.000 ms on CPU 0: the job ended at 10.000 ms, 1.000 ms late, after its next period had begun (a timer overrun).',
    );
    await page.getByTestId('lanes').screenshot({ path: join(shots, 'edf-lanes-miss-tip.png') });
    // Away from the mark, no words.
    const off = await lanePoint(page, 20e6, 0);
    await page.mouse.move(off.x, off.y);
    await settled(
      () => tip.count(),
      (n) => n === 0,
    );
    expect(await tip.count()).toBe(0);
    // In Chinese the words say the same (the header's words may move the lanes: find the mark again).
    await page.getByTestId('lang-pick').selectOption('zh');
    await settled(
      () => text(page, 'gantt-miss-legend'),
      (s) => s.includes('错过'),
    );
    const atZh = await lanePoint(page, 9e6, 0);
    await page.mouse.move(atZh.x, atZh.y);
    await tip.waitFor();
    expect(await tip.textContent()).toContain('t9 在 CPU 0 上错过了 9.000 ms 的截止期');
    expect(await text(page, 'gantt-miss-legend')).toBe('▼错过的截止期（视图中 1 个）');
    await page.getByTestId('lanes').screenshot({ path: join(shots, 'edf-lanes-miss-tip-zh.png') });
    await page.getByTestId('lang-pick').selectOption('en');
    await page.mouse.move(0, 0);

    // Under SCHED_DEADLINE the same set leaves no mark.
    expect(await hook<boolean>(page, 'loadScenarioJson', preset('edf-vs-fixed-priorities'))).toBe(true);
    await hook(page, 'runUntil', 200e6);
    await settled(
      async () => Number(await page.getByTestId('gantt').getAttribute('data-slices')),
      (n) => n > 20,
      10000,
    );
    expect(await misses(page)).toBe(0);
    expect(await page.getByTestId('gantt-miss-legend').count()).toBe(0);
  });

  it('walks the lesson: the FIFO pair misses, the deadline pair does not', async () => {
    const { page } = lab;
    const simMs = async () => Number(await text(page, 'sim-time'));
    const panel = () => page.locator('.app').getAttribute('data-lesson-panel');
    await page.getByTestId('lesson-pick').selectOption('edf-vs-fixed');
    await settled(
      () => text(page, 'lesson-step'),
      (s) => s === 'Step 1 of 7',
      20000,
    );
    expect(await settled(simMs, (t) => t === 1, 20000)).toBe(1);
    expect(await settled(panel, (p) => p === 'rt-runqueue', 10000)).toBe('rt-runqueue');
    expect(
      await settled(
        () => lanesSpan(page),
        (s) => s === 20,
        10000,
      ),
    ).toBe(20);
    expect(await page.getByTestId('rt-level').count()).toBe(2);
    await page.screenshot({ path: join(shots, 'edf-lesson-1-1280x720.png') });
    const next = async (n: number, ms: number, pointed: string) => {
      await page.getByTestId('lesson-next').click();
      await settled(
        () => text(page, 'lesson-step'),
        (s) => s.startsWith(`Step ${n} `),
      );
      expect(await settled(simMs, (t) => t === ms, 20000)).toBe(ms);
      expect(await settled(panel, (p) => p === pointed, 10000)).toBe(pointed);
    };
    // Step 2: t6's second job preempted t9, which waits with 1 ms owed.
    await next(2, 7, 'rt-runqueue');
    const levels = await page.getByTestId('rt-level').allTextContents();
    expect(levels[0]).toMatch(/t6 FIFO · running/);
    expect(levels[1]).toMatch(/t9 FIFO/);
    // Step 3: the first miss, marked at 9 ms.
    await next(3, 12, 'lanes');
    expect(
      await settled(
        () => misses(page),
        (n) => n === 1,
        10000,
      ),
    ).toBe(1);
    await page.screenshot({ path: join(shots, 'edf-lesson-3-miss-1280x720.png') });
    // Step 4: 40 ms, two misses (9 and 27 ms).
    await next(4, 40, 'lanes');
    expect(
      await settled(
        () => lanesSpan(page),
        (s) => s === 40,
        10000,
      ),
    ).toBe(40);
    expect(
      await settled(
        () => misses(page),
        (n) => n === 2,
        10000,
      ),
    ).toBe(2);
    await page.screenshot({ path: join(shots, 'edf-lesson-4-bound-1280x720.png') });
    // Step 5: the deadline preset; EDF keeps t9 (due at 9) ahead of t6's new job (due at 12).
    await next(5, 6.5, 'dl-runqueue');
    const rows = await settled(
      () => page.getByTestId('dl-task').allTextContents(),
      (r) => r.length === 2,
      10000,
    );
    expect(rows[0]).toMatch(/^t9.*running/);
    expect(rows[1]).toMatch(/^t6.*queued/);
    expect(await page.getByTestId('rt-runqueue').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'edf-lesson-5-edf-1280x720.png') });
    // Step 6: 40 ms under EDF, no mark.
    await next(6, 40, 'lanes');
    expect(
      await settled(
        () => misses(page),
        (n) => n === 0,
        10000,
      ),
    ).toBe(0);
    expect(await page.getByTestId('gantt-miss-legend').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'edf-lesson-6-met-1280x720.png') });
    // Step 7: the whole run; t6 waited under EDF (its latency in the charts), nobody missed.
    await next(7, 1800, 'metrics-charts');
    await page.screenshot({ path: join(shots, 'edf-lesson-7-price-1280x720.png') });
    expect(await axeViolations(page)).toEqual([]);

    // The default size, at the lanes step of each preset.
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByTestId('lesson-prev').click();
    expect(await settled(simMs, (t) => t === 40, 20000)).toBe(40);
    await page.screenshot({ path: join(shots, 'edf-lesson-6-met-1280x900.png') });
    for (const n of [5, 4]) {
      await page.getByTestId('lesson-prev').click();
      await settled(
        () => text(page, 'lesson-step'),
        (s) => s.startsWith(`Step ${n} `),
      );
    }
    expect(
      await settled(
        () => misses(page),
        (n) => n === 2,
        20000,
      ),
    ).toBe(2);
    await page.screenshot({ path: join(shots, 'edf-lesson-4-bound-1280x900.png') });

    // On the presentation stage at 1280×720 the lanes fill the left, the narration the right.
    await page.setViewportSize({ width: 1280, height: 720 });
    await page.getByTestId('btn-present').click();
    const lanes = await page.getByTestId('lanes').boundingBox();
    const card = await page.getByTestId('lesson').boundingBox();
    if (!lanes || !card) throw new Error('not drawn');
    expect(lanes.x + lanes.width).toBeLessThanOrEqual(card.x + 0.5);
    expect(lanes.width).toBeGreaterThan(1280 * 0.55);
    expect(lanes.y + lanes.height).toBeLessThanOrEqual(720.5);
    expect(
      await settled(
        () => misses(page),
        (n) => n === 2,
        10000,
      ),
    ).toBe(2);
    await page.screenshot({ path: join(shots, 'edf-lesson-4-stage-1280x720.png') });
    await page.getByTestId('btn-present').click();
  });
});
