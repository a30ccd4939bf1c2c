// The exported trace (Chrome / Perfetto trace JSON, made by the wasm engine)
// validates against a JSON Schema of the Chrome Trace Event Format written
// from the format's documentation, and the schema rejects broken events (so
// the validation can fail). Also: the metrics CSV from the same build.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { initSync, Simulator } from '../../wasm-core/pkg/schedlab_core.js';
import { presetText } from '../../src/engine/presets';
import { defined } from '../defined';

const root = join(import.meta.dirname, '..', '..');
const schema = JSON.parse(readFileSync(join(import.meta.dirname, 'chrome-trace.schema.json'), 'utf8'));
const validate = new Ajv({ allErrors: true, strict: false }).compile(schema);

interface Ev {
  name: string;
  ph: string;
  ts: number;
  pid: number;
  tid: number;
  dur?: number;
  s?: string;
  args?: Record<string, unknown>;
}
interface Trace {
  traceEvents: Ev[];
  otherData: Record<string, string>;
}

beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core', 'pkg', 'schedlab_core_bg.wasm')) });
});

/** The export at `tNs`: the trace parsed, and the fields the engine gives with it. */
function exportAt(
  preset: string,
  tNs: number,
): { trace: Trace; events: number; cutAtNs: number | undefined; sim: Simulator } {
  const sim = new Simulator(presetText(preset));
  sim.run_until(tNs);
  const e = sim.chrome_trace();
  const out = { trace: JSON.parse(e.json) as Trace, events: e.events, cutAtNs: e.truncated_at_ns, sim };
  e.free();
  return out;
}

describe('Perfetto / Chrome trace export', () => {
  it('validates against the Trace Event Format schema and holds slices, instants, counters and names', () => {
    // 300 ms: make's first jobs have exited and woken their parents.
    const { trace, events, cutAtNs, sim } = exportAt('group-imbalance-make', 300e6);
    const ok = validate(trace);
    expect(validate.errors ?? [], JSON.stringify(validate.errors?.slice(0, 3))).toEqual([]);
    expect(ok).toBe(true);
    const by = (ph: string) => trace.traceEvents.filter((e) => e.ph === ph);
    expect(by('X').length).toBeGreaterThan(100);
    expect(by('i').some((e) => e.name === 'sched_migrate_task')).toBe(true);
    expect(by('i').some((e) => e.name === 'sched_wakeup')).toBe(true);
    expect(by('C').some((e) => e.name === 'nr_running')).toBe(true);
    const cpus = JSON.parse(sim.view_json()).cpus.length as number;
    const names = by('M')
      .filter((e) => e.name === 'process_name')
      .map((e) => e.args?.name);
    expect(names).toContain('CPU 0');
    expect(names).toContain(`CPU ${cpus - 1}`);
    // The replay reached the cursor: same state as the live run.
    expect(trace.otherData.trace_hash).toBe(sim.trace_hash());
    expect(Math.max(...by('X').map((e) => e.ts + (e.dur ?? 0)))).toBeCloseTo(300e3, 0);
    expect(cutAtNs).toBeUndefined();
    expect(events).toBe(trace.traceEvents.length);
    sim.free();
  });

  it('stops at its cap on a long busy run and says where', () => {
    const { trace, events, cutAtNs, sim } = exportAt('gi-colocation', 1000e6);
    expect(validate(trace)).toBe(true);
    // The fields say where the cap cut it, as the text's own note does.
    expect(cutAtNs).toBeGreaterThan(0);
    expect(cutAtNs).toBeLessThan(1000e6);
    expect(events).toBe(trace.traceEvents.length);
    expect(trace.otherData.truncated).toContain(`ms after ${events} trace events`);
    expect(trace.traceEvents.length).toBeLessThan(500_100);
    // Cut before the cursor: the last slice ends before it.
    expect(Math.max(...trace.traceEvents.filter((e) => e.ph === 'X').map((e) => e.ts + (e.dur ?? 0)))).toBeLessThan(
      1000e3,
    );
    sim.free();
  });

  it('rejects deliberately broken events', () => {
    const good: Ev = { name: 'hog', ph: 'X', ts: 1.5, dur: 2, pid: 1, tid: 1, args: { pid: 3 } };
    expect(validate({ traceEvents: [good] })).toBe(true);
    const broken: unknown[] = [
      { ...good, dur: undefined }, // X without dur
      { ...good, ts: '1.5' }, // ts not a number
      { ...good, pid: undefined }, // no pid
      { ...good, ph: 'i', s: 'x', dur: undefined }, // bad instant scope
      { name: 'nr_running', ph: 'C', ts: 0, pid: 1, tid: 1, args: { nr_running: 'two' } }, // counter not numeric
      { name: 'process_name', ph: 'M', ts: 0, pid: 1, tid: 1, args: {} }, // metadata without args.name
      { name: 'process_sort_index', ph: 'M', ts: 0, pid: 1, tid: 1, args: { sort_index: 'a' } },
    ];
    for (const b of broken) expect(validate({ traceEvents: [good, b] }), JSON.stringify(b)).toBe(false);
    expect(validate({ events: [good] })).toBe(false);
  });

  it('gives the same trace twice and escapes untrusted names', () => {
    const scenario = JSON.parse(presetText('cfs-nice-levels'));
    // Names hold no control characters or '/' (the engine refuses them); quotes, backslashes and markup remain.
    scenario.processes[0].name = 'a"b<script>\\=1+2';
    const json = JSON.stringify(scenario);
    const texts = [0, 1].map(() => {
      const sim = new Simulator(json);
      sim.run_until(30e6);
      const e = sim.chrome_trace();
      const t = e.json;
      e.free();
      sim.free();
      return t;
    });
    expect(texts[0]).toBe(texts[1]);
    const trace = JSON.parse(texts[0]) as Trace;
    expect(validate(trace)).toBe(true);
    expect(trace.traceEvents.some((e) => e.ph === 'X' && e.name === 'a"b<script>\\=1+2')).toBe(true);
  });
});

describe('metrics CSV export', () => {
  it('has the three tables, the report figures and defused names', () => {
    const scenario = JSON.parse(presetText('cfs-nice-levels'));
    scenario.processes[1].name = '=HYPERLINK("x","y")';
    const sim = new Simulator(JSON.stringify(scenario));
    sim.run_until(500e6);
    const csv = sim.metrics_csv();
    const report = sim.metrics() as {
      trace_hash: string;
      processes: { name: string; cpu_time_ns: number }[];
      cpus: unknown[];
    };
    const [head, procs, cpus] = csv.trim().split('\n\n');
    expect(head.split('\n')[0]).toBe('metric,value');
    expect(head).toContain(`trace_hash,${report.trace_hash}`);
    const rows = procs.split('\n');
    expect(rows[0].split(',')).toEqual([
      'process',
      'tgid',
      'threads',
      'completion_ms',
      'cpu_time_ms',
      'share',
      'wait_ms',
      'wakeups',
      'wakeup_p50_us',
      'wakeup_p95_us',
      'wakeup_p99_us',
      'wakeup_max_us',
      'nvcsw',
      'nivcsw',
      'migrations',
    ]);
    expect(rows).toHaveLength(1 + report.processes.length);
    expect(rows[2].startsWith('"\'=HYPERLINK(""x"",""y"")",')).toBe(true);
    const hog = defined(rows.find((r) => r.startsWith('hog-nice0,'))).split(',');
    expect(Number(hog[4])).toBeCloseTo(report.processes[0].cpu_time_ns / 1e6, 5);
    expect(cpus.split('\n')).toHaveLength(1 + report.cpus.length);
    sim.free();
  });
});
