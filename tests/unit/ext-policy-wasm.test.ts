// sched_ext policies in the wasm engine, run by this JavaScript engine (V8,
// as in Chromium) through the worker's policy host: the same trace hash as
// boa natively for every starter and for each way a policy ends, the
// policy's line in its errors, and rewinding by replay.
import { describe, expect, it, beforeAll } from 'vitest';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initSync, Simulator } from '../../wasm-core/pkg/schedlab_core.js';
import { presetText } from '../../src/engine/presets';
import { installPolicyHost } from '../../src/engine/policy-host';

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'wasm-core', 'target', 'release', 'schedsim');
const starter = (name: string) => readFileSync(join(root, 'wasm-core', 'policies', `${name}.js`), 'utf8');

beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core', 'pkg', 'schedlab_core_bg.wasm')) });
  installPolicyHost();
});

interface Report {
  trace_hash: string;
  events: number;
  sim_time_ns: number;
  notes: string[];
}

/** The 64-CPU Group Imbalance preset for `ms` under a policy. */
function scenario(source: string, ms: number, extra: Record<string, unknown> = {}): string {
  const s = JSON.parse(presetText('group-imbalance-make')) as Record<string, unknown>;
  s.policy = { kind: 'ext', source, ...extra };
  s.duration_ms = ms;
  return JSON.stringify(s);
}

function native(json: string): Report {
  const dir = mkdtempSync(join(tmpdir(), 'schedlab-ext-'));
  const file = join(dir, 'scenario.json');
  writeFileSync(file, json);
  // A run whose policy failed still prints its report, and exits 3 (0 otherwise).
  const r = spawnSync(cli, ['run', file, '--json'], { encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 3) throw new Error(`schedsim exited ${String(r.status)}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Report;
}

function wasm(json: string): Report {
  const sim = new Simulator(json);
  sim.run_until(sim.duration_ns());
  const r = sim.metrics() as Report;
  sim.free();
  return r;
}

describe('sched_ext policies in wasm', () => {
  it('every starter gives the trace hash boa gives natively', () => {
    for (const name of ['global-fifo', 'percpu-rr', 'weighted-vtime', 'keep-busy-skeleton']) {
      const json = scenario(starter(name), 300);
      const page = wasm(json);
      expect(
        page.notes.filter((n) => n.includes('sched_ext')),
        name,
      ).toEqual([]);
      expect(page.sim_time_ns, name).toBe(300e6);
      expect(page.trace_hash, name).toBe(native(json).trace_hash);
    }
  });

  it('stops an endless loop in its callback, naming the line, where boa stops it', () => {
    const src = 'function dispatch(cpu, prev) {\n  if (scx.now() > 5000000) {\n    while (true) {}\n  }\n}\n';
    const json = scenario(src, 1000);
    const page = wasm(json);
    const note = page.notes.find((n) => n.includes('policy failed'));
    expect(note).toMatch(/dispatch: a loop went round 10000000 times.*\(line 3\)/);
    expect(page.sim_time_ns).toBeLessThan(1000e6);
    const cli = native(json);
    expect(cli.sim_time_ns).toBe(page.sim_time_ns);
    expect(cli.trace_hash).toBe(page.trace_hash);
  });

  it('names the line of an exception and of a syntax error', () => {
    const thrown = wasm(scenario('function tick(p) {\n  if (scx.now() > 3000000) p.nothing.here = 1;\n}\n', 1000));
    expect(thrown.notes.join('\n')).toMatch(/tick: .*(undefined|nothing).*\(line 2\)/);
    const syntax = wasm(scenario('function enqueue(p) {\n  scx.dsq_insert(p, scx.DSQ_GLOBAL,, 1);\n}\n', 100));
    expect(syntax.notes.join('\n')).toMatch(/does not load: SyntaxError: .*\(line 2\)/);
  });

  it('gives a policy no clock, no unseeded random source and strict mode, as boa does', () => {
    const cases: [string, RegExp][] = [
      [
        'function enqueue(p, f) { scx.dsq_insert(p, scx.DSQ_GLOBAL, Date.now(), f); }',
        /enqueue: Date is not available/,
      ],
      [
        'function select_cpu(p, prev, f) { return Math.floor(Math.random() * 2); }',
        /select_cpu: .*use scx\.random\(\)/,
      ],
      ['function tick(p) { lastSeen = p.pid; }', /tick: .*lastSeen/],
      ['function init() { fetch("https://example.org/?" + 1); }', /fetch is not available/],
    ];
    for (const [src, words] of cases) {
      const json = scenario(src, 100);
      const page = wasm(json);
      expect(page.notes.join('\n'), src).toMatch(words);
      expect(page.trace_hash, src).toBe(native(json).trace_hash);
    }
  });

  it('trips the watchdog on a starved task as boa does', () => {
    const src =
      'function init() { scx.create_dsq(7); }\n' +
      'function enqueue(p, f) { scx.dsq_insert(p, p.pid === 2 ? 7 : scx.DSQ_GLOBAL, scx.SLICE_DFL, f); }\n';
    const json = scenario(src, 500, { watchdog_ms: 100 });
    const page = wasm(json);
    expect(page.notes.join('\n')).toMatch(/watchdog: runnable task R2 \(pid 2\).*fair class/);
    expect(page.trace_hash).toBe(native(json).trace_hash);
  });

  it('rewinds a policy run by replay: back and forth, save and restore', () => {
    const json = scenario(starter('weighted-vtime'), 200);
    const straight = (events: number): string => {
      const s = new Simulator(json);
      s.seek_event(events);
      const v = s.view_json();
      s.free();
      return v;
    };
    const sim = new Simulator(json);
    sim.run_until(150e6);
    const far = sim.events();
    // The clock stands at 150 ms, past the last event: a restore comes back to it.
    const here = sim.view_json();
    const snap = sim.save();
    sim.seek_event(Math.floor(far / 3));
    expect(sim.view_json()).toBe(straight(Math.floor(far / 3)));
    sim.seek_event(far);
    expect(sim.view_json()).toBe(straight(far));
    sim.restore(snap);
    expect(sim.view_json()).toBe(here);
    snap.free();
    sim.free();
  });
});
