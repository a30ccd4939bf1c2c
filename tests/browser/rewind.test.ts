// Exact rewind in Chromium: one step forward and one back gives back the
// state before (the whole view and the trace hash), the next/previous
// decision, migration, tick and violation steps land on the same events both
// ways, a click on the CPU lanes jumps back in time, and ? lists the keys.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, loadPreset, openLab, settled, shots, type Lab } from './harness';

interface View {
  now_ns: number;
  events: number;
}

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(async () => lab?.close());

/** The whole engine state the views draw, plus the trace fingerprint. */
async function state(): Promise<string> {
  const v = await hook<View>(lab.page, 'view');
  return JSON.stringify(v) + (await hook<string>(lab.page, 'traceHash'));
}
const events = async () => (await hook<View>(lab.page, 'view')).events;
const shownEvents = async () => Number(await lab.page.getByTestId('event-count').textContent());
const click = (id: string) => lab.page.getByTestId(id).click();

describe('exact rewind', () => {
  it('one event forward and one back is the state before (one CPU, buttons)', async () => {
    for (let i = 0; i < 12; i++) await click('btn-step');
    const before = await state();
    const n = await events();
    await click('btn-step');
    expect(await settled(shownEvents, (e) => e === n + 1)).toBe(n + 1);
    expect(await state()).not.toBe(before);
    await click('btn-back-event');
    expect(await settled(shownEvents, (e) => e === n)).toBe(n);
    expect(await state()).toBe(before);
    expect(await lab.page.getByTestId('rb-node').count()).toBe(
      JSON.parse(before.slice(0, -16)).cpus[0].tree.nodes.length,
    );
  });

  it('one event forward and one back is the state before (64 CPUs, keys, after many snapshots)', async () => {
    await loadPreset(lab.page, 'group-imbalance-make');
    await hook(lab.page, 'runUntil', 2000e6);
    await click('btn-step');
    const before = await state();
    const n = await events();
    await lab.page.locator('body').press('ArrowRight');
    expect(await settled(shownEvents, (e) => e === n + 1)).toBe(n + 1);
    await lab.page.locator('body').press('ArrowLeft');
    expect(await settled(shownEvents, (e) => e === n)).toBe(n);
    expect(await state()).toBe(before);
  });

  for (const mark of ['decision', 'migration', 'tick']) {
    it(`next and previous ${mark} land on the same event`, async () => {
      await click(mark === 'tick' ? 'btn-tick' : `btn-next-${mark}`);
      const first = await settled(events, () => true);
      const there = await state();
      await click(mark === 'tick' ? 'btn-tick' : `btn-next-${mark}`);
      const second = await settled(events, (e) => e > first);
      expect(second).toBeGreaterThan(first);
      await click(`btn-back-${mark}`);
      expect(await settled(events, (e) => e === first)).toBe(first);
      if (mark !== 'tick') expect(await state()).toBe(there);
    });
  }

  it('the decision at the cursor is the one the inspector shows', async () => {
    await click('btn-next-decision');
    const now = (await hook<View>(lab.page, 'view')).now_ns;
    const meta = (await lab.page.getByTestId('inspector').locator('.meta').first().textContent()) ?? '';
    expect(meta).toContain(`at ${(now / 1e6).toFixed(3)} ms`);
  });

  it('steps to the next sanity-checker violation', async () => {
    await click('btn-next-violation');
    const t = await settled(
      async () => Number(await lab.page.getByTestId('sim-time').textContent()),
      (x) => x > 2000,
    );
    const report = await lab.page.evaluate(() =>
      (window as unknown as { __schedlab: { view(): unknown } }).__schedlab.view(),
    );
    expect(report).not.toBeNull();
    expect(await lab.page.getByTestId('notice').count()).toBe(0);
    expect(t).toBeGreaterThan(2000);
    await lab.page.screenshot({ path: join(shots, 'rewind-violation.png') });
  });

  it('jumps back to a clicked time on the CPU lanes, the same state as running forward to it', async () => {
    const endNow = (await hook<View>(lab.page, 'view')).now_ns;
    const box = await lab.page.getByTestId('gantt').boundingBox();
    if (!box) throw new Error('no lanes');
    await lab.page.getByTestId('gantt').click({ position: { x: box.width * 0.3, y: 10 } });
    const t = await settled(
      async () => (await hook<View>(lab.page, 'view')).now_ns,
      (x) => x < endNow,
    );
    expect(t).toBeLessThan(endNow);
    expect(t).toBeGreaterThan(endNow - 200e6);
    const jumped = await state();
    // Further back by events, then forward to the same time: the same state.
    await hook(lab.page, 'seekEvent', (await events()) - 3000);
    expect((await hook<View>(lab.page, 'view')).now_ns).toBeLessThan(t);
    await hook(lab.page, 'seekTime', t);
    expect(await state()).toBe(jumped);
  });

  it('lists the keyboard shortcuts on ?', async () => {
    await lab.page.locator('body').press('?');
    const help = lab.page.getByTestId('help');
    await help.waitFor();
    const text = (await help.textContent()) ?? '';
    for (const what of ['step one event back', 'previous migration', 'next sanity-checker violation', 'play / pause'])
      expect(text).toContain(what);
    await lab.page.screenshot({ path: join(shots, 'help-overlay.png') });
    await lab.page.locator('body').press('Escape');
    expect(
      await settled(
        () => help.count(),
        (n) => n === 0,
      ),
    ).toBe(0);
  });
});

describe('runqueue as a list', () => {
  it('shows a large queue as a list in vruntime order (60 hogs on one CPU)', async () => {
    const hogs = Array.from({ length: 60 }, (_, i) => ({
      name: `hog${i}`,
      nice: (i % 7) - 3,
      program: [{ body: [{ run_us: 1000 }] }],
    }));
    const ok = await hook<boolean>(
      lab.page,
      'loadScenarioJson',
      JSON.stringify({
        version: 1,
        name: 'many-hogs',
        duration_ms: 500,
        autogroup: false,
        machine: { preset: 'uniprocessor' },
        processes: hogs,
      }),
    );
    expect(ok).toBe(true);
    await hook(lab.page, 'runUntil', 120e6);
    await lab.page.getByTestId('rq-mode-auto').click();
    const v = await hook<{ cpus: { tree: { nodes: { vruntime: number; pid: number; name: string }[] } }[] }>(
      lab.page,
      'view',
    );
    const nodes = v.cpus[0].tree.nodes;
    expect(nodes.length).toBeGreaterThan(48);
    const rows = lab.page.getByTestId('rq-row');
    expect(
      await settled(
        () => rows.count(),
        (n) => n === nodes.length,
      ),
    ).toBe(nodes.length);
    const names = await rows.evaluateAll((els) => els.map((e) => e.children[1].textContent ?? ''));
    const sorted = [...nodes].sort((a, b) => a.vruntime - b.vruntime || a.pid - b.pid).map((n) => n.name);
    expect(names).toEqual(sorted);
    await lab.page.locator('.rbtree-panel').screenshot({ path: join(shots, 'runqueue-list.png') });
    await lab.page.getByTestId('rq-mode-tree').click();
    expect(
      await settled(
        () => lab.page.getByTestId('rq-list').count(),
        (n) => n === 0,
      ),
    ).toBe(0);
    expect(await lab.page.getByTestId('rb-node').count()).toBe(nodes.length);
  });
});
