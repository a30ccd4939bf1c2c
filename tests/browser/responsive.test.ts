// Issue 20: the lab at a phone's, a tablet's and a laptop's size (360×740,
// 820×1180, 1280×720; and 1920×1080 for the screenshots) with the Group
// Imbalance preset: the page never scrolls sideways, the machine view shows
// all 64 CPUs inside its panel, narrow screens fold the header into a menu
// and their controls are at least 44 px tall; axe-core finds nothing there.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { hook, loadPreset, openLab, settled, shots, type Lab } from './harness';
import { axeViolations } from './axe';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1280, height: 720 });
  await loadPreset(lab.page, 'group-imbalance-make');
  await hook(lab.page, 'runUntil', 250e6);
});
afterAll(async () => lab?.close());

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** How much wider than the window the page is (0: no sideways scroll), and the widest culprits if any. */
const overflow = (page: Page) =>
  page.evaluate(() => {
    const over = document.documentElement.scrollWidth - window.innerWidth;
    const culprits =
      over <= 0
        ? []
        : Array.from(document.querySelectorAll('body *'))
            .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 0.5)
            .slice(0, 8)
            .map((e) => `${e.tagName.toLowerCase()}.${e.getAttribute('class') ?? ''}`);
    return { over, culprits };
  });

/** The machine panel's box and every CPU cell's, once the layout followed the new width. */
async function machine(page: Page): Promise<{ panel: Box; cells: Box[] }> {
  const topo = page.getByTestId('topology');
  const panel = await topo.boundingBox();
  if (!panel) throw new Error('no machine panel');
  const cells = await topo.locator('.cpu-cell > rect').evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );
  return { panel, cells };
}
const inside = (a: Box, b: Box) =>
  a.x >= b.x - 0.5 &&
  a.y >= b.y - 0.5 &&
  a.x + a.width <= b.x + b.width + 0.5 &&
  a.y + a.height <= b.y + b.height + 0.5;

const SIZES = [
  { width: 360, height: 740, narrow: true },
  { width: 820, height: 1180, narrow: true },
  { width: 1280, height: 720, narrow: false },
  { width: 1920, height: 1080, narrow: false },
];

describe('responsive layout', () => {
  for (const size of SIZES) {
    it(`${size.width}×${size.height}: no sideways scroll, all 64 CPUs inside the machine panel`, async () => {
      const { page } = lab;
      await page.setViewportSize({ width: size.width, height: size.height });
      // The machine view re-lays out when its panel's width changes (a ResizeObserver): wait for every cell to fit.
      const fits = await settled(
        () => machine(page),
        (m) => m.cells.length === 64 && m.cells.every((c) => inside(c, m.panel)),
        10000,
      );
      expect(fits.cells.length).toBe(64);
      for (const c of fits.cells) expect(inside(c, fits.panel)).toBe(true);
      expect(fits.panel.x + fits.panel.width).toBeLessThanOrEqual(size.width);
      expect(await overflow(page)).toEqual({ over: 0, culprits: [] });

      const menuButton = page.getByTestId('menu-button');
      expect(await menuButton.isVisible()).toBe(size.narrow);
      if (size.narrow) {
        // The header folds into a menu: closed, the scenario picker is hidden; open, it is there and fits.
        expect(await page.getByTestId('preset-pick').isVisible()).toBe(false);
        await menuButton.click();
        expect(await menuButton.getAttribute('aria-expanded')).toBe('true');
        expect(await page.getByTestId('preset-pick').isVisible()).toBe(true);
        expect(await overflow(page)).toEqual({ over: 0, culprits: [] });
        // Touch targets: every visible button and select of the header and the controls is at least 44 px tall and wide.
        const small = await page
          .locator('header.top button, header.top select, .controls button, .controls select')
          .evaluateAll((els) =>
            els
              .filter((e) => (e as HTMLElement).offsetParent !== null)
              .map((e) => ({
                what: `${e.tagName} ${e.getAttribute('data-testid') ?? e.textContent}`,
                h: e.getBoundingClientRect().height,
                w: e.getBoundingClientRect().width,
              }))
              .filter((b) => b.h < 44 || b.w < 44),
          );
        expect(small).toEqual([]);
        // The narrow layout, menu open, passes axe too.
        expect(await axeViolations(page)).toEqual([]);
        await page.screenshot({ path: join(shots, `responsive-${size.width}-menu.png`) });
        await menuButton.click();
        expect(await page.getByTestId('preset-pick').isVisible()).toBe(false);
      }
      await page.screenshot({ path: join(shots, `responsive-${size.width}x${size.height}.png`), fullPage: true });
    });
  }

  it('360×740 in Chinese and in presentation mode: no sideways scroll, axe clean', async () => {
    const { page } = lab;
    await page.setViewportSize({ width: 360, height: 740 });
    await page.getByTestId('menu-button').click();
    await page.getByTestId('lang-pick').selectOption('zh');
    await settled(
      () => page.locator('html').getAttribute('lang'),
      (l) => l === 'zh-CN',
    );
    expect(await overflow(page)).toEqual({ over: 0, culprits: [] });
    expect(await axeViolations(page)).toEqual([]);
    await page.getByTestId('btn-present').click();
    await settled(
      () => page.locator('html').getAttribute('class'),
      (c) => (c ?? '').includes('presenting'),
    );
    const fits = await settled(
      () => machine(page),
      (m) => m.cells.length === 64 && m.cells.every((c) => inside(c, m.panel)),
      10000,
    );
    for (const c of fits.cells) expect(inside(c, fits.panel)).toBe(true);
    expect(await overflow(page)).toEqual({ over: 0, culprits: [] });
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(shots, 'responsive-360-zh-present.png') });
    await page.getByTestId('btn-present').click();
    await page.getByTestId('lang-pick').selectOption('en');
    await page.getByTestId('menu-button').click();
  });
});
