// The remaining controls in Chromium: the previous checker violation lands on
// the one the next-violation step found, speed scales how far Play goes, and
// Reset goes back to the start.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hook, loadPreset, openLab, settled, type Lab } from './harness';

interface View {
  now_ns: number;
  events: number;
}

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(async () => lab?.close());

const view = () => hook<View>(lab.page, 'view');
const noProgress = () =>
  settled(
    () => lab.page.getByTestId('progress').count(),
    (n) => n === 0,
    15000,
  );

describe('controls', () => {
  it('steps back to the previous sanity-checker violation', async () => {
    await loadPreset(lab.page, 'group-imbalance-make');
    await lab.page.getByTestId('btn-next-violation').click();
    await noProgress();
    const first = await view();
    await lab.page.getByTestId('btn-next-violation').click();
    await noProgress();
    const second = await settled(view, (v) => v.events > first.events);
    expect(second.events).toBeGreaterThan(first.events);
    await lab.page.getByTestId('btn-back-violation').click();
    expect((await settled(view, (v) => v.events === first.events)).now_ns).toBe(first.now_ns);
    // Before the first one there is none: a note, and no move.
    await lab.page.locator('body').press('V');
    expect(
      await settled(
        async () => (await lab.page.getByTestId('notice').textContent()) ?? '',
        (t) => t.length > 0,
      ),
    ).toBe('no earlier sanity-checker violation');
    expect((await view()).events).toBe(first.events);
  });

  it('plays faster at a higher speed', async () => {
    const play = async (speed: string) => {
      await lab.page.locator('.controls .speed select').selectOption(speed);
      const t0 = (await view()).now_ns;
      await lab.page.getByTestId('btn-play').click();
      await lab.page.waitForTimeout(400);
      await lab.page.getByTestId('btn-play').click();
      return (await view()).now_ns - t0;
    };
    const slow = await play('0.1');
    const fast = await play('1');
    expect(slow).toBeGreaterThan(0);
    expect(fast).toBeGreaterThan(3 * slow);
  });

  it('resets to the start', async () => {
    await lab.page.getByTestId('btn-reset').click();
    const v = await settled(view, (x) => x.events === 0);
    expect([v.events, v.now_ns]).toEqual([0, 0]);
    expect(await lab.page.getByTestId('sim-time').textContent()).toBe('0.000');
  });
});
