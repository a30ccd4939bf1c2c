// The balancing inspector in Chromium: at a decision, numbered steps and one
// sentence per group stand next to the engine's numbers.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, loadPreset, openLab, settled, shots, type Lab } from './harness';

interface Decision {
  t_ns: number;
  groups: { cpus: string; sum_nr_running: number; avg_load: number }[];
}

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(async () => lab?.close());

describe('balancing inspector', () => {
  it('explains the decision at the cursor in sentences next to its numbers', async () => {
    await loadPreset(lab.page, 'group-imbalance-make');
    await hook(lab.page, 'runUntil', 250e6);
    await lab.page.getByTestId('btn-next-decision').click();
    const [d] = await hook<Decision[]>(lab.page, 'decisions', 1);
    const insp = lab.page.getByTestId('inspector');
    await settled(
      async () => (await insp.locator('.meta').first().textContent()) ?? '',
      (t) => t.includes((d.t_ns / 1e6).toFixed(3)),
    );
    const steps = await insp.getByTestId('lb-steps').locator('li').allTextContents();
    expect(steps.length).toBeGreaterThanOrEqual(3);
    expect(steps[0]).toContain(`compares ${d.groups.length} group`);
    const words = await insp.getByTestId('group-words').allTextContents();
    expect(words).toHaveLength(d.groups.length);
    d.groups.forEach((g, i) => {
      expect(words[i]).toContain(`${g.sum_nr_running} runnable task`);
      expect(words[i]).toContain(`average load ${g.avg_load}`);
    });
    await insp.screenshot({ path: join(shots, 'inspector.png') });
  });
});
