// The priority-inheritance lesson in Chromium: without a protocol the fair
// mutex owner waits in the fair tree while the FIFO hog runs; with PI
// mutexes the owner sits in the real-time priority array at its waiter's
// prio, marked inherited, ahead of the hog, and the event log shows the
// sched_pi_setprio records.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { openLab, settled, shots, type Lab } from './harness';
import { axeViolations } from './axe';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1280, height: 720 });
});
afterAll(async () => lab?.close());

describe('the priority inversion and inheritance lesson', () => {
  it('shows the inversion, then the owner lent its waiter’s prio', async () => {
    const { page } = lab;
    const text = async (id: string) => (await page.getByTestId(id).textContent()) ?? '';
    const simMs = async () => Number(await text('sim-time'));
    await page.getByTestId('lesson-pick').selectOption('priority-inheritance');
    await settled(
      () => text('lesson-step'),
      (s) => s === 'Step 1 of 5',
      20000,
    );
    expect(await settled(simMs, (t) => t === 4, 20000)).toBe(4);
    // low holds the mutex and runs alone in the fair class; nothing real-time is queued yet.
    expect(await page.getByTestId('rt-level').count()).toBe(0);
    const next = async (n: number, ms: number) => {
      await page.getByTestId('lesson-next').click();
      await settled(
        () => text('lesson-step'),
        (s) => s.startsWith(`Step ${n} `),
      );
      expect(await settled(simMs, (t) => t === ms, 20000)).toBe(ms);
    };
    // Step 2: medium runs at prio 49; high sleeps on the mutex; low waits in the fair tree, lent nothing.
    await next(2, 50);
    const inverted = await page.getByTestId('rt-level').allTextContents();
    expect(inverted).toHaveLength(1);
    expect(inverted[0]).toMatch(/prio 49 .*medium FIFO · running/);
    expect(await page.getByTestId('rt-inherited').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'pi-inversion-1280x720.png') });
    await next(3, 400);
    // Step 4: the same tasks with PI mutexes. low sits at high's prio 9, marked inherited, ahead of medium.
    await next(4, 10);
    const lent = await page.getByTestId('rt-level').allTextContents();
    expect(lent).toHaveLength(2);
    expect(lent[0]).toMatch(/prio 9 .*low NORMAL · running · inherited \(own prio 120\)/);
    expect(lent[1]).toMatch(/prio 49 .*medium FIFO/);
    expect(await page.getByTestId('events').textContent()).toContain('low[0]: prio 120 → 9 (priority inheritance)');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByTestId('rt-runqueue').screenshot({ path: join(shots, 'pi-inherited-runqueue.png') });
    await page.screenshot({ path: join(shots, 'pi-inheritance-1280x720.png') });
    // Step 5: low unlocked and fell back; the real-time queue holds no inherited prio any more.
    await next(5, 400);
    expect(await page.getByTestId('rt-inherited').count()).toBe(0);
  });
});
