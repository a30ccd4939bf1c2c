// Classroom mode in Chromium: a guided lesson from its first step to its end —
// narration anchored at simulated times, highlighted CPUs and panels, a
// predict-then-reveal question answered by the simulation, the switch to the
// fixed preset — then presentation mode.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, openLab, settled, shots, type Lab } from './harness';
import { defined } from '../defined';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(async () => lab?.close());

const text = async (testId: string) => (await lab.page.getByTestId(testId).textContent()) ?? '';
const simMs = async () => Number(await text('sim-time'));

async function next(expectStep: number) {
  await lab.page.getByTestId('lesson-next').click();
  await settled(
    () => text('lesson-step'),
    (s) => s.startsWith(`Step ${expectStep} `),
  );
}

describe('classroom lesson', () => {
  it('runs the Group Imbalance lesson to its end, answering and revealing its question', async () => {
    const { page } = lab;
    await page.getByTestId('lesson-pick').selectOption('group-imbalance');
    await settled(
      () => text('lesson-step'),
      (s) => s === 'Step 1 of 7',
    );
    // Step 1: the preset is loaded and the cursor sits at the step's 30 ms.
    // The step card shows at once; the preset loads in the worker after it (wait for it, do not race it).
    expect(
      await settled(
        async () => (await page.locator('.description').textContent()) ?? '',
        (d) => d.includes('group-imbalance-make'),
        20000,
      ),
    ).toContain('group-imbalance-make');
    expect(await settled(simMs, (t) => t === 30)).toBe(30);
    expect(await text('narration')).toContain('R processes');
    expect(await page.locator('.app').getAttribute('data-lesson-panel')).toBe('topology');
    const marked = await page
      .locator('.cpu-cell.lesson-mark')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-cpu'))));
    expect(marked).toEqual([11, 27]);
    await page.screenshot({ path: join(shots, 'lesson-narration.png') });

    await next(2);
    expect(await settled(simMs, (t) => t === 300)).toBe(300);
    expect(await page.locator('.cpu-cell.lesson-mark').count()).toBe(16);
    // A reset reloads the run and puts it back at the step's anchor.
    await page.getByTestId('btn-reset').click();
    expect(await settled(simMs, (t) => t === 300)).toBe(300);
    expect(await text('lesson-step')).toBe('Step 2 of 7');

    // Step 3: predict, then reveal; the verdict is what the engine did.
    await next(3);
    const choices = page.getByTestId('choice');
    // The answer is computed in the engine worker; the choices come with it.
    await choices.first().waitFor({ timeout: 10000 });
    expect(await choices.count()).toBe(2);
    expect(await page.getByTestId('reveal').isDisabled()).toBe(true);
    const before = await simMs();
    await choices.nth(0).click(); // "Yes, it moves a thread"
    await page.getByTestId('reveal').click();
    const verdict = await settled(
      () => text('verdict'),
      (v) => v.length > 0,
    );
    const after = await settled(simMs, (t) => t > before);
    expect(after).toBeGreaterThan(before);
    const [d] = await hook<{ t_ns: number; cpu: number; level: string; outcome: string }[]>(page, 'decisions', 1);
    expect((d.t_ns / 1e6).toFixed(3)).toBe(after.toFixed(3));
    expect([...Array.from({ length: 8 }, (_, i) => 8 + i), ...Array.from({ length: 8 }, (_, i) => 24 + i)]).toContain(
      d.cpu,
    );
    expect(d.level.startsWith('NUMA')).toBe(true);
    expect(verdict.startsWith('Right!')).toBe(d.outcome === 'moved');
    expect(verdict).toContain(`CPU ${d.cpu} balancing at ${d.level}`);
    await page.screenshot({ path: join(shots, 'lesson-reveal.png') });

    // Step 4: the next sanity-checker violation.
    await next(4);
    await settled(
      () => text('violations'),
      (v) => v.includes('violation(s)'),
    );
    const report = await hook<{ sanity_violations: { confirmed_ns: number }[] }>(page, 'report');
    expect(report.sanity_violations.length).toBeGreaterThan(0);
    expect((defined(report.sanity_violations.at(-1)).confirmed_ns / 1e6).toFixed(3)).toBe((await simMs()).toFixed(3));

    // Step 5: the fixed twin at 300 ms.
    await next(5);
    await settled(
      async () => (await page.locator('.description').textContent()) ?? '',
      (s) => s.includes('group-imbalance-make-fixed'),
    );
    expect(await settled(simMs, (t) => t === 300)).toBe(300);

    await next(6);
    expect(await settled(simMs, (t) => t === 4000)).toBe(4000);
    // Back one step re-anchors exactly, then forward again.
    await page.getByTestId('lesson-prev').click();
    expect(await settled(simMs, (t) => t === 300)).toBe(300);
    await next(6);

    // Step 7: the paper's lu run at 1 s. The 28 marked cores, beside the R threads on nodes 1-4, are idle
    // while lu threads wait on the other nodes: what the narration says.
    await next(7);
    await settled(
      async () => (await page.locator('.description').textContent()) ?? '',
      (s) => s.includes('group-imbalance-lu'),
      20000,
    );
    expect(await settled(simMs, (t) => t === 1000)).toBe(1000);
    const luMarked = await page
      .locator('.cpu-cell.lesson-mark')
      .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-cpu'))));
    expect(luMarked).toHaveLength(28);
    const luView = await hook<{
      cpus: { cpu: number; curr: number | null; nr_running: number }[];
      tasks: { pid: number; name: string }[];
    }>(page, 'view');
    const nameOf = (pid: number | null) => luView.tasks.find((t) => t.pid === pid)?.name ?? '';
    for (const c of luMarked) expect(luView.cpus[c].nr_running, `CPU ${c}`).toBe(0);
    for (const c of [11, 19, 27, 35]) expect(nameOf(luView.cpus[c].curr)).toMatch(/^R\d$/);
    const waiting = luView.cpus.filter((c) => c.nr_running > 1).length;
    expect(waiting).toBeGreaterThan(0);
    expect(await text('narration')).toContain('28 marked cores');
    await page.screenshot({ path: join(shots, 'lesson-lu.png') });
    await page.getByTestId('lesson-finish').click();
    expect(await page.getByTestId('lesson').count()).toBe(0);
    expect(
      await settled(
        () => page.locator('.app').getAttribute('data-lesson-panel'),
        (v) => v === null,
      ),
    ).toBeNull();
    expect(await page.locator('.cpu-cell.lesson-mark').count()).toBe(0);
  });

  it('presentation mode enlarges the type with high contrast, and is remembered', async () => {
    const { page } = lab;
    await page.getByTestId('lesson-pick').selectOption('cfs-basics');
    await settled(
      () => text('narration'),
      (s) => s.includes('red-black tree'),
    );
    const small = await page.getByTestId('narration').evaluate((e) => e.getBoundingClientRect().height);
    await page.getByTestId('btn-present').click();
    expect(await page.locator('html').getAttribute('class')).toContain('presenting');
    const big = await page.getByTestId('narration').evaluate((e) => e.getBoundingClientRect().height);
    expect(big).toBeGreaterThan(small * 1.2);
    await page.screenshot({ path: join(shots, 'lesson-present.png') });
    // Fullscreen either happens or says why not.
    await page.getByTestId('btn-fullscreen').click();
    await settled(
      async () =>
        (await page.evaluate(() => document.fullscreenElement !== null)) ||
        (await page.getByTestId('fullscreen-refused').count()) > 0,
      (ok) => ok,
    );
    await page.reload();
    await page.getByTestId('btn-step').waitFor();
    expect(await page.locator('html').getAttribute('class')).toContain('presenting');
    await page.getByTestId('btn-present').click();
    expect(await page.locator('html').getAttribute('class')).not.toContain('presenting');
  });
});
