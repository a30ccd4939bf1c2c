// Scenario JSON ⇄ the editor's form model. The form holds every field as the
// text the user sees, in human units (tunables and slices in ms, costs in µs),
// with '' meaning "absent: the engine's default applies". Keys the form does
// not edit are kept in `extra` beside the fields of the same object, so a file
// goes through the form and back unchanged (tests/unit/scenario-form.test.ts
// checks every preset). This file reads a file into the form; writing it back
// is form-to-scenario.ts. The form never judges validity: values it cannot
// convert (a word in a number field) are passed on as they are, and the
// engine's check names the field. Which keys the form edits comes from the
// format's schema (`SCENARIO_KEYS`, generated), less the few it names as kept
// aside (`NOT_IN_FORM`), so the form and the format cannot drift apart.
import { SCENARIO_KEYS, type ScenarioKey, type ScenarioObject } from '../engine/generated/scenario-keys';

export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export type JsonObject = { [k: string]: Json };
/** '' = absent (default), else 'true' / 'false'. */
export type Tri = '' | 'true' | 'false';

/**
 * The keys of the format the form has no input for, object by object: they are read into `extra` with any
 * unknown key and written back as they were. Every other key the schema lists is a field of the form.
 */
const NOT_IN_FORM = {
  /** A goal is written with the scenario's JSON (the classroom's exercises carry theirs); the form keeps it. */
  scenario: ['exercise'],
  /** schedsim reads it beside the scenario file; the page takes the source itself (and the engine says so). */
  policy: ['source_file'],
  /** Shared address spaces come from rt-app imports (one rt-app run's tasks); the form keeps them as written. */
  process: ['address_space'],
} as const satisfies { [O in ScenarioObject]?: readonly ScenarioKey<O>[] };

type KeptAside<O extends ScenarioObject> = O extends keyof typeof NOT_IN_FORM ? (typeof NOT_IN_FORM)[O][number] : never;
/** A key of one object of the format that the form edits (`FormKey<'costs'>`). */
export type FormKey<O extends ScenarioObject> = Exclude<ScenarioKey<O>, KeptAside<O>>;

function formKeys<O extends ScenarioObject>(o: O): readonly FormKey<O>[] {
  const keys: readonly string[] = SCENARIO_KEYS[o];
  const aside: readonly string[] = (NOT_IN_FORM as Partial<Record<ScenarioObject, readonly string[]>>)[o] ?? [];
  // The keys of `o` less those kept aside, as `FormKey<O>` says; the compiler cannot follow that through `filter`.
  return keys.filter((k) => !aside.includes(k)) as FormKey<O>[];
}

/** The keys the form edits, by the object of the format (named as the schema names it). */
export const FORM_KEYS = {
  scenario: formKeys('scenario'),
  machine: formKeys('machine'),
  policy: formKeys('policy'),
  tunables: formKeys('tunables'),
  features: formKeys('features'),
  bug_switches: formKeys('bug_switches'),
  sanity_checker: formKeys('sanity_checker'),
  costs: formKeys('costs'),
  cgroup: formKeys('cgroup'),
  process: formKeys('process'),
  event: formKeys('event'),
} as const;

// Each form object holds one text per key the form edits of its object of the format (the `Record` it
// extends), so a key the format gains is a field every reader of the form must fill.

export interface MachineForm extends Record<Exclude<FormKey<'machine'>, 'distance'>, string> {
  /** NUMA nodes in one package ('' = one, the default). */
  nodes_per_package: string;
  /** The NUMA distance matrix, or null when the file gives none. */
  distance: string[][] | null;
  extra: JsonObject;
}

/** The `_us` ones in ms (the form's unit); the file's are µs. */
export interface TunablesForm extends Record<FormKey<'tunables'>, string> {
  extra: JsonObject;
}

export const FEATURES = FORM_KEYS.features;
export type FeatureName = FormKey<'features'>;

export interface PolicyForm extends Record<
  Exclude<FormKey<'policy'>, 'group_identity' | 'tunables' | 'features'>,
  string
> {
  group_identity: Tri;
  /** Kind 'ext': the scheduler's JavaScript, kept exactly as typed ('' = absent). */
  source: string;
  /** Kind 'ext': the watchdog's timeout in ms. */
  watchdog_ms: string;
  tunables: TunablesForm;
  features: Record<FeatureName, Tri> & { extra: JsonObject };
  extra: JsonObject;
}

export const BUGS = FORM_KEYS.bug_switches;
export type BugName = FormKey<'bug_switches'>;

export interface BugsForm {
  /** '' (absent: linux-4.1), a profile name, or 'switches' for one switch per bug. */
  profile: string;
  switches: Record<BugName, Tri> & { extra: JsonObject };
}

/** The settings' fields beside the mode. */
export interface SanityForm extends Record<FormKey<'sanity_checker'>, string> {
  /** '' (absent: on, 1000/100 ms), 'true', 'false' or 'settings'. */
  mode: string;
  extra: JsonObject;
}

export const COSTS = FORM_KEYS.costs;
export type CostName = FormKey<'costs'>;

