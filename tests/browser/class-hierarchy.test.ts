// The class hierarchy in Chromium: the runqueue panel opens with the CPU's
// scheduling classes in the kernel's order — stop, deadline, real-time, fair,
// idle — each with what it holds on that CPU, the running one marked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, openLab, shots, type Lab } from './harness';
import { axeViolations } from './axe';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1280, height: 720 });
});
afterAll(async () => lab?.close());

const hog = (name: string, extra: object) => ({
  name,
  ...extra,
  program: [{ repeat: null, body: [{ run_us: 100000 }] }],
});

const scenario = {
  version: 1,
  name: 'every class on one CPU',
  machine: { preset: 'uniprocessor' },
  duration_ms: 500,
  seed: 1,
  processes: [
    hog('edf', { sched_policy: 'deadline', dl_runtime_us: 10000, dl_deadline_us: 100000 }),
    hog('fifo', { sched_policy: 'fifo', rt_priority: 50 }),
    hog('fair-a', {}),
    hog('fair-b', {}),
  ],
};

describe('the class hierarchy in the runqueue panel', () => {
  it('lists the classes highest first, with their tasks on the CPU and the one that runs', async () => {
    const { page } = lab;
    expect(await hook<boolean>(page, 'loadScenarioJson', JSON.stringify(scenario))).toBe(true);
    // 5 ms in: the deadline task runs its 10 ms reservation first (its class is above the real-time class).
    await hook(page, 'runUntil', 5e6);
    const strip = page.getByTestId('class-hierarchy');
    await strip.waitFor();
    const boxes = strip.locator('li');
    expect(await boxes.count()).toBe(5);
    const texts = await boxes.allTextContents();
    expect(texts[0]).toMatch(/^stopmigration\/0 asleep$/);
    expect(texts[1]).toMatch(/^deadline1 runnableruns$/);
    expect(texts[2]).toMatch(/^real-time1 runnable$/);
    expect(texts[3]).toMatch(/^fair \(cfs\)2 runnable$/);
    expect(texts[4]).toMatch(/^idleswapper\/0$/);
    await strip.screenshot({ path: join(shots, 'class-hierarchy.png') });
    // 20 ms in: the reservation is spent and throttled until its deadline, so the FIFO task runs.
    await hook(page, 'runUntil', 20e6);
    await expect.poll(async () => (await boxes.allTextContents())[2]).toMatch(/^real-time1 runnableruns$/);
    expect((await boxes.allTextContents())[1]).toMatch(/^deadline0 runnable$/);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: join(shots, 'class-hierarchy-1280x720.png') });
  });
});
