// Policy-specific runqueue panels in Chromium: the O(1) scheduler's active
// and expired arrays with their bitmaps (and no CFS tree), Group Identity's
// underclass tree beside the normal one, and compare mode's two machines.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, loadPreset, openLab, settled, shots, type Lab } from './harness';
import { defined } from '../defined';

interface Tree {
  nodes: { pid: number }[];
}
interface O1Array {
  nr_active: number;
  bitmap: number[];
  levels: { prio: number; tasks: { pid: number }[] }[];
}
interface Cpu {
  cpu: number;
  nr_running: number;
  under: Tree | null;
  o1: { active: O1Array; expired: O1Array; switches: number } | null;
  groups: { under: Tree | null }[];
}
interface View {
  cpus: Cpu[];
}

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1400, height: 1000 });
});
afterAll(async () => lab?.close());

const bits = (which: string) =>
  lab.page
    .getByTestId(`o1-array-${which}`)
    .locator('[data-testid=o1-bit][data-set="1"]')
    .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-prio'))));

describe('O(1) priority arrays', () => {
  it('shows the active and expired arrays, their bitmaps and lists from the engine, and no CFS tree', async () => {
    await loadPreset(lab.page, 'o1-vs-cfs');
    await hook(lab.page, 'runUntil', 750e6);
    await lab.page.getByTestId('btn-step').click();
    await lab.page.getByTestId('o1-runqueue').waitFor();
    const v = await hook<View>(lab.page, 'view');
    const o1 = defined(v.cpus[0].o1);
    expect(o1).not.toBeNull();
    expect(
      await settled(
        () => bits('active'),
        (b) => b.join() === o1.active.bitmap.join(),
      ),
    ).toEqual(o1.active.bitmap);
    expect(await bits('expired')).toEqual(o1.expired.bitmap);
    expect(await lab.page.getByTestId('o1-bit').count()).toBe(280);
    // Only non-empty lists are drawn, each with its tasks in queue order.
    const levels = lab.page.getByTestId('o1-array-active').getByTestId('o1-level');
    expect(await levels.count()).toBe(o1.active.levels.length);
    for (const [i, l] of o1.active.levels.entries()) {
      expect(Number(await levels.nth(i).getAttribute('data-prio'))).toBe(l.prio);
      const pids = await levels
        .nth(i)
        .getByTestId('o1-task')
        .evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-pid'))));
      expect(pids).toEqual(l.tasks.slice(0, 7).map((t) => t.pid));
    }
    expect(o1.active.nr_active + o1.expired.nr_active).toBeGreaterThan(0);
    expect(await lab.page.getByTestId('o1-switch').textContent()).toContain(String(o1.switches));
    // Under O(1) the (empty) CFS tree is not shown.
    expect(await lab.page.getByTestId('rbtree').count()).toBe(0);
    expect(await lab.page.getByTestId('nr-in-tree').count()).toBe(0);
    await lab.page.getByTestId('o1-runqueue').screenshot({ path: join(shots, 'o1-arrays.png') });
    // The panel's text goes through the message catalogs.
    await lab.page.getByTestId('lang-pick').selectOption('zh');
    expect(await lab.page.getByTestId('o1-runqueue').locator('h2').textContent()).toBe(
      'CPU 0 运行队列 — O(1) 优先级数组',
    );
    await lab.page.getByTestId('o1-runqueue').screenshot({ path: join(shots, 'o1-arrays-zh.png') });
    await lab.page.getByTestId('lang-pick').selectOption('en');
  });

  it('follows an array switch: the expired array becomes the active one', async () => {
    const before = defined((await hook<View>(lab.page, 'view')).cpus[0].o1).switches;
    let v = await hook<View>(lab.page, 'view');
    for (let i = 0; i < 4000 && defined(v.cpus[0].o1).switches === before; i++) {
      await hook(lab.page, 'stepEvent');
      if (i % 20 === 0) v = await hook<View>(lab.page, 'view');
    }
    v = await hook<View>(lab.page, 'view');
    expect(defined(v.cpus[0].o1).switches).toBeGreaterThan(before);
    const o1 = defined(v.cpus[0].o1);
    expect(
      await settled(
        () => bits('active'),
        (b) => b.join() === o1.active.bitmap.join(),
      ),
    ).toEqual(o1.active.bitmap);
  });
});

