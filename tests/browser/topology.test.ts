// The topology view in Chromium: one CPU and 64 CPUs (8 nodes), cells that
// show the engine's runqueue length or load and current thread, node links
// with hop distances, migration arrows and the considered CPUs outlined.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, loadPreset, openLab, settled, shots, type Lab } from './harness';

interface Cpu {
  cpu: number;
  nr_running: number;
  load: number;
  curr: number | null;
}
interface View {
  now_ns: number;
  cpus: Cpu[];
  tasks: { name: string }[];
}

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(async () => lab?.close());

const cells = () => lab.page.getByTestId('cpu-cell');

async function cellValues(): Promise<number[]> {
  return cells().evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))));
}

describe('topology view', () => {
  it('draws one CPU with the thread it runs', async () => {
    for (let i = 0; i < 5; i++) await lab.page.getByTestId('btn-step').click();
    const v = await hook<View>(lab.page, 'view');
    expect(await cells().count()).toBe(1);
    expect(await lab.page.getByTestId('node-link').count()).toBe(0);
    const curr = v.cpus[0].curr;
    expect(curr).not.toBeNull();
    const label = await settled(
      async () => (await cells().first().locator('.cpu-curr').textContent()) ?? '',
      (t) => t !== 'idle',
    );
    expect(v.tasks[curr as number].name.startsWith(label.replace('…', ''))).toBe(true);
    expect(await cellValues()).toEqual([v.cpus[0].nr_running]);
    await lab.page.getByTestId('topology').screenshot({ path: join(shots, 'topology-1cpu.png') });
  });

  it('draws 8 nodes × 8 CPUs coloured by the engine, with links, arrows and the decision focus', async () => {
    await loadPreset(lab.page, 'group-imbalance-make');
    await hook(lab.page, 'runUntil', 300e6);
    await settled(
      () => cells().count(),
      (n) => n === 64,
    );
    expect(await cells().count()).toBe(64);
    expect(await lab.page.locator('.numa-node').count()).toBe(8);
    expect(await lab.page.getByTestId('node-link').count()).toBe(28);
    const v = await hook<View>(lab.page, 'view');
    expect(await settled(cellValues, (x) => x[0] === v.cpus[0].nr_running)).toEqual(v.cpus.map((c) => c.nr_running));
    // Arrows: as many as the engine's migrations in the window (at most 32).
    const migr = await hook<unknown[]>(lab.page, 'migrations', v.now_ns - 20e6, 32);
    expect(migr.length).toBeGreaterThan(0);
    expect(await lab.page.getByTestId('migration-arrow').count()).toBe(migr.length);
    // The focus: the outlined CPUs are those of the latest decision.
    const caption = (await lab.page.getByTestId('focus-caption').textContent()) ?? '';
    expect(caption).toMatch(/ms — (load balancing over CPUs|wakeup of|fork of)/);
    expect(await lab.page.locator('.cpu-cell.considered').count()).toBeGreaterThan(0);
    await lab.page.waitForTimeout(200);
    await lab.page.getByTestId('topology').screenshot({ path: join(shots, 'topology-64cpu.png') });
    // Colour by load: the cells now carry the engine's load.
    await lab.page.getByTestId('colour-load').click();
    expect(await settled(cellValues, (x) => x[0] === v.cpus[0].load)).toEqual(v.cpus.map((c) => c.load));
    await lab.page.getByTestId('topology').screenshot({ path: join(shots, 'topology-64cpu-load.png') });
    // Clicking a CPU selects its runqueue.
    await cells().nth(17).click();
    expect(
      await settled(
        async () => lab.page.locator('.cpu-pick select').inputValue(),
        (s) => s === '17',
      ),
    ).toBe('17');
  });
});
