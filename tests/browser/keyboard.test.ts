// Issue 20: the Group Imbalance lesson followed from start to end with the
// keyboard alone — the skip link, the lesson picked in the header, every step
// reached with Tab and Enter, the question answered and revealed, a CPU of
// the machine view chosen with the arrow keys — and every element Tab lands
// on shows where the focus is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { hook, loadPreset, openLab, settled, shots, type Lab } from './harness';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1280, height: 900 });
});
afterAll(async () => lab?.close());

/** The focused element: its test id (or its tag), and whether a focus indicator is drawn for it. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { id: 'body', visible: false };
    const id = el.getAttribute('data-testid') ?? el.getAttribute('class') ?? el.tagName.toLowerCase();
    // A machine cell shows focus by its outline stroke; a file input by its label's ring; the rest by an outline.
    const ring = el.closest('.cpu-cell, .node-cell')
      ? getComputedStyle(el.querySelector('rect') as Element).strokeWidth
      : getComputedStyle(el.matches('input[type=file]') ? (el.parentElement as Element) : el).outlineWidth;
    const style = getComputedStyle(el.matches('input[type=file]') ? (el.parentElement as Element) : el);
    const visible = el.closest('.cpu-cell, .node-cell')
      ? parseFloat(ring) >= 3
      : style.outlineStyle !== 'none' && parseFloat(ring) >= 2;
    return { id, visible };
  });

/** Presses Tab (or Shift+Tab) until the element with `testId` has the focus; every stop on the way shows its focus. */
async function tabTo(page: Page, testId: string, back = false): Promise<void> {
  for (let i = 0; i < 150; i++) {
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const f = await focused(page);
    expect(f.visible, `focus not visible on ${f.id}`).toBe(true);
    if (f.id === testId) return;
  }
  throw new Error(`Tab never reached ${testId}`);
}

const text = async (testId: string) => (await lab.page.getByTestId(testId).textContent()) ?? '';

describe('keyboard only', () => {
  it('follows the Group Imbalance lesson from start to end', async () => {
    const { page } = lab;
    // The first Tab stop skips to the lab.
    await page.keyboard.press('Tab');
    expect((await focused(page)).id).toBe('skip-link');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('lab');
    await page.keyboard.press('Tab');
    expect((await focused(page)).id).toBe('btn-play');

    // Back up to the header's lesson picker and choose the lesson with the arrow keys.
    await tabTo(page, 'lesson-pick', true);
    for (let i = 0; i < 10 && (await page.getByTestId('lesson-pick').inputValue()) !== 'group-imbalance'; i++)
      await page.keyboard.press('ArrowDown');
    expect(await page.getByTestId('lesson-pick').inputValue()).toBe('group-imbalance');
    await settled(
      () => text('lesson-step'),
      (s) => s === 'Step 1 of 7',
      20000,
    );
    // The step's preset loads and its anchor is reached (30 ms) before Tab goes on: a load redraws the lab.
    await settled(
      async () => (await page.locator('.description').textContent()) ?? '',
      (d) => d.includes('group-imbalance-make'),
      20000,
    );
    await settled(
      () => hook<{ now_ns: number } | null>(page, 'cursor'),
      (c) => c?.now_ns === 30e6,
      20000,
    );
    // The narration is a live region: screen readers read each new step.
    expect(await page.getByTestId('narration').getAttribute('aria-live')).toBe('polite');

    // The machine view: one Tab stop, arrows move between CPUs, Enter shows that CPU's runqueue.
    await tabTo(page, 'cpu-cell');
    const first = Number(await page.evaluate(() => document.activeElement?.getAttribute('data-cpu')));
    await page.keyboard.press('ArrowRight');
    const second = Number(await page.evaluate(() => document.activeElement?.getAttribute('data-cpu')));
    expect(second).not.toBe(first);
    expect((await focused(page)).visible).toBe(true);
    await page.keyboard.press('Enter');
    expect(
      await settled(
        () => page.locator('.cpu-pick select').inputValue(),
        (v) => v === String(second),
      ),
    ).toBe(String(second));
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? '')).toMatch(
      /^CPU \d+ .*runnable, load \d+/,
    );

    // The lesson card comes before the machine view (after the controls): back to it.
    await tabTo(page, 'lesson-next', true);
    await page.screenshot({ path: join(shots, 'keyboard-lesson.png') });
    for (let step = 2; step <= 7; step++) {
      await page.keyboard.press('Enter');
      expect(
        await settled(
          () => text('lesson-step'),
          (s) => s === `Step ${step} of 7`,
          20000,
        ),
      ).toBe(`Step ${step} of 7`);
      if (step === 3) {
        // The question: pick an answer and reveal it, keys only (the answer comes from the engine worker).
        await page.getByTestId('choice').first().waitFor({ timeout: 20000 });
        await tabTo(page, 'choice', true);
        await page.keyboard.press('Enter');
        expect(
          await settled(
            () => page.evaluate(() => document.activeElement?.getAttribute('aria-checked')),
            (v) => v === 'true',
          ),
        ).toBe('true');
        await tabTo(page, 'reveal');
        await page.keyboard.press('Enter');
        expect(
          await settled(
            () => text('verdict'),
            (v) => v.length > 0,
            20000,
          ),
        ).toMatch(/Right|Not quite|Wrong|answer/i);
        await tabTo(page, 'lesson-next');
      }
      // Focus stays on the button that moves on (the last step's is Finish).
      expect((await focused(page)).id).toBe(step === 7 ? 'lesson-finish' : 'lesson-next');
    }
    await page.keyboard.press('Enter');
    expect(
      await settled(
        () => page.getByTestId('lesson').count(),
        (n) => n === 0,
      ),
    ).toBe(0);
  });

  it('turns the single-key shortcuts off and on from the help overlay (WCAG 2.1.4)', async () => {
    const { page } = lab;
    const events = async () => (await hook<{ events: number } | null>(page, 'cursor'))?.events ?? -1;
    await loadPreset(page, 'cfs-nice-levels');
    await hook(page, 'runUntil', 10e6);
    await page.getByTestId('btn-help').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('help').waitFor();
    await page.getByTestId('shortcuts-on').focus();
    await page.keyboard.press('Space');
    expect(await page.getByTestId('shortcuts-on').isChecked()).toBe(false);
    await page.keyboard.press('Escape');
    await page.getByTestId('help').waitFor({ state: 'detached' });
    await page.getByTestId('btn-reset').focus();
    const before = await events();
    // Off: "t" (a tick) does nothing; the buttons still work.
    await page.keyboard.press('t');
    expect(await events()).toBe(before);
    await page.getByTestId('btn-step').focus();
    await page.keyboard.press('Enter');
    const stepped = await settled(events, (n) => n > before);
    expect(stepped).toBeGreaterThan(before);
    // On again (remembered in localStorage either way): "t" ticks.
    await page.getByTestId('btn-help').focus();
    await page.keyboard.press('Enter');
    await page.getByTestId('shortcuts-on').focus();
    await page.keyboard.press('Space');
    expect(await page.getByTestId('shortcuts-on').isChecked()).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByTestId('btn-reset').focus();
    await page.keyboard.press('t');
    expect(await settled(events, (n) => n > stepped)).toBeGreaterThan(stepped);
  });
});