export interface CgroupForm extends Record<Exclude<FormKey<'cgroup'>, 'smt_expeller'>, string> {
  smt_expeller: Tri;
  extra: JsonObject;
  /** The row as the file has it, when it is not an object (kept for the engine to name). */
  raw?: Json;
}

export interface ProcessForm extends Record<FormKey<'process'>, string> {
  /** A taskset list, e.g. "0-3,8". */
  cpus: string;
  /** NUMA nodes, comma-separated. */
  nodes: string;
  /** Form unit ms; the file's is µs. */
  slice_us: string;
  /** The program steps as JSON text (µs, as in the file); '' when absent. */
  program: string;
  extra: JsonObject;
  /** The row as the file has it, when it is not an object (kept for the engine to name). */
  raw?: Json;
}

export interface EventForm extends Record<FormKey<'event'>, string> {
  extra: JsonObject;
  /** The row as the file has it, when it is not an object (kept for the engine to name). */
  raw?: Json;
}

type Sections = 'machine' | 'policy' | 'bugs' | 'sanity_checker' | 'costs' | 'cgroups' | 'processes' | 'events';

export interface FormModel extends Record<Exclude<FormKey<'scenario'>, Sections | 'autogroup' | 'nohz'>, string> {
  autogroup: Tri;
  nohz: Tri;
  /** The preemption model ('' = absent: voluntary). */
  preempt: string;
  /** The mutexes' protocol ('' = absent: none). */
  mutex_protocol: string;
  /** The kernel generation ('' = absent: 4.1). */
  kernel: string;
  machine: MachineForm;
  policy: PolicyForm;
  bugs: BugsForm;
  sanity_checker: SanityForm;
  /** Form unit µs; the file's are ns. */
  costs: Record<CostName, string> & { extra: JsonObject };
  cgroups: CgroupForm[];
  processes: ProcessForm[];
  events: EventForm[];
  extra: JsonObject;
}

/** Form unit → file unit factors of the fields whose units differ (the SMT sibling's speed is a percentage in both). */
export const SCALE: Record<string, number> = {
  sched_latency_us: 1000,
  sched_min_granularity_us: 1000,
  sched_wakeup_granularity_us: 1000,
  sched_migration_cost_us: 1000,
  slice_us: 1000,
  context_switch_ns: 1000,
  wakeup_ipi_ns: 1000,
  migration_cold_ns: 1000,
  migration_cold_remote_ns: 1000,
  clone_ns: 1000,
};

// ---- reading a file into the form ----

function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A scalar as form text; '' when absent. Non-scalars keep their JSON text. */
function text(v: Json | undefined, scale = 1): string {
  if (v === undefined) return '';
  if (typeof v === 'number') return String(scale === 1 ? v : v / scale);
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

function tri(v: Json | undefined): Tri {
  return v === true ? 'true' : v === false ? 'false' : '';
}

/** Splits an object into the keys the form edits and the rest (kept as they are). */
function split(
  v: Json | undefined,
  known: readonly string[],
  parentExtra: JsonObject,
  key: string,
): [JsonObject, JsonObject] {
  if (v === undefined) return [{}, {}];
  if (!isObject(v)) {
    // Not an object where one belongs: keep it for the engine to name.
    parentExtra[key] = v;
    return [{}, {}];
  }
  const mine: JsonObject = {};
  const extra: JsonObject = {};
  for (const [k, x] of Object.entries(v)) put(known.includes(k) ? mine : extra, k, x);
  return [mine, extra];
}

/** Sets an own property, even one a file names "__proto__" (assignment would set the object's prototype and lose the key). */
export function put(o: JsonObject, k: string, v: Json): void {
  Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
}

function rows<T>(v: Json | undefined, parentExtra: JsonObject, key: string, read: (row: Json) => T): T[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) {
    parentExtra[key] = v;
    return [];
  }
  return v.map(read);
}

const TOP = FORM_KEYS.scenario;
const MACHINE = FORM_KEYS.machine;
const POLICY = FORM_KEYS.policy;
const TUNABLES = FORM_KEYS.tunables;
const CGROUP = FORM_KEYS.cgroup;
const PROCESS = FORM_KEYS.process;
const EVENT = FORM_KEYS.event;

function readDistance(v: Json | undefined, extra: JsonObject): string[][] | null {
  if (v === undefined) return null;
  if (!Array.isArray(v) || !v.every(Array.isArray)) {
    extra.distance = v;
    return null;
  }
  return (v as Json[][]).map((row) => row.map((x) => text(x)));
}

export function readProcess(row: Json): ProcessForm {
  const holder: JsonObject = {};
  const [p, extra] = split(row, PROCESS, holder, 'row');
  const nodes = p.nodes;
  return {
    name: text(p.name),
    threads: text(p.threads),
    nice: text(p.nice),
    sched_policy: text(p.sched_policy),
    rt_priority: text(p.rt_priority),
    dl_runtime_us: text(p.dl_runtime_us),
    dl_deadline_us: text(p.dl_deadline_us),
    dl_period_us: text(p.dl_period_us),
    dl_reclaim: text(p.dl_reclaim),
    start_ms: text(p.start_ms),
    cpus: text(p.cpus),
    nodes: Array.isArray(nodes) ? nodes.map((n) => text(n)).join(', ') : text(nodes),
    session: text(p.session),
    cgroup: text(p.cgroup),
    slice_us: text(p.slice_us, SCALE.slice_us),
    job_pool: text(p.job_pool),
    template: text(p.template),
    program: p.program === undefined ? '' : JSON.stringify(p.program),
    ...('row' in holder ? { extra: {}, raw: holder.row } : { extra }),
  };
}

