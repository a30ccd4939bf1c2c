// The editor's form model written back to scenario JSON (the reverse of
// scenario-form.ts's fromScenario): numbers scaled back to the file's units,
// empty fields left out so the engine's defaults apply, the keys the form does
// not edit put back from `extra` in their place. Each object is written from a
// record of every key the form edits of it (`FormKey`), so a key the format
// gains cannot be read into the form and then lost here.
import {
  BUGS,
  COSTS,
  FEATURES,
  SCALE,
  put,
  type FormKey,
  type FormModel,
  type Json,
  type JsonObject,
  type ProcessForm,
  type Tri,
} from './scenario-form';
import type { ScenarioObject } from '../engine/generated/scenario-keys';

/** Form text → a JSON number when it is one (scaled to the file's unit), else the text as is. */
export function numberOf(s: string, scale = 1): Json | undefined {
  const t = s.trim();
  if (t === '') return undefined;
  const n = Number(t);
  if (!Number.isFinite(n)) return s;
  const v = n * scale;
  const r = Math.round(v);
  // 0.1 ms × 1000 is 100.00000000000001: snap to the integer it means, but
  // leave a real fraction (0.5 µs) for the engine to refuse by name.
  return Math.abs(v - r) <= 1e-9 * Math.max(1, Math.abs(v)) ? r : v;
}

function triOf(t: Tri): boolean | undefined {
  return t === '' ? undefined : t === 'true';
}

function strOf(s: string): string | undefined {
  return s === '' ? undefined : s;
}

/** Builds an object from entries, leaving out absent values; extra keys first, the form's win. */
function obj(extra: JsonObject, entries: [string, Json | undefined][]): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(extra)) put(out, k, v);
  for (const [k, v] of entries) if (v !== undefined) put(out, k, v);
  return out;
}

/** One object of the format (`written<'process'>`): a value for every key the form edits of it, in this order. */
function written<O extends ScenarioObject>(
  extra: JsonObject,
  values: Record<FormKey<O>, Json | undefined>,
): JsonObject {
  return obj(extra, Object.entries<Json | undefined>(values));
}

function nonEmpty(o: JsonObject): JsonObject | undefined {
  return Object.keys(o).length > 0 ? o : undefined;
}

/** The program text as JSON, or the text itself when it does not parse (see `programProblems`). */
function programOf(s: string): Json | undefined {
  if (s.trim() === '') return undefined;
  try {
    return JSON.parse(s) as Json;
  } catch {
    return s;
  }
}

/** A yes/no field: empty is absent, 'true' and 'false' are the booleans, anything else is kept for the check. */
function flagOf(s: string): Json | undefined {
  const v = s.trim();
  if (v === '') return undefined;
  return v === 'true' ? true : v === 'false' ? false : v;
}

function listOf(s: string): Json | undefined {
  if (s.trim() === '') return undefined;
  return s.split(',').map((x) => numberOf(x) ?? x);
}

export function writeProcess(p: ProcessForm): JsonObject | Json {
  if (p.raw !== undefined) return p.raw;
  return written<'process'>(p.extra, {
    name: strOf(p.name),
    threads: numberOf(p.threads),
    nice: numberOf(p.nice),
    sched_policy: strOf(p.sched_policy),
    rt_priority: numberOf(p.rt_priority),
    dl_runtime_us: numberOf(p.dl_runtime_us),
    dl_deadline_us: numberOf(p.dl_deadline_us),
    dl_period_us: numberOf(p.dl_period_us),
    dl_reclaim: flagOf(p.dl_reclaim),
    start_ms: numberOf(p.start_ms),
    cpus: strOf(p.cpus),
    nodes: listOf(p.nodes),
    session: strOf(p.session),
    cgroup: strOf(p.cgroup),
    slice_us: numberOf(p.slice_us, SCALE.slice_us),
    job_pool: numberOf(p.job_pool),
    template: strOf(p.template),
    program: programOf(p.program),
  });
}

