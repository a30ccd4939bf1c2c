// Every built-in preset opens in the app, plays 100 simulated ms without an
// error, and draws its CPUs; the policy presets are screenshotted.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, loadPreset, openLab, shots, type Lab } from './harness';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(async () => lab?.close());

describe('every preset', () => {
  it('opens, plays and draws each CPU', async () => {
    const names = await lab.page
      .locator('[data-testid=preset-pick] option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(names.length).toBeGreaterThanOrEqual(17);
    for (const name of names) {
      await loadPreset(lab.page, name);
      await hook(lab.page, 'runUntil', 100e6);
      const view = await hook<{ now_ns: number; cpus: unknown[] }>(lab.page, 'view');
      expect(view.now_ns, name).toBeGreaterThan(0);
      expect(await lab.page.getByTestId('error').count(), name).toBe(0);
      if (['o1-vs-cfs', 'gi-colocation', 'eevdf-vs-cfs', 'group-imbalance-lu'].includes(name)) {
        await lab.page.waitForTimeout(300);
        await lab.page.screenshot({ path: join(shots, `preset-${name}.png`) });
      }
    }
  });
});
