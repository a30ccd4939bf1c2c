// The editor's pure logic against the real engine (wasm in Node): every
// preset survives file → form → file unchanged, units convert both ways, and
// every shape of message the engine produces (range, type, unknown key,
// program step, row, section, syntax) is shown next to a form field.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initSync, validateScenario } from '../../wasm-core/pkg/schedlab_core.js';
import { PRESETS, presetText } from '../../src/engine/presets';
import { FORM_KEYS, fromScenario, type Json, type JsonObject } from '../../src/editor/scenario-form';
import { SCENARIO_KEYS, type ScenarioObject } from '../../src/engine/generated/scenario-keys';
import { numberOf, programProblems, scenarioText, toScenario } from '../../src/editor/form-to-scenario';
import { fieldIds, fieldOf, getField, setField } from '../../src/editor/field-paths';

const root = join(import.meta.dirname, '..', '..');
beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core', 'pkg', 'schedlab_core_bg.wasm')) });
});

const presets = () => PRESETS.map((p) => p.name);
const preset = (name: string) => JSON.parse(presetText(name)) as JsonObject;
const check = (s: unknown) => validateScenario(JSON.stringify(s));

describe('scenario ⇄ form', () => {
  it('gives back every preset unchanged, and its text re-imports to the same scenario', () => {
    for (const name of presets()) {
      const file = preset(name);
      const form = fromScenario(file);
      expect(toScenario(form), name).toEqual(file);
      const again = fromScenario(JSON.parse(scenarioText(form)) as JsonObject);
      expect(again, name).toEqual(form);
      expect(check(toScenario(form)), name).toEqual([]);
    }
  });

  it('shows tunables and slices in ms and costs in µs, and writes the file units back', () => {
    const file = preset('eevdf-vs-cfs');
    (file.policy as JsonObject).tunables = { sched_latency_us: 6000, sched_min_granularity_us: 750 };
    file.costs = { context_switch_ns: 1500, clone_ns: 0 };
    const form = fromScenario(file);
    // Thread creation's cost is a field of its own (0: a process's threads all start at once).
    expect(form.costs.clone_ns).toBe('0');
    expect(form.costs.extra).toEqual({});
    expect((toScenario(setField(form, 'costs.clone_ns', '40')).costs as JsonObject).clone_ns).toBe(40000);
    expect(form.policy.tunables.sched_latency_us).toBe('6');
    expect(form.policy.tunables.sched_min_granularity_us).toBe('0.75');
    expect(form.processes[1].slice_us).toBe('0.1');
    expect(form.costs.context_switch_ns).toBe('1.5');
    const edited = setField(setField(form, 'policy.tunables.sched_latency_us', '0.1'), 'processes[1].slice_us', '2.5');
    const out = toScenario(edited);
    expect((out.policy as { tunables: JsonObject }).tunables.sched_latency_us).toBe(100);
    expect((out.processes as JsonObject[])[1].slice_us).toBe(2500);
  });

  it('passes what it cannot convert on for the engine to name, and keeps keys it does not edit', () => {
    expect(numberOf('')).toBeUndefined();
    expect(numberOf(' 7 ')).toBe(7);
    expect(numberOf('lots')).toBe('lots');
    expect(numberOf('0.0005', 1000)).toBe(0.5);
    const file = preset('cfs-nice-levels');
    (file.processes as JsonObject[])[0].nicety = 3;
    file.colour = 'red';
    const form = setField(fromScenario(file), 'processes[0].nice', 'high');
    const out = toScenario(form);
    expect((out.processes as JsonObject[])[0]).toMatchObject({ nice: 'high', nicety: 3 });
    expect(out.colour).toBe('red');
    expect(check(out)[0].path).toBe('colour');
    const plain = toScenario(setField(fromScenario(preset('cfs-nice-levels')), 'processes[0].nice', 'high'));
    expect(check(plain).map((p) => p.path)).toEqual(['processes[0].nice']);
  });

  it('keeps keys named like object internals ("__proto__", "__row") and rows that are not objects, as the file has them', () => {
    // As a file would arrive: JSON.parse makes "__proto__" an own key.
    const text = presetText('cfs-nice-levels').replace(
      '"processes": [',
      '"__proto__": {"x": 1}, "processes": [5, {"__row": 7, "__proto__": 2, "name": "odd", "program": [{"run_us": 10}]}, ',
    );
    const file = JSON.parse(text) as JsonObject;
    expect(Object.hasOwn(file, '__proto__')).toBe(true);
    const out = toScenario(fromScenario(file));
    // Key order aside (the form writes the keys it does not edit first), the same file.
    const canon = (v: unknown): unknown =>
      Array.isArray(v)
        ? v.map(canon)
        : v !== null && typeof v === 'object'
          ? Object.keys(v)
              .sort()
              .map((k) => [k, canon((v as Record<string, unknown>)[k])])
          : v;
    expect(JSON.stringify(canon(out))).toBe(JSON.stringify(canon(file)));
    expect(JSON.stringify(canon(out))).toContain('"__proto__",[["x",1]]');
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    // The engine names them, as it would for the file itself.
    expect(check(out).map((p) => p.path)).toEqual(check(file).map((p) => p.path));
  });

  it('sets and gets fields by their paths without touching the original', () => {
    const form = fromScenario(preset('group-imbalance-make'));
    const next = setField(form, 'bugs', 'linux-4.1-fixed');
    expect(getField(next, 'bugs')).toBe('linux-4.1-fixed');
    expect(getField(form, 'bugs')).toBe('linux-4.1');
    expect(getField(setField(form, 'sanity_checker', 'false'), 'sanity_checker')).toBe('false');
    expect(toScenario(setField(form, 'sanity_checker', 'false')).sanity_checker).toBe(false);
    expect(getField(fromScenario(preset('group-construction-numactl')), 'processes[0].nodes')).toBe('1, 2');
  });

  it('edits the nodes a package holds, and the engine checks them', () => {
    const form = setField(fromScenario(preset('group-imbalance-make')), 'machine.nodes_per_package', '4');
    expect(getField(form, 'machine.nodes_per_package')).toBe('4');
    const s = toScenario(form);
    expect((s.machine as JsonObject).nodes_per_package).toBe(4);
    expect(check(s)).toEqual([]);
    const bad = check(toScenario(setField(form, 'machine.nodes_per_package', '3')));
    expect(bad.map((p) => p.path)).toEqual(['machine.nodes_per_package']);
  });

  it('carries a JavaScript policy: its source exactly as typed and the watchdog in ms', () => {
    const source = 'function enqueue(p, f) {\n  scx.dsq_insert(p, scx.DSQ_GLOBAL, scx.SLICE_DFL, f);\n}\n';
    const file = preset('cfs-nice-levels');
    file.policy = { kind: 'ext', source, watchdog_ms: 500, source_file: 'kept.js' };
    const form = fromScenario(file);
    expect(form.policy.kind).toBe('ext');
    expect(form.policy.source).toBe(source);
    expect(form.policy.watchdog_ms).toBe('500');
    expect(form.policy.extra).toEqual({ source_file: 'kept.js' });
    expect(toScenario(form)).toEqual(file);
    expect(fromScenario(JSON.parse(scenarioText(form)) as JsonObject)).toEqual(form);
    // Edited in the form: the watchdog is written as a number, the source untouched (no trimming).
    const edited = setField(setField(form, 'policy.watchdog_ms', '250'), 'policy.source', ` ${source}`);
    const policy = toScenario(edited).policy as JsonObject;
    expect(policy.watchdog_ms).toBe(250);
    expect(policy.source).toBe(` ${source}`);
    // Cleared: the keys go, as every emptied field's do.
    const cleared = toScenario(setField(setField(edited, 'policy.source', ''), 'policy.watchdog_ms', ''));
    expect(cleared.policy).toEqual({ kind: 'ext', source_file: 'kept.js' });
  });

  it('edits every key of the format but the ones it keeps aside, and gives them all back', () => {
    // One scenario holding every key the schema lists, each with a value of its kind.
    const schema = JSON.parse(readFileSync(join(root, 'wasm-core/schema/scenario.v1.schema.json'), 'utf8')) as {
      properties: JsonObject;
      $defs: Record<string, JsonObject>;
    };
    const sample = (prop: JsonObject): Json => {
      const ref = typeof prop.$ref === 'string' ? prop.$ref.replace('#/$defs/', '') : undefined;
      if (ref !== undefined && ref in SCENARIO_KEYS) return every(ref as ScenarioObject);
      if (ref === 'op') return { run_us: 5 };
      if (ref === 'bugs') return every('bug_switches');
      if (ref === 'sanity_checker') return every('sanity_checker');
      if (Array.isArray(prop.enum)) return prop.enum[0];
      if ('const' in prop) return prop.const;
      switch (prop.type) {
        case 'boolean':
          return true;
        case 'integer':
        case 'number':
          return 7;
        case 'string':
          return 'x';
        case 'array':
          return [sample(prop.items as JsonObject)];
      }
      throw new Error(`no sample for ${JSON.stringify(prop)}`);
    };
    const propsOf = (o: ScenarioObject): JsonObject => {
      if (o === 'scenario') return schema.properties;
      const def = schema.$defs[o];
      const forms = (def.oneOf ?? []) as JsonObject[];
      return (forms.find((f) => f.type === 'object') ?? def).properties as JsonObject;
    };
    function every(o: ScenarioObject): JsonObject {
      const props = propsOf(o);
      return Object.fromEntries(SCENARIO_KEYS[o].map((k) => [k, sample(props[k] as JsonObject)]));
    }
    const file = every('scenario');
    const form = fromScenario(file);
    expect(toScenario(form)).toEqual(file);
    // What the form does not edit is only what it names as kept aside.
    expect(Object.keys(form.extra)).toEqual(['exercise']);
    expect(Object.keys(form.policy.extra)).toEqual(['source_file']);
    const others = [form.machine, form.policy.tunables, form.policy.features, form.bugs.switches, form.sanity_checker];
    expect(Object.keys(form.processes[0].extra)).toEqual(['address_space']);
    for (const part of [...others, form.costs, form.cgroups[0], form.events[0]]) expect(part.extra).toEqual({});
    expect(FORM_KEYS.costs).toContain('smt_sibling_speed_pct');
    expect(getField(form, 'preempt')).toBe('none');
  });

  it('reports program text that is not JSON at the program field', () => {
    const form = setField(fromScenario(preset('cfs-nice-levels')), 'processes[2].program', '[{"run_us": }]');
    expect(programProblems(form).map((p) => p.path)).toEqual(['processes[2].program']);
  });
});

