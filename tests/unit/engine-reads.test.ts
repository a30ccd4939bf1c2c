// The engine's reads are typed where they are declared: each wasm method that
// returns a value names, in its `unchecked_return_type`, a TypeScript type
// generated from the Rust struct it serializes. "Unchecked" is wasm-bindgen's
// word; this test is the check. It calls every such method on real runs (every
// preset, a sched_ext policy, an exercise, every real-trace fixture), writes what came back
// as typed constants (`const x: ReturnType<Simulator['view']> = {…}`) and asks
// the TypeScript compiler to check them: a field the struct writes that the
// type lacks, a missing field, a null where the type has none, or a word
// outside an enum's union is a compile error here. A new method with a
// generated return type must be added to the table below.
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { RealTrace, scenarioChoices, Simulator, validateScenario } from '../../wasm-core/pkg/schedlab_core.js';
import { PRESETS, presetText } from '../../src/engine/presets';
import { startPolicyEngine } from './policy-engine';
import type { FrameQuery } from '../../src/engine/generated/engine';

const root = join(import.meta.dirname, '..', '..');
const dts = readFileSync(join(root, 'wasm-core', 'pkg', 'schedlab_core.d.ts'), 'utf8');

beforeAll(startPolicyEngine);

/** Every read, by owner: how the test calls it. A simulation and a trace answer the shared ones alike. */
const sharedReads: Record<string, (r: Simulator | RealTrace) => unknown> = {
  view: (r) => r.view(),
  page_metrics: (r) => r.page_metrics(),
  topology: (r) => r.topology(),
  migrations: (r) => r.migrations(0, 64),
  latency_cdfs: (r) => r.latency_cdfs(8),
  frame: (r) => r.frame(JSON.stringify(query)),
};
const simReads: Record<string, (s: Simulator) => unknown> = {
  ...sharedReads,
  tasks: (s) => s.tasks(),
  metrics: (s) => s.metrics(),
  recent_events: (s) => s.recent_events(64),
  decisions: (s) => s.decisions(64, false),
  placements: (s) => s.placements(64),
};
const traceReads: Record<string, (t: RealTrace) => unknown> = {
  ...sharedReads,
  real_report: (t) => t.real_report(),
};
const freeReads: Record<string, () => unknown> = {
  scenarioChoices: () => scenarioChoices(),
  validateScenario: () => validateScenario('{"version": 1, "machine": {"preset": "nowhere"}, "duration_ms": -1}'),
};

/** A first frame with every part: the lanes of the first 8 CPUs, the log, the rows, the history. */
const query: FrameQuery = {
  cpu: 0,
  fresh: true,
  report: true,
  cdf_points: 8,
  history: true,
  history_key: null,
  names_from: 0,
  arrows: 16,
  arrow_window_ns: 1e9,
  lanes: { span_ns: 1e9, end_ns: null, buckets: 200, lo: 0, hi: 8, events: 16, rows: 50, fresh_rows: 50 },
};

/** The names of the generated types the wasm declaration imports. */
function generatedNames(): Set<string> {
  const m = /import type \{([^}]*)\} from '\.\.\/\.\.\/src\/engine\/generated\/engine'/.exec(dts);
  return new Set(
    (m?.[1] ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
}

/** Methods (of `owner`, or the module's functions when owner is null) whose declared result names a generated type. */
function typedMethods(owner: string | null): string[] {
  const names = [...generatedNames(), 'FramePacket'];
  const start = owner ? dts.indexOf(`export class ${owner} {`) : -1;
  const body = owner
    ? dts.slice(start, dts.indexOf('\n}\n', start))
    : dts
        .split('\n')
        .filter((l) => l.startsWith('export function'))
        .join('\n');
  const found = new Set<string>();
  for (const m of body.matchAll(/^\s*(?:export function )?(\w+)\([^)]*\): ([^;]+);$/gm)) {
    if (names.some((n) => new RegExp(`\\b${n}\\b`).test(m[2]))) found.add(m[1]);
  }
  return [...found].sort();
}