/** The scenario file of a form model. */
export function toScenario(f: FormModel): JsonObject {
  const m = f.machine;
  const p = f.policy;
  const t = p.tunables;
  const tunables = nonEmpty(
    written<'tunables'>(t.extra, {
      sched_latency_us: numberOf(t.sched_latency_us, SCALE.sched_latency_us),
      sched_min_granularity_us: numberOf(t.sched_min_granularity_us, SCALE.sched_min_granularity_us),
      sched_wakeup_granularity_us: numberOf(t.sched_wakeup_granularity_us, SCALE.sched_wakeup_granularity_us),
      sched_migration_cost_us: numberOf(t.sched_migration_cost_us, SCALE.sched_migration_cost_us),
      sched_nr_latency: numberOf(t.sched_nr_latency),
      tunable_scaling: strOf(t.tunable_scaling),
    }),
  );
  const features = nonEmpty(
    obj(
      p.features.extra,
      FEATURES.map((k) => [k, triOf(p.features[k])]),
    ),
  );
  const policy = nonEmpty(
    written<'policy'>(p.extra, {
      kind: strOf(p.kind),
      alpha: strOf(p.alpha),
      beta: numberOf(p.beta),
      group_identity: triOf(p.group_identity),
      source: strOf(p.source),
      watchdog_ms: numberOf(p.watchdog_ms),
      tunables,
      features,
    }),
  );
  const bugs: Json | undefined =
    f.bugs.profile === 'switches'
      ? obj(
          f.bugs.switches.extra,
          BUGS.map((k) => [k, triOf(f.bugs.switches[k])]),
        )
      : strOf(f.bugs.profile);
  const s = f.sanity_checker;
  const sanity: Json | undefined =
    s.mode === 'settings'
      ? written<'sanity_checker'>(s.extra, { period_ms: numberOf(s.period_ms), window_ms: numberOf(s.window_ms) })
      : triOf(s.mode as Tri);
  const costs = nonEmpty(
    obj(
      f.costs.extra,
      COSTS.map((k) => [k, numberOf(f.costs[k], SCALE[k])]),
    ),
  );
  const machine = written<'machine'>(m.extra, {
    preset: strOf(m.preset),
    nodes: numberOf(m.nodes),
    cores_per_node: numberOf(m.cores_per_node),
    threads_per_core: numberOf(m.threads_per_core),
    nodes_per_package: numberOf(m.nodes_per_package),
    distance: m.distance?.map((row) => row.map((x) => numberOf(x) ?? x)),
  });
  const cgroups = f.cgroups.map((g) =>
    g.raw !== undefined
      ? g.raw
      : written<'cgroup'>(g.extra, {
          name: strOf(g.name),
          shares: numberOf(g.shares),
          parent: strOf(g.parent),
          identity: strOf(g.identity),
          smt_expeller: triOf(g.smt_expeller),
        }),
  );
  const events = f.events.map((e) =>
    e.raw !== undefined
      ? e.raw
      : written<'event'>(e.extra, {
          at_ms: numberOf(e.at_ms),
          cpu_offline: numberOf(e.cpu_offline),
          cpu_online: numberOf(e.cpu_online),
        }),
  );
  return written<'scenario'>(f.extra, {
    version: numberOf(f.version),
    name: strOf(f.name),
    description: strOf(f.description),
    seed: numberOf(f.seed),
    duration_ms: numberOf(f.duration_ms),
    kernel: strOf(f.kernel),
    hz: numberOf(f.hz),
    machine: nonEmpty(machine),
    autogroup: triOf(f.autogroup),
    nohz: triOf(f.nohz),
    preempt: strOf(f.preempt),
    mutex_protocol: strOf(f.mutex_protocol),
    policy,
    bugs,
    sanity_checker: sanity,
    costs,
    cgroups: f.cgroups.length > 0 ? cgroups : undefined,
    processes: 'processes' in f.extra && f.processes.length === 0 ? undefined : f.processes.map(writeProcess),
    events: f.events.length > 0 ? events : undefined,
  });
}

/** The scenario as the file the editor writes: pretty-printed JSON. */
export function scenarioText(f: FormModel): string {
  return `${JSON.stringify(toScenario(f), null, 2)}\n`;
}

/** Problems the form finds before the engine can: program text that is not JSON. */
export function programProblems(f: FormModel): { path: string; message: string }[] {
  const out: { path: string; message: string }[] = [];
  f.processes.forEach((p, i) => {
    if (p.program.trim() === '') return;
    try {
      JSON.parse(p.program);
    } catch (e) {
      out.push({
        path: `processes[${i}].program`,
        message: `not valid JSON: ${e instanceof Error ? e.message : String(e)}`,
      });
    }
  });
  return out;
}
