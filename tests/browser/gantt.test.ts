// The CPU lanes in Chromium: zoom in and out, pan back by dragging (the
// window stops following the cursor), follow again, and a plain click still
// jumps to the clicked time.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, loadPreset, openLab, settled, shots, type Lab } from './harness';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(async () => lab?.close());

const lanes = () => lab.page.getByTestId('gantt');
/** The lanes' window and slice count, read in one go (separate reads could straddle a re-render). */
async function win(): Promise<[number, number, number]> {
  return lanes().evaluate(
    (c) =>
      [Number(c.getAttribute('data-t0')), Number(c.getAttribute('data-t1')), Number(c.getAttribute('data-slices'))] as [
        number,
        number,
        number,
      ],
  );
}

describe('CPU lanes', () => {
  it('zoom, pan, follow and click', async () => {
    await loadPreset(lab.page, 'group-imbalance-make');
    await hook(lab.page, 'runUntil', 1000e6);
    const [a0, a1] = await settled(win, ([, t1]) => t1 === 1000e6);
    expect([a0, a1]).toEqual([800e6, 1000e6]);
    await lab.page.getByTestId('gantt-zoom-in').click();
    await lab.page.getByTestId('gantt-zoom-in').click();
    const [b0, b1, slices] = await settled(win, ([t0]) => t0 === 950e6);
    expect([b0, b1]).toEqual([950e6, 1000e6]);
    expect(slices).toBeGreaterThan(0);
    await lab.page.getByTestId('gantt-zoom-in').scrollIntoViewIfNeeded();
    await lab.page.waitForTimeout(200);
    await lanes()
      .locator('xpath=ancestor::section[1]')
      .screenshot({ path: join(shots, 'gantt-zoomed.png') });
    // Drag right by a quarter of the lanes: the window moves back in time.
    const box = await lanes().boundingBox();
    if (!box) throw new Error('no lanes');
    const y = box.y + 20;
    await lab.page.mouse.move(box.x + box.width * 0.5, y);
    await lab.page.mouse.down();
    await lab.page.mouse.move(box.x + box.width * 0.62, y, { steps: 5 });
    await lab.page.mouse.move(box.x + box.width * 0.75, y, { steps: 5 });
    await lab.page.mouse.up();
    const [c0, c1] = await settled(win, ([, t1]) => t1 < 1000e6);
    expect(c1).toBeLessThan(1000e6);
    expect(c1 - c0).toBeCloseTo(50e6, -3);
    expect(await lab.page.getByTestId('gantt-window').textContent()).toContain('ending at');
    expect((await hook<{ now_ns: number }>(lab.page, 'view')).now_ns).toBe(1000e6); // dragging did not seek
    await lab.page.getByTestId('gantt-follow').click();
    expect((await settled(win, ([, t1]) => t1 === 1000e6))[1]).toBe(1000e6);
    await lab.page.getByTestId('gantt-zoom-out').click();
    await lab.page.getByTestId('gantt-zoom-out').click();
    expect(await settled(win, ([t0]) => t0 === 800e6)).toEqual([800e6, 1000e6, expect.any(Number)]);
    // A click (no drag) jumps back to that time.
    await lanes().click({ position: { x: 48 + (box.width - 68) * 0.5, y: 10 } });
    const t = await settled(
      async () => (await hook<{ now_ns: number }>(lab.page, 'view')).now_ns,
      (n) => n < 1000e6,
    );
    expect(t).toBeGreaterThan(880e6);
    expect(t).toBeLessThan(920e6);
  });

  it('says from when detail exists once a long run dropped its oldest slices', async () => {
    await loadPreset(lab.page, 'pipe-pingpong');
    const json = JSON.parse(await hook<string>(lab.page, 'scenarioJson'));
    json.duration_ms = 5000;
    expect(await hook<boolean>(lab.page, 'loadScenarioJson', JSON.stringify(json))).toBe(true);
    await hook(lab.page, 'runUntil', 5000e6);
    // The last 200 ms are all there.
    expect((await settled(win, ([, t1]) => t1 === 5000e6, 20_000))[1]).toBe(5000e6);
    expect(
      await settled(
        () => lab.page.getByTestId('gantt-dropped').count(),
        (n) => n === 0,
      ),
    ).toBe(0);
    // Zoomed out over the whole run, the lanes say where detail begins.
    for (let i = 0; i < 6; i++) await lab.page.getByTestId('gantt-zoom-out').click();
    await lab.page.getByTestId('gantt-dropped').waitFor();
    expect(await lab.page.getByTestId('gantt-dropped').textContent()).toMatch(/detail before \d+ ms was dropped/);
    await lab.page.getByTestId('gantt').screenshot({ path: join(shots, 'gantt-dropped.png') });
  });
});
