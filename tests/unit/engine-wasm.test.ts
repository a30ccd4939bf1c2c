// The wasm build of the engine, loaded in Node exactly as the app loads it,
// checked against the native build (determinism across targets) and for its
// API contract (errors name fields, save/restore, stepping).
import { describe, expect, it, beforeAll } from 'vitest';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initSync, Simulator } from '../../wasm-core/pkg/schedlab_core.js';
import { PRESETS, presetText } from '../../src/engine/presets';

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'wasm-core', 'target', 'release', 'schedsim');

beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core', 'pkg', 'schedlab_core_bg.wasm')) });
});

function nativeReport(scenarioJson: string): { trace_hash: string; events: number } {
  const dir = mkdtempSync(join(tmpdir(), 'schedlab-'));
  const file = join(dir, 'scenario.json');
  writeFileSync(file, scenarioJson);
  return JSON.parse(execFileSync(cli, ['run', file, '--json'], { encoding: 'utf8' })) as {
    trace_hash: string;
    events: number;
  };
}

describe('engine in wasm', () => {
  it('lists the presets, each with a description', () => {
    const list = PRESETS;
    expect(list.map((p) => p.name)).toContain('cfs-nice-levels');
    for (const p of list) expect(p.description.length).toBeGreaterThan(20);
  });

  it('gives the same trace hash and report as the native build, twice', () => {
    for (const { name } of PRESETS) {
      const json = presetText(name);
      const hashes = [0, 1].map(() => {
        const sim = new Simulator(json);
        sim.run_until(sim.duration_ns());
        const h = sim.trace_hash();
        const metrics = sim.metrics();
        sim.free();
        return { h, metrics };
      });
      expect(hashes[0].h).toBe(hashes[1].h);
      const native = nativeReport(json);
      expect(hashes[0].h).toBe(native.trace_hash);
      expect(hashes[0].metrics).toEqual(native);
    }
  });

  it('gives the same trace hash as native under every policy and with SMT contention', () => {
    // The presets cover cfs, eevdf, o1 and Group Identity; the thread-weight
    // policies and SMT contention are only reached through variants.
    const variants: [string, (s: Record<string, unknown>) => void][] = [
      ['dw-cfs', (s) => (s.policy = { kind: 'dw-cfs', alpha: 'A' })],
      ['dw-cfs beta', (s) => (s.policy = { kind: 'dw-cfs', alpha: 'C', beta: 1.3 })],
      ['pfs', (s) => (s.policy = { kind: 'pfs' })],
      ['smt contention', (s) => (s.costs = { smt_sibling_speed_pct: 55 })],
    ];
    for (const [label, change] of variants) {
      const scenario = JSON.parse(presetText('greedy-threads')) as Record<string, unknown>;
      change(scenario);
      const json = JSON.stringify(scenario);
      const sim = new Simulator(json);
      sim.run_until(sim.duration_ns());
      const h = sim.trace_hash();
      sim.free();
      expect(h, label).toBe(nativeReport(json).trace_hash);
    }
  });

  it('rejects a malformed scenario with a message naming the field', () => {
    const bad = JSON.parse(presetText('cfs-nice-levels'));
    bad.processes[1].nice = 99;
    expect(() => new Simulator(JSON.stringify(bad))).toThrow(/processes\[1\]\.nice/);
    expect(() => new Simulator('{ not json')).toThrow(/scenario/);
  });

  it('restores a snapshot exactly', () => {
    const sim = new Simulator(presetText('cfs-nice-levels'));
    sim.run_until(50e6);
    const snap = sim.save();
    const before = sim.view_json();
    for (let i = 0; i < 100; i++) sim.step_event();
    expect(sim.view_json()).not.toBe(before);
    sim.restore(snap);
    expect(sim.view_json()).toBe(before);
    snap.free();
    sim.free();
  });

  it('exposes the tree shape: every queued task is a node, curr is not', () => {
    const sim = new Simulator(presetText('cfs-nice-levels'));
    for (let i = 0; i < 40; i++) sim.step_event();
    const view = JSON.parse(sim.view_json()) as {
      cpus: { tree: { nodes: { pid: number }[] }; nr_running: number; curr: number | null }[];
      tasks: { state: string }[];
    };
    const cpu = view.cpus[0];
    const runnable = view.tasks.filter((t: { state: string }) => t.state === 'runnable').length;
    expect(cpu.tree.nodes.length).toBe(runnable);
    expect(cpu.nr_running).toBe(runnable + (cpu.curr === null ? 0 : 1));
    expect(cpu.tree.nodes.map((n: { pid: number }) => n.pid)).not.toContain(cpu.curr);
    sim.free();
  });
});
