// The runqueue panel under Linux 6.12 in Chromium: a preset moved to 6.12
// through the header's kernel pick draws EEVDF's queue — eligible and
// ineligible entities told apart by a mark as well as a fill, each entity's
// lag and deadline from the engine, the zero-lag point, curr and the next
// pick — and moved back to 4.1 draws the red-black tree again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, loadPreset, openLab, settled, shots, type Lab } from './harness';
import { defined } from '../defined';
import { axeViolations } from './axe';
import { fmtSignedMs } from '../../src/views/eevdf-layout';

interface Ent {
  pid: number;
  vruntime: number;
  deadline: number;
  vlag: number;
  slice: number;
  group: number | null;
  eligible: boolean;
  on_rq: boolean;
}
interface Queue {
  tg: number;
  avg_vruntime: number;
  nr_running: number;
  curr: Ent | null;
  queued: Ent[];
  pick: number | null;
}
interface View {
  now_ns: number;
  cpus: { cpu: number; eevdf: Queue[] | null; tree: { nodes: unknown[] } }[];
}

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1280, height: 720 });
});
afterAll(async () => lab?.close());

async function toKernel(k: '4.1' | '6.12') {
  await lab.page.getByTestId('kernel-pick').selectOption(k);
  await settled(
    () => hook<string>(lab.page, 'scenarioJson'),
    (j) => ((JSON.parse(j) as { kernel?: string }).kernel ?? '4.1') === k,
    15000,
  );
}

/** Whether the root queue holds an eligible and an ineligible entity (curr counted), two waiting at least. */
const mixed = (q: Queue) => {
  const all = [...q.queued, ...(q.curr?.on_rq ? [q.curr] : [])];
  return q.queued.length >= 2 && all.some((e) => e.eligible) && all.some((e) => !e.eligible);
};

describe('the runqueue panel on Linux 6.12', () => {
  it('draws the EEVDF queue: eligibility, lag, deadline, V, curr and the pick', async () => {
    const { page } = lab;
    await loadPreset(page, 'cfs-nice-levels');
    await toKernel('6.12');
    // Three hogs (nice 0, 5, 10) and a sleeper on one CPU: find a moment with both sides of V occupied.
    let v: View | null = null;
    for (let ms = 300; ms < 400; ms += 1.5) {
      await hook(page, 'runUntil', Math.round(ms * 1e6));
      v = await hook<View>(page, 'view');
      if (v && mixed(defined(v.cpus[0].eevdf)[0])) break;
    }
    const view = defined(v);
    const root = defined(view.cpus[0].eevdf)[0];
    expect(mixed(root)).toBe(true);
    const panel = page.getByTestId('eevdf-runqueue');
    await panel.waitFor();
    // The 4.1 tree is not drawn under 6.12.
    expect(await page.getByTestId('rbtree').count()).toBe(0);

    // One row per entity, curr first and the rest in the engine's (deadline) order.
    const rows = panel.getByTestId('eevdf-chart').getByTestId('eevdf-entity');
    const want = [...(root.curr ? [root.curr] : []), ...root.queued];
    const pids = await settled(
      () => rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-pid')))),
      (p) => p.join() === want.map((e) => e.pid).join(),
    );
    expect(pids).toEqual(want.map((e) => e.pid));
    const attr = (name: string) => rows.evaluateAll((els, n) => els.map((e) => e.getAttribute(n)), name);
    expect(await attr('data-eligible')).toEqual(want.map((e) => (e.eligible ? '1' : '0')));
    expect((await attr('data-eligible')).sort()).toContain('0');
    expect(await attr('data-eligible')).toContain('1');
    // Eligibility is marked by a sign as well as the bar's fill: ✓ and ✗.
    const marks = await rows.locator('.eevdf-mark').allTextContents();
    expect(marks).toEqual(want.map((e) => (e.eligible ? '✓' : '✗')));
    expect(await rows.locator('.eevdf-bar.ineligible').count()).toBe(want.filter((e) => !e.eligible).length);
    // Lag and deadline (from V) are the engine's figures.
    expect(await rows.getByTestId('eevdf-lag').allTextContents()).toEqual(want.map((e) => fmtSignedMs(e.vlag)));
    expect(await rows.getByTestId('eevdf-deadline').allTextContents()).toEqual(
      want.map((e) => fmtSignedMs(e.deadline - root.avg_vruntime)),
    );
    // curr is marked running, the pick is marked, and V is drawn and named in the header.
    if (root.curr) expect(await attr('data-running')).toEqual(want.map((e) => (e === root.curr ? '1' : '0')));
    expect(await attr('data-pick')).toEqual(want.map((e) => (e.pid === root.pick ? '1' : '0')));
    if (root.curr)
      expect(await panel.getByTestId('eevdf-curr-slice').textContent()).toContain((root.curr.slice / 1e6).toFixed(3));
    expect(await panel.getByTestId('eevdf-v').count()).toBe(1);
    expect(await panel.getByTestId('eevdf-avg').textContent()).toContain((root.avg_vruntime / 1e6).toFixed(3));
    expect(await panel.getByTestId('eevdf-pick').textContent()).toMatch(/^Next pick: /);
    expect(await panel.getByTestId('eevdf-legend').textContent()).toContain('not eligible');

    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'eevdf-queue-1280x720.png') });
    await panel.screenshot({ path: join(shots, 'eevdf-queue-panel.png') });
    await page.setViewportSize({ width: 1920, height: 1080 });
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'eevdf-queue-1920x1080.png') });

    // The panel's words go through the catalogs.
    await page.getByTestId('lang-pick').selectOption('zh');
    expect(await panel.locator('h2').textContent()).toBe('CPU 0 运行队列 — Linux 6.12 EEVDF');
    await panel.screenshot({ path: join(shots, 'eevdf-queue-zh.png') });
    await page.getByTestId('lang-pick').selectOption('en');
    await page.setViewportSize({ width: 1280, height: 720 });
    // axe-core finds nothing wrong with the page the panel is on (contrast of its figures and marks included).
    const found = await axeViolations(page);
    expect(found, found.map((v) => `${v.id}: ${v.help}\n  ${v.nodes.join('\n  ')}`).join('\n')).toEqual([]);
  });

  it('draws task-group queues after the root on a machine with autogroups', async () => {
    const { page } = lab;
    await loadPreset(page, 'group-imbalance-make');
    await toKernel('6.12');
    await hook(page, 'runUntil', 200e6);
    const panel = page.getByTestId('eevdf-runqueue');
    await panel.waitFor();
    const v = defined(await hook<View>(page, 'view'));
    const qs = defined(v.cpus[0].eevdf);
    const groups = await settled(
      () => panel.getByTestId('eevdf-group').count(),
      (n) => n === qs.length - 1,
    );
    expect(groups).toBe(qs.length - 1);
    // The curr line names the running task's own slice, not its group entity's.
    const task = qs.map((q) => q.curr).find((c) => c !== null && c.group === null);
    if (task)
      expect(await panel.getByTestId('eevdf-curr-slice').textContent()).toContain((task.slice / 1e6).toFixed(3));
    await panel.screenshot({ path: join(shots, 'eevdf-queue-groups.png') });
  });

  it('draws the red-black tree again on 4.1', async () => {
    const { page } = lab;
    await loadPreset(page, 'cfs-nice-levels');
    await toKernel('4.1');
    await hook(page, 'runUntil', 300e6);
    await page.getByTestId('rbtree').waitFor();
    expect(await page.getByTestId('eevdf-runqueue').count()).toBe(0);
    const v = defined(await hook<View>(page, 'view'));
    expect(v.cpus[0].eevdf).toBeNull();
  });
});
