// Exercises in the lab (issue 18 item 5): a scenario with an exercise shows
// its panel (the goal in words, the figure so far, PASS or FAIL at the end
// with the figures), in both languages; a share link carries the exercise to
// the receiver; the built-in exercises and the "write a scheduler" lesson
// load from the header and run their JavaScript policies in the page's
// engine worker, judged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, openLab, settled, shots, type Lab } from './harness';
import { encodeShare } from '../../src/share/share-link';
import { axeViolations } from './axe';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1280, height: 720 });
});
afterAll(async () => lab?.close());

const text = (sel: string) => async () => (await lab.page.getByTestId(sel).textContent()) ?? '';

/** The scenario text of a preset, as the page's engine has it, with changes. */
async function presetWith(name: string, change: Record<string, unknown>): Promise<string> {
  await lab.page.getByTestId('preset-pick').selectOption(name);
  const json = await settled(
    () => hook<string>(lab.page, 'scenarioJson'),
    (j) => j.includes(`"${name}"`),
    10000,
  );
  return JSON.stringify({ ...(JSON.parse(json) as object), ...change });
}

describe('exercise panel', () => {
  it('shows the goal and the figure so far, then FAIL with the figures at the end; in Chinese too', async () => {
    const page = lab.page;
    const scenario = await presetWith('group-imbalance-make', {
      name: 'gi-keep-busy-cfs',
      duration_ms: 300,
      exercise: { goal: 'longest_wasted_idle_ms', max: 4, text: 'Keep every core busy.' },
    });
    expect(await hook<boolean>(page, 'loadScenarioJson', scenario)).toBe(true);
    await page.getByTestId('exercise-panel').waitFor();
    expect(await text('exercise-goal')()).toContain('No CPU may idle longer than 4 ms');
    expect(await text('exercise-task')()).toBe('Keep every core busy.');
    await hook(page, 'runUntil', 30e6);
    const soFar = await settled(text('exercise-so-far'), (t) => t.startsWith('So far'), 10000);
    expect(soFar).toContain('300 ms');
    await hook(page, 'runUntil', 300e6);
    const verdict = await settled(text('exercise-verdict'), (t) => t.length > 0, 20000);
    const report = await hook<{ longest_wasted_idle: [number, number, number] }>(page, 'report');
    const figure = String(Number((report.longest_wasted_idle[2] / 1e6).toFixed(3)));
    expect(verdict).toBe(`FAIL Longest idle while work waited: ${figure} ms > 4 ms.`);
    await page.getByTestId('exercise-panel').screenshot({ path: join(shots, 'exercise-fail.png') });
    // The panel and the header's Exercise picker pass axe (names, contrast, roles).
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined))));
    const found = await axeViolations(page);
    expect(found, JSON.stringify(found, null, 1)).toEqual([]);
    await page.screenshot({ path: join(shots, 'exercise-page-1280x720.png') });

    await page.getByTestId('lang-pick').selectOption('zh');
    expect(await settled(text('exercise-verdict'), (t) => t.startsWith('未通过'), 5000)).toContain(
      `${figure} ms > 4 ms`,
    );
    expect(await text('exercise-goal')()).toContain('4 ms');
    await page.getByTestId('exercise-panel').screenshot({ path: join(shots, 'exercise-fail-zh.png') });
    await page.getByTestId('lang-pick').selectOption('en');
  });

  it('says PASS when the run stays within the bound, and is absent without an exercise', async () => {
    const page = lab.page;
    const scenario = await presetWith('cfs-nice-levels', {
      name: 'nice-wakeups',
      duration_ms: 200,
      exercise: { goal: 'p99_wakeup_us', max: 100000, process: 'sleeper' },
    });
    expect(await hook<boolean>(page, 'loadScenarioJson', scenario)).toBe(true);
    await hook(page, 'runUntil', 200e6);
    const verdict = await settled(text('exercise-verdict'), (t) => t.length > 0, 20000);
    expect(verdict).toMatch(/^PASS p99 wakeup latency of sleeper: [\d.]+ µs ≤ 100000 µs\.$/);
    await page.getByTestId('exercise-panel').screenshot({ path: join(shots, 'exercise-pass.png') });

    await page.getByTestId('preset-pick').selectOption('cfs-nice-levels');
    await settled(
      () => page.getByTestId('exercise-panel').count(),
      (n) => n === 0,
      10000,
    );
  });

  it('travels in a share link: the receiver sees the exercise', async () => {
    const page = lab.page;
    const scenario = await presetWith('group-imbalance-make', {
      name: 'shared-exercise',
      duration_ms: 300,
      exercise: { goal: 'wasted_core_ms', max: 10, text: 'Waste at most 10 ms.' },
    });
    const enc = encodeShare({
      scenario,
      view: { cursor: { event: 0, ns: 0 }, cpu: 0, colourBy: 'nr_running', partner: '', lesson: null },
    });
    if (!enc.ok) throw new Error(JSON.stringify(enc.reason));
    await page.goto('about:blank');
    await page.goto(`${lab.url}#${enc.fragment}`);
    await page.getByTestId('exercise-panel').waitFor({ timeout: 20000 });
    expect(await text('exercise-task')()).toBe('Waste at most 10 ms.');
    expect(await text('exercise-goal')()).toContain('10 ms');
    expect(await hook<string>(page, 'scenarioJson')).toBe(scenario);
  });
});

