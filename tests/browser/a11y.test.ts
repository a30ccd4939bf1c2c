// Issue 20: axe-core finds no violation on any view of the lab — the lab at a
// balancing decision, the library, the scenario editor, a lesson step, compare
// mode and presentation mode — in English and in Chinese; and the tree
// animations stop under prefers-reduced-motion.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { hook, loadPreset, openLab, settled, shots, type Lab } from './harness';
import { axeViolations } from './axe';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1280, height: 900 });
});
afterAll(async () => lab?.close());

/** No axe violation now; the message lists what axe found. */
async function expectClean(page: Page, view: string): Promise<void> {
  // Animations (tree nodes fading in) end first: axe reads colours as painted.
  await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
  const found = await axeViolations(page);
  expect(found, `${view}: ${JSON.stringify(found, null, 1)}`).toEqual([]);
}

async function toDecision(page: Page): Promise<void> {
  await hook(page, 'runUntil', 250e6);
  await page.getByTestId('btn-next-decision').click();
  await settled(
    async () => (await page.getByTestId('lb-steps').count()) > 0,
    (v) => v,
    20000,
  );
}

for (const lang of ['en', 'zh'] as const) {
  describe(`axe-core, ${lang === 'en' ? 'English' : 'Chinese'}`, () => {
    it('the lab, the library and the editor', async () => {
      const { page } = lab;
      await page.getByTestId('lang-pick').selectOption(lang);
      await settled(
        () => page.locator('html').getAttribute('lang'),
        (l) => (l ?? '').startsWith(lang),
      );
      await loadPreset(page, 'group-imbalance-make');
      await toDecision(page);
      await expectClean(page, `lab (${lang})`);
      await page.screenshot({ path: join(shots, `a11y-lab-${lang}.png`) });

      await page.getByTestId('library-button').click();
      await page.getByTestId('library').waitFor();
      await expectClean(page, `library (${lang})`);
      await page.keyboard.press('Escape');
      await page.getByTestId('library').waitFor({ state: 'detached' });

      await page.getByTestId('open-editor').click();
      await page.getByTestId('editor').waitFor();
      await settled(
        () => page.getByTestId('editor-status').textContent(),
        (s) => (s ?? '').length > 0,
        20000,
      );
      await expectClean(page, `editor (${lang})`);
      await page.getByTestId('editor-close').click();
      await page.getByTestId('editor').waitFor({ state: 'detached' });
    });

    it('a lesson step, compare mode and presentation mode', async () => {
      const { page } = lab;
      await page.getByTestId('lesson-pick').selectOption('group-imbalance');
      await settled(
        () => page.getByTestId('narration').textContent(),
        (s) => (s ?? '').length > 20,
        20000,
      );
      await page.getByTestId('lesson-next').click();
      await settled(
        () => page.getByTestId('lesson-step').textContent(),
        (s) => (s ?? '').includes('2'),
        20000,
      );
      await expectClean(page, `lesson (${lang})`);
      await page.getByTestId('lesson-exit').click();

      await page.getByTestId('compare-pick').selectOption('bugs:linux-4.1-fixed');
      await page.getByTestId('compare').waitFor({ timeout: 30000 });
      await expectClean(page, `compare (${lang})`);

      await page.getByTestId('btn-present').click();
      await settled(
        () => page.locator('html').getAttribute('class'),
        (c) => (c ?? '').includes('presenting'),
      );
      await expectClean(page, `presentation (${lang})`);
      await page.screenshot({ path: join(shots, `a11y-present-${lang}.png`) });
      await page.getByTestId('btn-present').click();
      await page.getByTestId('compare-pick').selectOption('');
      await page.getByTestId('compare').waitFor({ state: 'detached' });
    });
  });
}

describe('reduced motion', () => {
  it('stops the tree animations when the system asks for less motion', async () => {
    const { page } = lab;
    await loadPreset(page, 'cfs-nice-levels');
    await hook(page, 'runUntil', 20e6);
    const node = page.getByTestId('rb-node').first();
    await node.waitFor();
    const duration = () => node.evaluate((e) => parseFloat(getComputedStyle(e).transitionDuration));
    expect(await duration()).toBeGreaterThan(0.1);
    await page.emulateMedia({ reducedMotion: 'reduce' });
    expect(await duration()).toBeLessThan(0.01);
    await page.emulateMedia({ reducedMotion: null });
  });
});
