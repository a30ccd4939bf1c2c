// Play's requests in the worker: a run-until bounded in wall time stops
// after at least one event, and the pieces add up to one uninterrupted
// run-until (same events, trace hash and clock).
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initSync } from '../../wasm-core/pkg/schedlab_core.js';
import { Simulation, presetJson } from '../../src/engine/engine';
import { runBounded } from '../../src/engine/bounded-run';

const root = join(import.meta.dirname, '..', '..');
beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core', 'pkg', 'schedlab_core_bg.wasm')) });
});

describe('a bounded run-until', () => {
  it('with no time to spend still moves one event at a time, and the pieces equal one run-until', () => {
    const to = 30e6;
    const whole = new Simulation(presetJson('group-imbalance-make'));
    whole.runUntil(to);
    const pieces = new Simulation(presetJson('group-imbalance-make'));
    let calls = 0;
    let events = 0;
    while (!runBounded(pieces, to, 0)) {
      calls++;
      expect(pieces.events).toBe(events + 1);
      events = pieces.events;
    }
    expect(calls).toBeGreaterThan(10);
    expect(pieces.events).toBe(whole.events);
    expect(pieces.traceHash()).toBe(whole.traceHash());
    expect(pieces.nowNs).toBe(to);
    whole.dispose();
    pieces.dispose();
  });

  it('with time to spend gets there in one call', () => {
    const sim = new Simulation(presetJson('cfs-nice-levels'));
    expect(runBounded(sim, 5e6, 60000)).toBe(true);
    expect(sim.nowNs).toBe(5e6);
    sim.dispose();
  });
});
