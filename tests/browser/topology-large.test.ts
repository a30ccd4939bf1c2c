// Issue 19 item 10: a 64-node × 16-core machine fits its panel. The lab draws
// it a node per cell (no node box overlapping another, the drawing no wider
// than the panel, every cell inside it); a click opens a node's CPUs; the
// compare view's two machines fit their halves. Screenshots at 1280×900 and
// 1280×720.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { hook, openLab, settled, shots, type Lab } from './harness';
import { bigScenario } from './big-machine';

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(async () => lab?.close());

const boxes = (l: Locator): Promise<Box[]> =>
  l.evaluateAll((els) =>
    els.map((e) => {
      const r = e.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    }),
  );
const overlap = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
const inside = (a: Box, b: Box) =>
  a.x >= b.x - 0.5 &&
  a.y >= b.y - 0.5 &&
  a.x + a.width <= b.x + b.width + 0.5 &&
  a.y + a.height <= b.y + b.height + 0.5;

/** The machine drawn in `panel` fits it: the SVG no wider than the panel, no node over another, every cell inside. */
async function expectFits(panel: Locator): Promise<void> {
  const p = await panel.boundingBox();
  const svg = await panel.getByTestId(/topology-svg$/).boundingBox();
  if (!p || !svg) throw new Error('no topology panel');
  expect(svg.width).toBeLessThanOrEqual(p.width);
  expect(svg.x + svg.width).toBeLessThanOrEqual(p.x + p.width);
  const nodes = await boxes(panel.locator('.numa-node > rect'));
  expect(nodes.length).toBeGreaterThanOrEqual(64);
  for (let i = 0; i < nodes.length; i++)
    for (let j = i + 1; j < nodes.length; j++) expect(overlap(nodes[i], nodes[j])).toBe(false);
  for (const c of [...nodes, ...(await boxes(panel.locator('.node-cell > rect, .cpu-cell > rect')))])
    expect(inside(c, p)).toBe(true);
}

describe('a 64-node × 16-core machine', () => {
  it('fits the lab panel as a node per cell, and a click opens a node', async () => {
    const page = lab.page;
    expect(await hook<boolean>(page, 'loadScenarioJson', bigScenario(64, 16, 2000, 'wide-64x16'))).toBe(true);
    await settled(
      async () => (await page.locator('.description').textContent()) ?? '',
      (t) => t.includes('wide-64x16'),
      20000,
    );
    await hook(page, 'runUntil', 20e6);
    const topo = page.getByTestId('topology');
    expect(await topo.getAttribute('data-layout')).toBe('nodes');
    expect(await topo.getByTestId('node-cell').count()).toBe(64);
    expect(await topo.getByTestId('cpu-cell').count()).toBe(0);
    await expectFits(topo);
    // A node's cell shows its CPUs' mean (runqueue length here).
    const v = await hook<{ cpus: { nr_running: number }[] }>(page, 'view');
    const mean5 = v.cpus.slice(5 * 16, 6 * 16).reduce((s, c) => s + c.nr_running, 0) / 16;
    expect(Number(await topo.locator('[data-testid=node-cell][data-node="5"]').getAttribute('data-value'))).toBeCloseTo(
      mean5,
      6,
    );
    await page.screenshot({ path: join(shots, 'topology-64x16-1280x900.png') });

    // Drill down: node 5's 16 CPUs, below the nodes, clickable.
    await topo.locator('[data-testid=node-cell][data-node="5"]').click();
    await settled(
      () => topo.getByTestId('cpu-cell').count(),
      (n) => n === 16,
    );
    expect(
      await topo.getByTestId('cpu-cell').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-cpu')))),
    ).toEqual(Array.from({ length: 16 }, (_, i) => 80 + i));
    await expectFits(topo);
    const cpus = await boxes(topo.locator('.cpu-cell > rect'));
    for (const n of await boxes(topo.locator('.numa-node:not(.open-node) > rect')))
      for (const c of cpus) expect(overlap(n, c)).toBe(false);
    await topo.locator('[data-testid=cpu-cell][data-cpu="83"]').click();
    expect(
      await settled(
        () => page.locator('.cpu-pick select').inputValue(),
        (s) => s === '83',
      ),
    ).toBe('83');
    await topo.screenshot({ path: join(shots, 'topology-64x16-open.png') });

    await page.setViewportSize({ width: 1280, height: 720 });
    await page.waitForTimeout(200);
    await expectFits(topo);
    await page.screenshot({ path: join(shots, 'topology-64x16-1280x720.png') });
    await topo.getByTestId('topo-close-node').click();
    await settled(
      () => topo.getByTestId('cpu-cell').count(),
      (n) => n === 0,
    );
  }, 60000);

  it('fits both halves of the compare view', async () => {
    const page = lab.page;
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.getByTestId('compare-pick').selectOption('bugs:linux-4.1-fixed');
    const b = page.getByTestId('compare-topo-b-view');
    await b.waitFor({ timeout: 20000 });
    for (const id of ['compare-topo-a', 'compare-topo-b']) {
      const half = await page.getByTestId(id).boundingBox();
      const view = page.getByTestId(`${id}-view`);
      const svg = await view.getByTestId('topology-svg').boundingBox();
      if (!half || !svg) throw new Error(`no ${id}`);
      expect(svg.width).toBeLessThanOrEqual(half.width);
      await expectFits(view);
    }
    await page.getByTestId('compare-topology').scrollIntoViewIfNeeded();
    await page.getByTestId('compare-topology').screenshot({ path: join(shots, 'topology-64x16-compare.png') });
  }, 60000);
});
