// The real-time class in Chromium: a scenario with FIFO and RR tasks pinned
// beside a fair hog draws, above the fair class's tree, the CPU's place in the
// class hierarchy and its priority array — the bitmap's set cells and, per
// priority, the tasks in pick order, the running one marked — and the lanes
// mark the real-time tasks' slices.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, openLab, settled, shots, type Lab } from './harness';
import { axeViolations } from './axe';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1280, height: 720 });
});
afterAll(async () => lab?.close());

const hogOn0 = (name: string, extra: object) => ({
  name,
  cpus: '0',
  ...extra,
  program: [{ repeat: null, body: [{ run_us: 100000 }] }],
});

const scenario = {
  version: 1,
  name: 'real-time beside fair',
  machine: { preset: 'laptop-2c4t' },
  duration_ms: 1000,
  seed: 1,
  processes: [
    hogOn0('fifo-high', { sched_policy: 'fifo', rt_priority: 80 }),
    hogOn0('rr-a', { sched_policy: 'rr', rt_priority: 20 }),
    hogOn0('rr-b', { sched_policy: 'rr', rt_priority: 20 }),
    hogOn0('fair', {}),
  ],
};

describe('the real-time class in the runqueue panel', () => {
  it('draws the priority array with its bitmap above the fair class', async () => {
    const { page } = lab;
    expect(await hook<boolean>(page, 'loadScenarioJson', JSON.stringify(scenario))).toBe(true);
    await hook(page, 'runUntil', 300e6);
    const panel = page.getByTestId('rt-runqueue');
    await panel.waitFor();
    // Two priorities hold tasks: 99−80 = 19 (the FIFO task) and 99−20 = 79 (the two RR tasks).
    await settled(
      () => page.getByTestId('rt-level').count(),
      (n) => n === 2,
      10000,
    );
    expect(await page.locator('[data-testid=rt-bitmap] span.on').count()).toBe(2);
    const levels = await page.getByTestId('rt-level').allTextContents();
    expect(levels[0]).toMatch(/prio 19 \(rt_priority 80\).*fifo-high FIFO · running/);
    expect(levels[1]).toMatch(/prio 79 \(rt_priority 20\).*rr-a RR.*rr-b RR/);
    expect(await page.getByTestId('rt-hierarchy').textContent()).toContain('real-time (3 queued)');
    // The fair class's panel is still there, beside it, and runs nothing of its own.
    expect(await page.locator('.rbtree-panel').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('fair-curr-rt').textContent()).toContain('fifo-high, of a higher class');
    expect(await axeViolations(page)).toEqual([]);
    await panel.screenshot({ path: join(shots, 'rt-runqueue.png') });
    await page.screenshot({ path: join(shots, 'rt-class-1280x720.png') });
  });

  it('walks the real-time lesson: FIFO first, RR turns, then throttling hands the fair hog the period’s end', async () => {
    const { page } = lab;
    const text = async (id: string) => (await page.getByTestId(id).textContent()) ?? '';
    const simMs = async () => Number(await text('sim-time'));
    await page.getByTestId('lesson-pick').selectOption('rt-classes');
    await settled(
      () => text('lesson-step'),
      (s) => s === 'Step 1 of 5',
      20000,
    );
    expect(await settled(simMs, (t) => t === 50, 20000)).toBe(50);
    expect(await page.getByTestId('rt-runqueue').count()).toBe(1);
    expect(await page.getByTestId('rt-level').count()).toBe(0);
    const next = async (n: number, ms: number) => {
      await page.getByTestId('lesson-next').click();
      await settled(
        () => text('lesson-step'),
        (s) => s.startsWith(`Step ${n} `),
      );
      expect(await settled(simMs, (t) => t === ms, 20000)).toBe(ms);
    };
    // Step 2: the FIFO task took the CPU at once; the RR tasks wait at their own priority.
    await next(2, 150);
    expect(await page.locator('.app').getAttribute('data-lesson-panel')).toBe('rt-runqueue');
    const levels = await page.getByTestId('rt-level').allTextContents();
    expect(levels[0]).toMatch(/fifo FIFO · running/);
    expect(levels[1]).toMatch(/rr-a RR.*rr-b RR/);
    // Step 3: the FIFO task is gone; one RR task runs, the other waits its turn.
    await next(3, 1450);
    expect(await page.getByTestId('rt-level').count()).toBe(1);
    expect(await page.getByTestId('rt-level').textContent()).toMatch(/running/);
    // Step 4: throttled; the fair class runs its hog.
    await next(4, 1970);
    await page.getByTestId('rt-throttled').waitFor();
    expect(await page.getByTestId('fair-curr-rt').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'rt-lesson-throttled-1280x720.png') });
  });

  it('draws the deadline class above the real-time class: the EDF tree and each server', async () => {
    const { page } = lab;
    const dlHog = (name: string, runtime: number, period: number) => ({
      name,
      sched_policy: 'deadline',
      dl_runtime_us: runtime,
      dl_deadline_us: period,
      program: [{ repeat: null, body: [{ run_us: 100000 }] }],
    });
    const json = {
      ...scenario,
      name: 'deadline beside real-time',
      machine: { preset: 'uniprocessor' },
      processes: [dlHog('d10', 10000, 100000), dlHog('d30', 30000, 60000), hogOn0('fair', {})],
    };
    expect(await hook<boolean>(page, 'loadScenarioJson', JSON.stringify(json))).toBe(true);
    // At 35 ms: d30 (deadline 60) ran first and is throttled at 30 ms; d10 (deadline 100) runs now.
    await hook(page, 'runUntil', 35e6);
    await page.getByTestId('dl-runqueue').waitFor();
    const rows = await settled(
      () => page.getByTestId('dl-task').allTextContents(),
      (r) => r.length === 2,
      10000,
    );
    expect(rows[0]).toMatch(/^d10.*running/);
    expect(rows[1]).toMatch(/^d30.*throttled/);
    expect(await page.getByTestId('dl-node').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByTestId('dl-runqueue').screenshot({ path: join(shots, 'dl-runqueue.png') });
    await page.screenshot({ path: join(shots, 'dl-class-1280x720.png') });
  });
});