describe('engine messages → form fields', () => {
  type Corrupt = (s: JsonObject & Record<string, any>) => void; // eslint-disable-line @typescript-eslint/no-explicit-any -- a scenario's JSON, corrupted at any depth
  const cases: [string, string, Corrupt, string][] = [
    // [preset, what, corruption, the field that must show the first message]
    ['cfs-nice-levels', 'range', (s) => (s.processes[0].nice = 99), 'processes[0].nice'],
    ['cfs-nice-levels', 'type', (s) => (s.processes[1].threads = 'many'), 'processes[1].threads'],
    ['cfs-nice-levels', 'unknown key in a row', (s) => (s.processes[0].nicety = 1), 'processes[0]'],
    ['cfs-nice-levels', 'unknown top-level key', (s) => (s.colour = 'red'), 'scenario'],
    [
      'cfs-nice-levels',
      'program step',
      (s) => (s.processes[3].program[0].body[1].sleep_us = -5),
      'processes[3].program',
    ],
    [
      'cfs-nice-levels',
      'program step kinds',
      (s) => (s.processes[0].program = [{ run_us: 5, sleep_us: 5 }]),
      'processes[0].program',
    ],
    ['cfs-nice-levels', 'template and program', (s) => (s.processes[0].template = 'cpu-hog'), 'processes[0]'],
    [
      'cfs-nice-levels',
      'unknown template',
      (s) => ((s.processes[0].template = 'nope'), delete s.processes[0].program),
      'processes[0].template',
    ],
    ['cfs-nice-levels', 'wake target', (s) => (s.processes[0].program = [{ wake: 'ghost' }]), 'processes[0].program'],
    ['cfs-nice-levels', 'no processes', (s) => (s.processes = []), 'processes'],
    ['cfs-nice-levels', 'duration', (s) => (s.duration_ms = 0), 'duration_ms'],
    ['cfs-nice-levels', 'seed type', (s) => (s.seed = 1.5), 'seed'],
    ['cfs-nice-levels', 'policy kind', (s) => (s.policy.kind = 'bfs'), 'policy.kind'],
    ['cfs-nice-levels', 'policy section', (s) => (s.policy.beta = 1.2), 'policy'],
    ['cfs-nice-levels', 'policy not an object', (s) => (s.policy = 'cfs'), 'policy'],
    [
      'cfs-nice-levels',
      'tunable',
      (s) => (s.policy.tunables = { sched_latency_us: 5 }),
      'policy.tunables.sched_latency_us',
    ],
    ['cfs-nice-levels', 'unknown tunable', (s) => (s.policy.tunables = { sched_latency: 5 }), 'policy.tunables'],
    [
      'cfs-nice-levels',
      'feature type',
      (s) => (s.policy.features = { start_debit: 'yes' }),
      'policy.features.start_debit',
    ],
    ['cfs-nice-levels', 'bug profile', (s) => (s.bugs = 'linux-5.0'), 'bugs'],
    ['cfs-nice-levels', 'bug switch', (s) => (s.bugs = { group_imbalance: 3 }), 'bugs.group_imbalance'],
    ['cfs-nice-levels', 'cost', (s) => (s.costs = { wakeup_ipi_ns: 99999999 }), 'costs.wakeup_ipi_ns'],
    ['cfs-nice-levels', 'SMT speed', (s) => (s.costs = { smt_sibling_speed_pct: 5 }), 'costs.smt_sibling_speed_pct'],
    ['cfs-nice-levels', 'preemption model', (s) => (s.preempt = 'rt'), 'preempt'],
    [
      'cfs-nice-levels',
      'sanity window',
      (s) => (s.sanity_checker = { period_ms: 10, window_ms: 50 }),
      'sanity_checker.window_ms',
    ],
    ['cfs-nice-levels', 'machine preset', (s) => (s.machine.preset = 'cray'), 'machine.preset'],
    ['cfs-nice-levels', 'preset and custom', (s) => (s.machine.nodes = 2), 'machine'],
    ['cfs-nice-levels', 'custom size', (s) => (s.machine = { nodes: 2, cores_per_node: 0 }), 'machine.cores_per_node'],
    ['cfs-nice-levels', 'too many CPUs', (s) => (s.machine = { nodes: 64, cores_per_node: 64 }), 'machine'],
    ['cfs-nice-levels', 'distance rows', (s) => (s.machine = { nodes: 2, distance: [[10, 20]] }), 'machine.distance'],
    [
      'cfs-nice-levels',
      'distance row length',
      (s) => (s.machine = { nodes: 2, distance: [[10, 20], [20]] }),
      'machine.distance',
    ],
    [
      'cfs-nice-levels',
      'distance cell',
      (s) =>
        (s.machine = {
          nodes: 2,
          distance: [
            [10, 20],
            [21, 10],
          ],
        }),
      'machine.distance[0][1]',
    ],
    [
      'cfs-nice-levels',
      'distance cell type',
      (s) =>
        (s.machine = {
          nodes: 2,
          distance: [
            [10, 'x'],
            [20, 10],
          ],
        }),
      'machine.distance[0][1]',
    ],
    ['cfs-nice-levels', 'cpus list', (s) => (s.processes[0].cpus = '0-9'), 'processes[0].cpus'],
    ['cfs-nice-levels', 'a node', (s) => (s.processes[0].nodes = [3]), 'processes[0].nodes'],
    ['cfs-nice-levels', 'slice without eevdf', (s) => (s.processes[0].slice_us = 500), 'processes[0].slice_us'],
    ['cfs-nice-levels', 'missing cgroup', (s) => (s.processes[0].cgroup = 'db'), 'processes[0].cgroup'],
    ['gi-colocation', 'identity', (s) => (s.cgroups[1].identity = 'royal'), 'cgroups[1].identity'],
    ['gi-colocation', 'expeller', (s) => (s.cgroups[1].smt_expeller = true), 'cgroups[1].smt_expeller'],
    ['gi-colocation', 'shares', (s) => (s.cgroups[0].shares = 1), 'cgroups[0].shares'],
    ['gi-colocation', 'parent', (s) => (s.cgroups[0].parent = 'nobody'), 'cgroups[0].parent'],
    ['gi-colocation', 'group identity on eevdf', (s) => (s.policy.kind = 'eevdf'), 'policy.group_identity'],
    ['missing-domains-hotplug', 'event time', (s) => (s.events[0].at_ms = 10 ** 9), 'events[0].at_ms'],
    ['missing-domains-hotplug', 'event CPU', (s) => (s.events[1].cpu_online = 500), 'events[1]'],
    ['missing-domains-hotplug', 'event kinds', (s) => (s.events[0].cpu_online = 1), 'events[0]'],
    ['missing-domains-hotplug', 'event type', (s) => (s.events[0].cpu_offline = 'five'), 'events[0].cpu_offline'],
    [
      'o1-vs-cfs',
      'hotplug under o1',
      (s) => ((s.policy.kind = 'o1'), (s.events = [{ at_ms: 1, cpu_offline: 0 }])),
      'events',
    ],
    ['cfs-nice-levels', 'version', (s) => (s.version = 2), 'version'],
    ['cfs-nice-levels', 'name', (s) => (s.name = ''), 'name'],
  ];

  for (const [name, what, corrupt, want] of cases) {
    it(`${what} (${name})`, () => {
      const s = preset(name);
      corrupt(s);
      const problems = check(s);
      expect(problems.length, JSON.stringify(problems)).toBeGreaterThan(0);
      const form = fromScenario(s);
      const ids = fieldIds(form);
      expect(fieldOf(problems[0].path, ids), JSON.stringify(problems[0])).toBe(want);
      // Every message lands on something the form shows, and a path that is
      // itself a form field is shown at that very field.
      for (const p of problems) {
        const at = fieldOf(p.path, ids);
        expect(ids.has(at)).toBe(true);
        if (ids.has(p.path)) expect(at).toBe(p.path);
      }
    });
  }

  it("a JavaScript policy's messages land at its source and watchdog fields", () => {
    const at = (policy: JsonObject, path: string) => {
      const s = preset('cfs-nice-levels');
      s.policy = policy;
      const problem = check(s).find((p) => p.path === path);
      expect(problem, `${JSON.stringify(policy)} → ${path}`).toBeDefined();
      return fieldOf(path, fieldIds(fromScenario(s)));
    };
    expect(at({ kind: 'ext' }, 'policy.source')).toBe('policy.source');
    expect(at({ kind: 'ext', source: 'function enqueue() {}', watchdog_ms: 0 }, 'policy.watchdog_ms')).toBe(
      'policy.watchdog_ms',
    );
    expect(at({ kind: 'ext', source: 'x'.repeat(70_000) }, 'policy.source')).toBe('policy.source');
    expect(at({ kind: 'cfs', source: 'function enqueue() {}' }, 'policy')).toBe('policy');
  });

  it('a syntax error goes to the scenario as a whole', () => {
    const problems = validateScenario('{"version": 1,');
    expect(problems).toHaveLength(1);
    expect(fieldOf(problems[0].path, fieldIds(fromScenario({})))).toBe('scenario');
  });

  it('the engine lists several problems at once', () => {
    const s = preset('cfs-nice-levels') as JsonObject & Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a scenario's JSON, corrupted at any depth
    s.processes[0].nice = 99;
    s.processes[1].nice = -21;
    s.duration_ms = 0;
    expect(
      check(s)
        .map((p) => p.path)
        .sort(),
    ).toEqual(['duration_ms', 'processes[0].nice', 'processes[1].nice']);
  });
});