describe('built-in exercises and the lesson (JavaScript policies in the page)', () => {
  it('the keep-busy exercise loads from the picker with its skeleton, which fails', async () => {
    const page = lab.page;
    await page.goto(lab.url);
    await page.getByTestId('btn-step').waitFor();
    await page.getByTestId('exercise-pick').selectOption('keep-busy');
    await page.getByTestId('exercise-panel').waitFor({ timeout: 20000 });
    expect(await page.locator('#exercise-title').textContent()).toBe('Exercise: Keep every core busy');
    expect(await page.getByTestId('exercise-pick').inputValue()).toBe('keep-busy');
    await hook(page, 'runUntil', 1000e6);
    const verdict = await settled(text('exercise-verdict'), (t) => t.length > 0, 60000);
    expect(verdict).toMatch(/^FAIL Longest idle while work waited: [\d.]+ ms > 4 ms\.$/);
    await page.screenshot({ path: join(shots, 'exercise-keep-busy-1280x720.png') });
  }, 90_000);

  it('the write-a-scheduler lesson ends on the exercise, judged', async () => {
    const page = lab.page;
    await page.getByTestId('lesson-pick').selectOption('write-a-scheduler');
    await settled(text('narration'), (t) => t.includes('sched_ext'), 30000);
    for (let i = 0; i < 6; i++) await page.getByTestId('lesson-next').click();
    await page.getByTestId('lesson-finish').waitFor({ timeout: 30000 });
    await page.getByTestId('exercise-panel').waitFor({ timeout: 60000 });
    expect(await page.getByTestId('exercise-pick').inputValue()).toBe('keep-busy');
    const verdict = await settled(text('exercise-verdict'), (t) => t.length > 0, 60000);
    expect(verdict.startsWith('FAIL')).toBe(true);
    // The last step points at the exercise panel: it is brought into view and ringed.
    const inView = () =>
      page.getByTestId('exercise-panel').evaluate((el) => {
        const r = el.getBoundingClientRect();
        return r.top >= 0 && r.top < window.innerHeight;
      });
    expect(await settled(inView, (v) => v, 5000)).toBe(true);
    expect(await page.locator('.app').getAttribute('data-lesson-panel')).toBe('exercise-panel');
    await page.screenshot({ path: join(shots, 'lesson-write-a-scheduler-end-1280x720.png') });
  }, 120_000);
});
