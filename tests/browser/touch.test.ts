// Issue 20: on a phone (360×740, touch) the CPU lanes pan with a one-finger
// horizontal drag and zoom with a two-finger pinch; touches are sent as the
// browser's own touch input (DevTools protocol), so the page's touch-action
// and pointer handling are what is tested.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CDPSession } from 'playwright-core';
import { hook, loadPreset, openLab, settled, type Lab } from './harness';

let lab: Lab;
let cdp: CDPSession;
beforeAll(async () => {
  lab = await openLab({ width: 360, height: 740 });
  cdp = await lab.page.context().newCDPSession(lab.page);
  await cdp.send('Emulation.setTouchEmulationEnabled', { enabled: true, maxTouchPoints: 5 });
  // The scenario picker is behind the header's Menu at this width.
  await lab.page.getByTestId('menu-button').click();
  await loadPreset(lab.page, 'group-imbalance-make');
  await lab.page.getByTestId('menu-button').click();
  await hook(lab.page, 'runUntil', 1000e6);
});
afterAll(async () => lab?.close());

/** The lanes' window [t0, t1] (ns), as drawn. */
const window = async () => {
  const g = lab.page.getByTestId('gantt');
  return { t0: Number(await g.getAttribute('data-t0')), t1: Number(await g.getAttribute('data-t1')) };
};

type Point = { x: number; y: number; id: number };
const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', touchPoints: Point[]) =>
  cdp.send('Input.dispatchTouchEvent', { type, touchPoints });

describe('touch on the lanes', () => {
  it('a horizontal drag pans, a pinch zooms', async () => {
    const { page } = lab;
    const g = page.getByTestId('gantt');
    await g.scrollIntoViewIfNeeded();
    const box = await g.boundingBox();
    if (!box) throw new Error('no lanes');
    const y = box.y + box.height / 2;
    const start = await window();
    expect(start.t1).toBe(1000e6);

    // One finger dragged right shows earlier times.
    await touch('touchStart', [{ x: box.x + 100, y, id: 1 }]);
    for (let dx = 10; dx <= 120; dx += 10) await touch('touchMove', [{ x: box.x + 100 + dx, y, id: 1 }]);
    await touch('touchEnd', []);
    const panned = await settled(window, (w) => w.t1 < start.t1);
    expect(panned.t1).toBeLessThan(start.t1);
    // A pan, not a zoom: the window keeps (about) its length.
    expect(Math.abs(panned.t1 - panned.t0 - (start.t1 - start.t0))).toBeLessThan((start.t1 - start.t0) * 0.1);

    // Two fingers spread apart zoom in: the window gets shorter.
    const mid = box.x + box.width / 2 + 20;
    await touch('touchStart', [
      { x: mid - 30, y, id: 1 },
      { x: mid + 30, y, id: 2 },
    ]);
    for (let d = 40; d <= 110; d += 10)
      await touch('touchMove', [
        { x: mid - d, y, id: 1 },
        { x: mid + d, y, id: 2 },
      ]);
    await touch('touchEnd', []);
    const zoomed = await settled(window, (w) => w.t1 - w.t0 < (panned.t1 - panned.t0) * 0.6);
    expect(zoomed.t1 - zoomed.t0).toBeLessThan((panned.t1 - panned.t0) * 0.6);
  });
});
