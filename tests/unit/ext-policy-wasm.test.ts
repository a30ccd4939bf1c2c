// sched_ext policies in the wasm engine, run by the policy guest (boa and the
// CLI's limits, compiled to wasm) through the worker's policy host: the same
// trace hash and the same words as `schedsim run` for every starter and for
// each way a policy ends, and rewinding by replay.
import { describe, expect, it, beforeAll } from 'vitest';
import { Simulator } from '../../wasm-core/pkg/schedlab_core.js';
import { policyScenario, runInWasm, runNatively, startPolicyEngine, starter } from './policy-engine';

beforeAll(startPolicyEngine);

const scenario = policyScenario;
const native = runNatively;
const wasm = runInWasm;

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

  it('stops an endless loop in its callback at the step limit, where and as the CLI stops it', () => {
    const src = 'function dispatch(cpu, prev) {\n  if (scx.now() > 5000000) {\n    while (true) {}\n  }\n}\n';
    const json = scenario(src, 1000);
    const page = wasm(json);
    const note = page.notes.find((n) => n.includes('policy failed'));
    expect(note).toMatch(/dispatch: the policy went past 2000000 steps in one callback/);
    expect(page.sim_time_ns).toBeLessThan(1000e6);
    const cli = native(json);
    expect(cli.sim_time_ns).toBe(page.sim_time_ns);
    expect(cli.notes).toEqual(page.notes);
    expect(cli.trace_hash).toBe(page.trace_hash);
  });

  it("names an exception's callback, and a syntax error's line, in the CLI's words", () => {
    const thrownJson = scenario('function tick(p) {\n  if (scx.now() > 3000000) p.nothing.here = 1;\n}\n', 1000);
    const thrown = wasm(thrownJson);
    expect(thrown.notes.join('\n')).toMatch(/tick: .*(undefined|null)/);
    expect(thrown.notes).toEqual(native(thrownJson).notes);
    const syntaxJson = scenario('function enqueue(p) {\n  scx.dsq_insert(p, scx.DSQ_GLOBAL,, 1);\n}\n', 100);
    const syntax = wasm(syntaxJson);
    expect(syntax.notes.join('\n')).toMatch(/does not load: SyntaxError: .*line 2/);
    expect(syntax.notes).toEqual(native(syntaxJson).notes);
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