/** The form model of a scenario file (any JSON object; nothing is checked here). */
export function fromScenario(file: JsonObject): FormModel {
  const [top, extra] = split(file, TOP, {}, '');
  const [m, mExtra] = split(top.machine, MACHINE, extra, 'machine');
  const [p, pExtra] = split(top.policy, POLICY, extra, 'policy');
  const [t, tExtra] = split(p.tunables, TUNABLES, pExtra, 'tunables');
  const [f, fExtra] = split(p.features, FEATURES, pExtra, 'features');
  const [c, cExtra] = split(top.costs, COSTS, extra, 'costs');
  const bugs = top.bugs;
  const [b, bExtra] = isObject(bugs) ? split(bugs, BUGS, extra, 'bugs') : [{}, {}];
  const sanity = top.sanity_checker;
  const [s, sExtra] = isObject(sanity) ? split(sanity, FORM_KEYS.sanity_checker, extra, 'sanity_checker') : [{}, {}];
  if (bugs !== undefined && !isObject(bugs) && typeof bugs !== 'string') extra.bugs = bugs;
  if (sanity !== undefined && !isObject(sanity) && typeof sanity !== 'boolean') extra.sanity_checker = sanity;
  return {
    version: text(top.version),
    name: text(top.name),
    description: text(top.description),
    seed: text(top.seed),
    duration_ms: text(top.duration_ms),
    hz: text(top.hz),
    autogroup: tri(top.autogroup),
    nohz: tri(top.nohz),
    preempt: text(top.preempt),
    mutex_protocol: text(top.mutex_protocol),
    kernel: text(top.kernel),
    machine: {
      preset: text(m.preset),
      nodes: text(m.nodes),
      cores_per_node: text(m.cores_per_node),
      threads_per_core: text(m.threads_per_core),
      nodes_per_package: text(m.nodes_per_package),
      distance: readDistance(m.distance, mExtra),
      extra: mExtra,
    },
    policy: {
      kind: text(p.kind),
      alpha: text(p.alpha),
      beta: text(p.beta),
      group_identity: tri(p.group_identity),
      source: text(p.source),
      watchdog_ms: text(p.watchdog_ms),
      tunables: {
        sched_latency_us: text(t.sched_latency_us, 1000),
        sched_min_granularity_us: text(t.sched_min_granularity_us, 1000),
        sched_wakeup_granularity_us: text(t.sched_wakeup_granularity_us, 1000),
        sched_migration_cost_us: text(t.sched_migration_cost_us, 1000),
        sched_nr_latency: text(t.sched_nr_latency),
        tunable_scaling: text(t.tunable_scaling),
        extra: tExtra,
      },
      features: {
        ...(Object.fromEntries(FEATURES.map((k) => [k, tri(f[k])])) as Record<FeatureName, Tri>),
        extra: fExtra,
      },
      extra: pExtra,
    },
    bugs: {
      profile: typeof bugs === 'string' ? bugs : isObject(bugs) ? 'switches' : '',
      switches: { ...(Object.fromEntries(BUGS.map((k) => [k, tri(b[k])])) as Record<BugName, Tri>), extra: bExtra },
    },
    sanity_checker: {
      mode: typeof sanity === 'boolean' ? String(sanity) : isObject(sanity) ? 'settings' : '',
      period_ms: text(s.period_ms),
      window_ms: text(s.window_ms),
      extra: sExtra,
    },
    costs: {
      ...(Object.fromEntries(COSTS.map((k) => [k, text(c[k], SCALE[k])])) as Record<CostName, string>),
      extra: cExtra,
    },
    cgroups: rows(top.cgroups, extra, 'cgroups', (row) => {
      const holder: JsonObject = {};
      const [g, gExtra] = split(row, CGROUP, holder, 'row');
      return {
        name: text(g.name),
        shares: text(g.shares),
        parent: text(g.parent),
        identity: text(g.identity),
        smt_expeller: tri(g.smt_expeller),
        ...('row' in holder ? { extra: {}, raw: holder.row } : { extra: gExtra }),
      };
    }),
    processes: rows(top.processes, extra, 'processes', readProcess),
    events: rows(top.events, extra, 'events', (row) => {
      const holder: JsonObject = {};
      const [e, eExtra] = split(row, EVENT, holder, 'row');
      return {
        at_ms: text(e.at_ms),
        cpu_offline: text(e.cpu_offline),
        cpu_online: text(e.cpu_online),
        ...('row' in holder ? { extra: {}, raw: holder.row } : { extra: eExtra }),
      };
    }),
    extra,
  };
}