/** A shape, to keep one example of each: keys, value kinds, and short words (an enum's) themselves. */
function shape(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[${[...new Set(v.map(shape))].sort().join('|')}]`;
  if (ArrayBuffer.isView(v)) return v.constructor.name;
  if (typeof v === 'object') {
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}:${shape(x)}`)
      .join(',')}}`;
  }
  if (typeof v === 'string') return v.length <= 24 ? `s:${v}` : 's';
  return typeof v;
}

/**
 * The value with each array cut to one element of each shape (at most 12): what the compiler needs to see. A short
 * array stays whole: it may be a tuple (a Rust `[u64; 4]`), whose length is part of its type.
 */
function sample(v: unknown): unknown {
  if (Array.isArray(v) && v.length <= 16) return v.map(sample);
  if (Array.isArray(v)) {
    const kept = new Map<string, unknown>();
    for (const x of v) {
      const s = sample(x);
      const k = shape(s);
      if (!kept.has(k) && kept.size < 12) kept.set(k, s);
    }
    return [...kept.values()];
  }
  if (v && typeof v === 'object') {
    if (ArrayBuffer.isView(v)) return v;
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sample(x)]));
  }
  return v;
}

/** TypeScript source for a value (a typed array as an empty one of its kind, the rest as JSON). */
function literal(v: unknown): string {
  if (ArrayBuffer.isView(v)) return `new ${v.constructor.name}()`;
  if (v && typeof v === 'object' && !Array.isArray(v)) {
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}: ${literal(x)}`)
      .join(', ')}}`;
  }
  if (Array.isArray(v)) return `[${v.map(literal).join(', ')}]`;
  return JSON.stringify(v);
}

/** Type-checks `source` with the project's compiler (strict, as tsconfig.json); its messages, if any. */
function typeErrors(source: string): string[] {
  // A directory two levels below the root, so the source's relative imports are tests/unit's.
  const dir = join(root, 'test-results', 'engine-reads');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'samples.ts'), source);
  const compilerOptions = {
    target: 'ES2022',
    module: 'ESNext',
    moduleResolution: 'bundler',
    lib: ['ES2023', 'DOM'],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions, files: ['samples.ts'] }));
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8', stdio: 'pipe' });
    return [];
  } catch (e) {
    const out = (e as { stdout?: string }).stdout ?? String(e);
    return out
      .split('\n')
      .filter((l) => l.includes('error'))
      .map((l) => l.slice(0, 400));
  }
}

/** The runs the reads are sampled from: every preset part-way, a sched_ext policy, and an exercise. */
function simulations(): Simulator[] {
  const sims = PRESETS.map(({ name }) => {
    const s = JSON.parse(presetText(name)) as { duration_ms: number };
    s.duration_ms = Math.min(s.duration_ms, 300);
    return new Simulator(JSON.stringify(s));
  });
  const ext = JSON.parse(presetText('cfs-nice-levels')) as Record<string, unknown>;
  const source = readFileSync(join(root, 'wasm-core', 'policies', 'weighted-vtime.js'), 'utf8');
  ext.policy = { kind: 'ext', source };
  ext.duration_ms = 100;
  sims.push(new Simulator(JSON.stringify(ext)));
  // A scenario with an exercise: the reports carry its verdict.
  const exercise = JSON.parse(presetText('cfs-nice-levels')) as Record<string, unknown>;
  exercise.exercise = { goal: 'p99_wakeup_us', max: 100, process: 'sleeper', text: 'Wake fast.' };
  exercise.duration_ms = 100;
  sims.push(new Simulator(JSON.stringify(exercise)));
  for (const s of sims) s.run_until(s.duration_ns());
  return sims;
}

function traces(): RealTrace[] {
  const dir = join(root, 'wasm-core', 'tests', 'fixtures', 'real');
  return readdirSync(dir)
    .filter((name) => name.endsWith('.txt'))
    .map((name) => {
      const t = new RealTrace(readFileSync(join(dir, name), 'utf8'), name, 0);
      t.seek_time(t.duration_ns() / 2);
      return t;
    });
}

describe("the engine's reads against their generated types", () => {
  it('covers every method whose declared result is a generated type', () => {
    expect(typedMethods('Simulator')).toEqual(Object.keys(simReads).sort());
    expect(typedMethods('RealTrace')).toEqual(Object.keys(traceReads).sort());
    expect(typedMethods(null)).toEqual(Object.keys(freeReads).sort());
  });

  it('type-checks what every read returns on real runs', () => {
    const lines = [
      "import type { RealTrace, Simulator } from '../../wasm-core/pkg/schedlab_core.js';",
      "import type * as wasm from '../../wasm-core/pkg/schedlab_core.js';",
      'type Out<C, K extends keyof C> = C[K] extends (...a: never[]) => infer T ? T : never;',
    ];
    const seen = new Set<string>();
    let n = 0;
    const put = (type: string, v: unknown) => {
      const s = sample(v);
      const key = `${type} ${shape(s)}`;
      if (seen.has(key)) return;
      seen.add(key);
      lines.push(`export const v${n++}: ${type} = ${literal(s)};`);
    };
    const sims = simulations();
    for (const s of sims) {
      for (const [k, read] of Object.entries(simReads)) put(`Out<Simulator, '${k}'>`, read(s));
      s.free();
    }
    for (const t of traces()) {
      for (const [k, read] of Object.entries(traceReads)) put(`Out<RealTrace, '${k}'>`, read(t));
      t.free();
    }
    for (const [k, read] of Object.entries(freeReads)) put(`ReturnType<typeof wasm.${k}>`, read());
    expect(n).toBeGreaterThan(40);
    expect(typeErrors(lines.join('\n'))).toEqual([]);
  }, 120_000);
});
