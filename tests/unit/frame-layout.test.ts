// The page reads a frame's per-CPU array in the order the engine writes it,
// and a frame read in one call shows what the separate views show.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { frameCpuFields, initSync } from '../../wasm-core/pkg/schedlab_core.js';
import { Simulation, presetJson } from '../../src/engine/engine';
import { CPU_FIELDS, inflateFrame, readFrame, transferables, type FrameQuery } from '../../src/engine/frame';
import { sliceCount } from '../../src/engine/run-slices';

const root = join(import.meta.dirname, '..', '..');
beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core', 'pkg', 'schedlab_core_bg.wasm')) });
});

const query: FrameQuery = {
  cpu: 2,
  gantt: { spanNs: 50e6, endNs: null },
  report: false,
  rows: 0,
  history: false,
  held: { gen: -1, names: 0, historyKey: null },
  partner: null,
};

describe('a frame in one engine call', () => {
  it('reads the per-CPU numbers in the order the engine writes them', () => {
    expect([...CPU_FIELDS]).toEqual(frameCpuFields());
  });

  it('inflates every CPU, the queried one with its trees, and hands over every array it carries', () => {
    const sim = new Simulation(presetJson('group-imbalance-make'));
    sim.runUntil(40e6);
    const posted = readFrame({ sim, gen: 1 }, query, { sim, gen: 1 });
    const f = inflateFrame(posted);
    const nr = sim.shape().nrCpus;
    expect(f.view.cpus.map((c) => c.cpu)).toEqual([...Array(nr).keys()]);
    // The frame's counters are the ones the classroom's plain view reads.
    const plain = sim.frame(2);
    expect(f.view.cpus.map((c) => [c.curr, c.nr_running, c.load, c.online])).toEqual(
      plain.cpus.map((c) => [c.curr, c.nr_running, c.load, c.online]),
    );
    expect(f.view.cpus[2].tree.nodes.length).toBe(plain.cpus[2].tree.nodes.length);
    expect(f.ganttT1Ns - f.ganttT0Ns).toBe(50e6);
    expect(sliceCount(f.slices)).toBeGreaterThan(0);
    // A fresh load gets its history and names; the partner, the same machine without lanes.
    expect(f.history?.nrRunning.length).toBe((f.history?.buckets ?? 0) * nr);
    expect(f.newNames.length).toBe(sim.namesFrom(0).length);
    expect(f.partner?.view.cpus.length).toBe(nr);
    const buffers = transferables(posted);
    expect(buffers).toContain(posted.main.cpus.buffer);
    expect(buffers).toContain(posted.main.slices.buffer);
    expect(buffers).toContain(posted.main.history?.load.buffer);
    expect(new Set(buffers).size).toBe(buffers.length);
    sim.dispose();
  });
});
