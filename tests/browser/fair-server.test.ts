// Linux 6.12's fair server in Chromium: the real-time lesson's preset moved
// to 6.12 shows, in the deadline class's panel, the fair server that bounds
// the FIFO hog there (6.12 without RT_GROUP_SCHED does not throttle): deferred
// while the FIFO hog runs, queued above it at its zero-laxity time,
// and the fair hog running in its 50 ms. The fair hog runs alone for the first
// 100 ms, charged to the server, whose period therefore restarts at 100 ms:
// its zero-laxity time is 1050 ms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, loadPreset, openLab, settled, shots, type Lab } from './harness';
import { axeViolations } from './axe';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1280, height: 720 });
});
afterAll(async () => lab?.close());

describe('the fair server on Linux 6.12', () => {
  it('defers while the FIFO hog runs, then runs the starved fair hog above it', async () => {
    const { page } = lab;
    await loadPreset(page, 'rt-fifo-rr-throttling');
    await page.getByTestId('kernel-pick').selectOption('6.12');
    await settled(
      () => hook<string>(page, 'scenarioJson'),
      (j) => (JSON.parse(j) as { kernel?: string }).kernel === '6.12',
      15000,
    );
    await hook(page, 'runUntil', 500e6);
    const server = page.getByTestId('fair-server');
    await expect
      .poll(async () => server.textContent(), { timeout: 10000 })
      .toMatch(/deferred, the fair class runs on its own/);
    expect(await page.getByTestId('rt-runqueue').textContent()).toContain(
      'no throttling (6.12 without RT_GROUP_SCHED)',
    );
    // 1075 ms: the zero-laxity timer fired at 1050; the server is queued and EDF picks it, so the fair hog runs.
    await hook(page, 'runUntil', 1075e6);
    await expect.poll(async () => server.textContent(), { timeout: 10000 }).toMatch(/queued: the fair class starved/);
    const classes = await page.getByTestId('class-hierarchy').locator('li').allTextContents();
    expect(classes[3]).toMatch(/^fair \(eevdf\)1 runnableruns$/);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByTestId('dl-runqueue').screenshot({ path: join(shots, 'fair-server.png') });
    await page.screenshot({ path: join(shots, 'fair-server-1280x720.png') });
  });
});

describe('GRUB on Linux 6.12', () => {
  it('shows the CPU’s active, reserved and unreserved bandwidth, and the task that reclaims', async () => {
    const { page } = lab;
    const scenario = {
      version: 1,
      name: 'a reclaiming deadline hog',
      kernel: '6.12',
      machine: { preset: 'uniprocessor' },
      duration_ms: 1000,
      seed: 1,
      processes: [
        {
          name: 'dl',
          sched_policy: 'deadline',
          dl_runtime_us: 10000,
          dl_deadline_us: 100000,
          dl_reclaim: true,
          program: [{ repeat: null, body: [{ run_us: 100000 }] }],
        },
        { name: 'fair', program: [{ repeat: null, body: [{ run_us: 100000 }] }] },
      ],
    };
    expect(await hook<boolean>(page, 'loadScenarioJson', JSON.stringify(scenario))).toBe(true);
    await hook(page, 'runUntil', 50e6);
    const grub = page.getByTestId('dl-grub');
    // Both the task (10 %) and the fair server (5 %) are active; admission left 95 − 15 = 80 % unreserved.
    await expect
      .poll(async () => grub.textContent(), { timeout: 10000 })
      .toMatch(/active 15\.0 % · on this CPU 15\.0 % · unreserved 80\.0 %/);
    expect(await page.getByTestId('dl-task').first().textContent()).toContain('(reclaims)');
    await page.getByTestId('dl-runqueue').screenshot({ path: join(shots, 'grub.png') });
  });
});
