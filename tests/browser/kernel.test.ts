// The kernel pick in the header: a preset moves to Linux 6.12 (its 4.1 bug
// switches dropped, as 6.12 runs as it ships), plays there, and is compared
// with itself on 4.1 on one clock; a scenario of today's format that says
// eevdf is labelled for what it is, EEVDF's pick on 4.1's machinery.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, loadPreset, openLab, settled, shots, type Lab } from './harness';
import { GROUP_TYPES_612 } from '../../src/views/inspector-words';

interface Decision612 {
  t_ns: number;
  migration: string | null;
  groups: { group_type: string }[];
}

interface Partner {
  nowNs: number;
  traceHash: string;
}

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1280, height: 720 });
});
afterAll(async () => lab?.close());

describe('kernel generation', () => {
  it('moves a preset to 6.12, plays it, and compares it with 4.1 on one clock', async () => {
    await loadPreset(lab.page, 'group-imbalance-make');
    const pick = lab.page.getByTestId('kernel-pick');
    expect(await pick.inputValue()).toBe('4.1');
    await pick.selectOption('6.12');
    // Loading is asynchronous: wait for the scenario the lab holds to say 6.12.
    const json = await settled(
      () => hook<string>(lab.page, 'scenarioJson'),
      (j) => (JSON.parse(j) as { kernel?: string }).kernel === '6.12',
      15000,
    );
    const s = JSON.parse(json) as { kernel?: string; bugs?: unknown };
    expect(s.kernel).toBe('6.12');
    expect(s.bugs).toBeUndefined();
    expect(await pick.inputValue()).toBe('6.12');
    await hook(lab.page, 'runUntil', 400e6);
    const r = await hook<{ migrations: number; sim_time_ns: number }>(lab.page, 'report');
    expect(r.sim_time_ns).toBe(400e6);
    expect(r.migrations).toBeGreaterThan(0);

    await lab.page.getByTestId('compare-pick').selectOption('kernel:4.1');
    await lab.page.getByTestId('compare').waitFor();
    await hook(lab.page, 'runUntil', 800e6);
    const p = await hook<Partner>(lab.page, 'partner');
    expect(p.nowNs).toBe(800e6);
    const a = await hook<{ trace_hash: string }>(lab.page, 'report');
    expect(p.traceHash).not.toBe(a.trace_hash);
    await lab.page.screenshot({ path: join(shots, 'kernel-612-compare-1280x720.png') });
    await lab.page.getByTestId('compare-pick').selectOption('');
  });

  it('stops at a 6.12 balancing decision that the inspector explains in its own terms', async () => {
    const { page } = lab;
    await loadPreset(page, 'group-imbalance-make');
    await page.getByTestId('kernel-pick').selectOption('6.12');
    await settled(
      () => hook<string>(page, 'scenarioJson'),
      (j) => (JSON.parse(j) as { kernel?: string }).kernel === '6.12',
      15000,
    );
    await hook(page, 'runUntil', 200e6);
    // Step decision by decision (each step answers once its frame is in) to the first that found an
    // imbalance: it carries a migration type. The run is deterministic, so this is always the same one.
    let d: Decision612 | undefined;
    for (let i = 0; i < 200 && !d?.migration; i++) {
      await hook(page, 'stepMarkNow', 'decision');
      [d] = await hook<Decision612[]>(page, 'decisions', 1);
    }
    if (!d?.migration) throw new Error('no 6.12 decision with an imbalance in 200 decisions');
    const at = d;
    const insp = page.getByTestId('inspector');
    await settled(
      async () => (await insp.locator('.meta').first().textContent()) ?? '',
      (t) => t.includes((at.t_ns / 1e6).toFixed(3)),
    );
    const types = await insp.getByTestId('group-type').allTextContents();
    expect(types).toEqual(at.groups.map((g) => g.group_type));
    for (const ty of types) expect(GROUP_TYPES_612 as readonly string[]).toContain(ty);
    expect(await insp.getByTestId('migration-type').textContent()).toBe(`migration type migrate_${at.migration}`);
    const steps = (await insp.getByTestId('lb-steps').locator('li').allTextContents()).join(' ');
    expect(steps).toContain(`(migrate_${at.migration})`);
    expect(steps).toMatch(/groups rank first by type \((has_spare|fully_busy|overloaded|imbalanced|smt_balance)/);
    await insp.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'inspector-612-1280x720.png') });
    await insp.screenshot({ path: join(shots, 'inspector-612.png') });
  });

  it("labels today's eevdf scenarios as EEVDF's pick on 4.1", async () => {
    await loadPreset(lab.page, 'eevdf-vs-cfs');
    const option = lab.page.getByTestId('kernel-pick').locator('option[value="4.1"]');
    const label = await settled(
      async () => (await option.textContent()) ?? '',
      (t) => t.includes('EEVDF'),
      15000,
    );
    expect(label).toContain('EEVDF pick on 4.1');
  });
});

describe('the "A decade later" lesson', () => {
  it('runs each bug scenario beside itself on 6.12, on one clock', async () => {
    const { page } = lab;
    const text = async (testId: string) => (await page.getByTestId(testId).textContent()) ?? '';
    await page.getByTestId('lesson-pick').selectOption('decade-later');
    await settled(
      () => text('lesson-step'),
      (s) => s === 'Step 1 of 7',
    );
    // The preset loads, then its partner on 6.12 is built beside it: wait for the compare panel to name it.
    const meta = await settled(
      async () => ((await page.getByTestId('compare').count()) > 0 ? await text('compare') : ''),
      (t) => t.includes('group-imbalance-make (Linux 6.12)'),
      20000,
    );
    expect(meta).toContain('group-imbalance-make (Linux 6.12)');
    expect(
      await settled(
        async () => Number(await text('sim-time')),
        (t) => t === 500,
        20000,
      ),
    ).toBe(500);
    const p = await hook<Partner>(page, 'partner');
    expect(p.nowNs).toBe(500e6);
    await page.screenshot({ path: join(shots, 'lesson-decade-later-1280x720.png') });
    // Step 3 moves to lu: its partner follows, on 6.12 again.
    await page.getByTestId('lesson-next').click();
    await page.getByTestId('lesson-next').click();
    const lu = await settled(
      () => text('compare'),
      (t) => t.includes('group-imbalance-lu (Linux 6.12)'),
      20000,
    );
    expect(lu).toContain('group-imbalance-lu (Linux 6.12)');
    await page.getByTestId('lesson-pick').selectOption('');
  });
});
