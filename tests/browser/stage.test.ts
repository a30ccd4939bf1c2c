// Issue 18 item 1: the stage. In presentation mode at 1280×720 and 1920×1080,
// at every step of the Group Imbalance lesson the panel the step points at,
// the narration and the controls are all inside the viewport and none covers
// another; N and P move between steps. Outside presentation mode, a step that
// points at a panel brings it into view. Screenshots of every step.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { openLab, settled, shots, type Lab } from './harness';
import { lessonById } from '../../src/classroom/lessons';
import { defined } from '../defined';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1280, height: 720 });
});
afterAll(async () => lab?.close());

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}
const lesson = defined(lessonById('group-imbalance'));
const STEPS = lesson.steps.length;

async function box(l: Locator): Promise<Box> {
  const b = await l.boundingBox();
  if (!b) throw new Error('not drawn');
  return b;
}
const inside = (b: Box, w: number, h: number) =>
  b.x >= -0.5 && b.y >= -0.5 && b.x + b.width <= w + 0.5 && b.y + b.height <= h + 0.5;
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width - 0.5 && b.x < a.x + a.width - 0.5 && a.y < b.y + b.height - 0.5 && b.y < a.y + a.height - 0.5;

/** The panel a step points at (the machine when it points at none). */
function pointed(page: Page, panel: string | null): Locator {
  if (panel === 'rbtree-panel') return page.locator('.rbtree-panel').first();
  if (panel === 'heatmaps') return page.locator('#lab > .seen > [data-testid=heatmaps]');
  return page.getByTestId(panel ?? 'topology').first();
}

const stepText = () => lab.page.getByTestId('lesson-step').textContent();

async function expectStaged(page: Page, w: number, h: number, step: number): Promise<void> {
  const panel = lesson.steps[step - 1].panel ?? null;
  const boxes = {
    panel: await box(pointed(page, panel)),
    narration: await box(page.getByTestId('narration')),
    card: await box(page.getByTestId('lesson')),
    play: await box(page.getByTestId('btn-play')),
    controls: await box(page.locator('.controls')),
    nav: await box(page.locator('.lesson-nav')),
    classroom: await box(page.getByTestId('btn-present')),
  };
  for (const [name, b] of Object.entries(boxes))
    expect(inside(b, w, h), `${name} at step ${step}: ${JSON.stringify(b)}`).toBe(true);
  expect(overlap(boxes.panel, boxes.card), `panel and narration at step ${step}`).toBe(false);
  expect(overlap(boxes.panel, boxes.controls), `panel and controls at step ${step}`).toBe(false);
  expect(overlap(boxes.card, boxes.controls), `narration and controls at step ${step}`).toBe(false);
  // The way out of presentation mode stays on screen and uncovered.
  expect(
    overlap(boxes.classroom, boxes.card) || overlap(boxes.classroom, boxes.panel),
    `presentation toggle at step ${step}`,
  ).toBe(false);
  // The stage fills the screen: the panel takes most of the width left of the narration.
  expect(boxes.panel.width).toBeGreaterThan(w * 0.55);
  // The machine drawing is enlarged to fill its panel, every CPU cell still inside it.
  if (panel === null || panel === 'topology') {
    const cells = await page
      .locator('[data-testid=topology] .cpu-cell > rect')
      .evaluateAll((els) =>
        els.map((e) => e.getBoundingClientRect()).map((r) => ({ x: r.x, y: r.y, width: r.width, height: r.height })),
      );
    expect(cells).toHaveLength(64);
    for (const c of cells)
      expect(
        inside(c, boxes.panel.x + boxes.panel.width, boxes.panel.y + boxes.panel.height) && c.y >= boxes.panel.y,
      ).toBe(true);
    const drawn = await box(page.locator('[data-testid=topology] .topo-layers'));
    expect(drawn.width > boxes.panel.width * 0.6 || drawn.height > (boxes.panel.height - 120) * 0.6).toBe(true);
  }
  // Nothing to scroll: the page under the stage is held still.
  expect(await page.evaluate(() => getComputedStyle(document.body).overflowY)).toBe('hidden');
}

describe('the stage', () => {
  for (const [w, h] of [
    [1280, 720],
    [1920, 1080],
  ]) {
    it(`fits ${w}×${h}: every step shows its panel, the narration and the controls`, async () => {
      const page = lab.page;
      await page.setViewportSize({ width: w, height: h });
      await page.getByTestId('lesson-pick').selectOption('group-imbalance');
      await settled(stepText, (s) => s === `Step 1 of ${STEPS}`);
      await settled(
        async () => (await page.locator('.description').textContent()) ?? '',
        (d) => d.includes('group-imbalance-make'),
        20000,
      );
      if ((await page.getByTestId('btn-present').getAttribute('aria-pressed')) !== 'true')
        await page.getByTestId('btn-present').click();
      for (let step = 1; step <= STEPS; step++) {
        await settled(stepText, (s) => s === `Step ${step} of ${STEPS}`, 20000);
        // Let the step's preset and anchor land before measuring (the controls read the cursor).
        await page.getByTestId('btn-play').waitFor();
        // The step's marks land once its anchor is reached (after the step's text): wait for its panel.
        const want = lesson.steps[step - 1].panel ?? 'topology';
        await settled(
          () => page.locator('.app').getAttribute('data-stage-panel'),
          (v) => v === want,
          20000,
        );
        await expectStaged(page, w, h, step);
        await page.screenshot({ path: join(shots, `stage-${w}x${h}-step${step}.png`) });
        // N moves on (the keys act when nothing editable has the focus).
        if (step < STEPS) {
          await page.locator('body').focus();
          await page.keyboard.press('n');
        }
      }
      // P goes back one step.
      await page.keyboard.press('p');
      await settled(stepText, (s) => s === `Step ${STEPS - 1} of ${STEPS}`);
      await page.getByTestId('lesson-exit').click();
      await page.getByTestId('btn-present').click();
    });
  }

  it('outside presentation mode brings the pointed-at panel into view', async () => {
    const page = lab.page;
    await page.setViewportSize({ width: 1280, height: 720 });
    if ((await page.getByTestId('btn-present').getAttribute('aria-pressed')) === 'true')
      await page.getByTestId('btn-present').click();
    await page.getByTestId('lesson-pick').selectOption('group-imbalance');
    await settled(stepText, (s) => s === `Step 1 of ${STEPS}`);
    for (let step = 2; step <= 5; step++) {
      await page.getByTestId('lesson-next').click();
      await settled(stepText, (s) => s === `Step ${step} of ${STEPS}`, 20000);
      const panel = lesson.steps[step - 1].panel;
      if (!panel) continue;
      await settled(
        () => page.locator('.app').getAttribute('data-lesson-panel'),
        (v) => v === panel,
        20000,
      );
      // Scrolling is smooth unless reduced motion is asked for: wait for the panel's top to arrive.
      const top = await settled(
        async () => (await box(pointed(page, panel))).y,
        (y) => y >= -1 && y < 720 / 2,
        5000,
      );
      expect(top).toBeLessThan(360);
    }
    await page.screenshot({ path: join(shots, 'stage-off-step5.png') });
  });
});