describe('Group Identity underclass tree', () => {
  it('draws the underclass tree beside the normal tree, with a label', async () => {
    await loadPreset(lab.page, 'gi-colocation');
    await hook(lab.page, 'runUntil', 200e6);
    let v = await hook<View>(lab.page, 'view');
    // A CPU whose underclass trees (root or group) hold waiting entities.
    let cpu = v.cpus.find(
      (c) => (c.under?.nodes.length ?? 0) > 0 && c.groups.some((g) => (g.under?.nodes.length ?? 0) > 0),
    );
    for (let i = 0; !cpu && i < 40; i++) {
      await hook(lab.page, 'runUntil', 200e6 + (i + 1) * 5e6);
      v = await hook<View>(lab.page, 'view');
      cpu = v.cpus.find((c) => (c.under?.nodes.length ?? 0) > 0);
    }
    expect(cpu).toBeDefined();
    await lab.page.locator('.cpu-pick select').selectOption(String(defined(cpu).cpu));
    await lab.page.getByTestId('under-tree').waitFor();
    expect(v.cpus.every((c) => c.under !== null)).toBe(true);
    const under = lab.page.getByTestId('under-tree');
    expect(await under.textContent()).toContain('underclass tree');
    const pids = await settled(
      () => under.getByTestId('rb-under-node').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-pid')))),
      (p) => p.length === defined(defined(cpu).under).nodes.length,
    );
    expect(pids.sort()).toEqual(
      defined(defined(cpu).under)
        .nodes.map((n) => n.pid)
        .sort(),
    );
    // Beside, not below: the two trees share a row.
    const a = await lab.page.getByTestId('rbtree').boundingBox();
    const b = await under.boundingBox();
    expect(defined(b).x).toBeGreaterThan(defined(a).x + 100);
    await lab.page.locator('.rbtree-panel').screenshot({ path: join(shots, 'gi-underclass-tree.png') });
  });
});

describe('compare mode machines', () => {
  it('shows both topologies side by side on one clock', async () => {
    await loadPreset(lab.page, 'group-imbalance-make');
    await lab.page.getByTestId('compare-pick').selectOption('bugs:linux-4.1-fixed');
    await lab.page.getByTestId('compare-topology').waitFor();
    await hook(lab.page, 'runUntil', 600e6);
    await lab.page.getByTestId('btn-step').click();
    const a = lab.page.getByTestId('compare-topo-a');
    const b = lab.page.getByTestId('compare-topo-b');
    expect(await a.getByTestId('cpu-cell').count()).toBe(64);
    expect(await b.getByTestId('cpu-cell').count()).toBe(64);
    const p = await hook<{ nowNs: number }>(lab.page, 'partner');
    const v = await hook<View & { now_ns: number }>(lab.page, 'view');
    expect(p.nowNs).toBe(v.now_ns);
    const values = (loc: typeof a) =>
      loc.getByTestId('cpu-cell').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-value'))));
    expect(
      await settled(
        () => values(a),
        (x) => x.join() === v.cpus.map((c) => c.nr_running).join(),
      ),
    ).toEqual(v.cpus.map((c) => c.nr_running));
    const ba = await a.boundingBox();
    const bb = await b.boundingBox();
    expect(Math.abs(defined(ba).y - defined(bb).y)).toBeLessThan(5);
    expect(defined(bb).x).toBeGreaterThan(defined(ba).x + defined(ba).width - 5);
    await lab.page.getByTestId('compare-topology').screenshot({ path: join(shots, 'compare-topology.png') });
  });
});
