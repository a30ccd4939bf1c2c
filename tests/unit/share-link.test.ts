// Share links: every preset with a non-trivial view state survives the round
// trip exactly; random valid scenarios (preset variations the engine accepts)
// do too, and the receiver's engine, placed at the link's cursor, shows the
// very state the sender had; random strings and random bytes behind a valid
// prefix never throw and always give a reason.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { deflateSync } from 'fflate';
import { initSync } from '../../wasm-core/pkg/schedlab_core.js';
import { PRESETS, presetText } from '../../src/engine/presets';
import { Simulation } from '../../src/engine/engine';
import {
  MAX_FRAGMENT_CHARS,
  MAX_INFLATED_BYTES,
  SHARE_PREFIX,
  decodeShare,
  encodeShare,
  type ShareState,
} from '../../src/share/share-link';
import { cursorJob, cursorOf, placeCursor } from '../../src/share/cursor';
import { exerciseOf } from '../../src/classroom/exercise';
import { EXERCISES, STARTERS, exerciseScenario, policyScenario } from '../../src/classroom/exercises';

const root = join(import.meta.dirname, '..', '..');
beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core', 'pkg', 'schedlab_core_bg.wasm')) });
});
const presets = () => PRESETS.map((p) => p.name);
const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url');

/** Runs a job to its end, as the engine worker would between slices. */
function runJob(job: { step(): boolean }): void {
  for (let i = 0; i < 1e6 && !job.step(); i++);
}

describe('share links: exercises and their policies', () => {
  const view = {
    cursor: { event: 4321, ns: 123_456_789 },
    cpu: 3,
    colourBy: 'nr_running' as const,
    partner: '',
    lesson: null,
  };

  it('carry a built-in exercise, its policy source and its goal, exactly', () => {
    for (const e of EXERCISES) {
      const scenario = exerciseScenario(e);
      const enc = encodeShare({ scenario, view });
      if (!enc.ok) throw new Error(`${e.id}: ${JSON.stringify(enc.reason)}`);
      const dec = decodeShare(enc.fragment);
      expect(dec).toEqual({ ok: true, state: { scenario, view } });
      if (!dec.ok) continue;
      // What the receiver's exercise panel reads: the same goal, and the same policy to run.
      expect(exerciseOf(dec.state.scenario)).toEqual(e.exercise);
      expect((JSON.parse(dec.state.scenario) as { policy: { source: string } }).policy.source).toBe(e.policy);
      console.log(`exercise ${e.id}: link ${enc.fragment.length} chars for ${scenario.length} of scenario`);
    }
  });

  it('leave room for a policy of several KB on the largest preset', () => {
    // Every starter together (distinct code, about 2.3 KB) twice over, the second copy's names changed so
    // deflate cannot fold it onto the first: some 4.6 KB of policy, as a student's might grow.
    const all = Object.values(STARTERS).join('\n');
    const source = `${all}\n${all.replace(/\b([a-z]+)_([a-z]+)\b/g, '$2$1').replace(/cpu/g, 'core')}`;
    expect(source.length).toBeGreaterThan(4000);
    const goal = { goal: 'p99_wakeup_us' as const, max: 100, process: 'online-0', text: 'Online first.' };
    const scenario = policyScenario('gi-colocation', 'my-policy', source, 500, goal);
    const enc = encodeShare({ scenario, view });
    if (!enc.ok) throw new Error(JSON.stringify(enc.reason));
    expect(enc.fragment.length).toBeLessThan(MAX_FRAGMENT_CHARS / 2);
    const dec = decodeShare(enc.fragment);
    expect(dec.ok && dec.state.scenario).toBe(scenario);
    console.log(
      `a ${source.length}-character policy on gi-colocation: link ${enc.fragment.length} of ${MAX_FRAGMENT_CHARS} chars`,
    );
  });
});

describe('share links: round trip', () => {
  it('every preset encodes to a link and decodes to the identical scenario and view state', () => {
    const sizes: string[] = [];
    for (const [i, name] of presets().entries()) {
      const state: ShareState = {
        scenario: presetText(name),
        view: {
          cursor: { event: 1234 + i, ns: 56_789_012 + i },
          cpu: i % 4,
          colourBy: i % 2 ? 'load' : 'nr_running',
          partner: i % 3 === 0 ? 'bugs:linux-4.1-fixed' : i % 3 === 1 ? `preset:${name}` : '',
          lesson: i % 2 ? { id: `lesson-${name}`, step: i } : null,
        },
      };
      const enc = encodeShare(state);
      if (!enc.ok) throw new Error(`${name}: ${JSON.stringify(enc.reason)}`);
      expect(enc.fragment.startsWith(SHARE_PREFIX)).toBe(true);
      expect(enc.fragment).toMatch(/^s1\.[A-Za-z0-9_-]+$/);
      const dec = decodeShare(`#${enc.fragment}`);
      expect(dec).toEqual({ ok: true, state });
      sizes.push(`${name} ${enc.fragment.length}`);
    }
    // The presets are far below the limit (recorded for the README's stated sizes).
    console.log(`link sizes (chars): ${sizes.join(', ')}`);
  });

  it('the receiver placed at the link cursor has the sender engine state (every preset, a state reached by running)', () => {
    for (const name of presets()) {
      const json = presetText(name);
      const sender = new Simulation(json);
      // Mid-run, the clock between events (as play and jump leave it)…
      sender.runUntil(Math.round(sender.durationNs / 7) + 333);
      const cursor = cursorOf(sender);
      placeCursor(sender, cursor); // what the Share button does: the canonical state
      expect(cursorOf(sender)).toEqual(cursor);
      const enc = encodeShare({
        scenario: json,
        view: { cursor, cpu: 0, colourBy: 'nr_running', partner: '', lesson: null },
      });
      if (!enc.ok) throw new Error(name);
      const dec = decodeShare(enc.fragment);
      if (!dec.ok) throw new Error(name);
      const receiver = new Simulation(dec.state.scenario);
      runJob(cursorJob(receiver, dec.state.view.cursor));
      expect(cursorOf(receiver), name).toEqual(cursor);
      expect(receiver.traceHash(), name).toBe(sender.traceHash());
      expect(receiver.view(), name).toEqual(sender.view());
      sender.dispose();
      receiver.dispose();
    }
  });

  it('a state reached by single events (several in one ns) round-trips with its rotations', () => {
    const json = presetText('cfs-nice-levels');
    const sender = new Simulation(json);
    for (let i = 0; i < 137; i++) sender.stepEvent();
    const cursor = cursorOf(sender);
    const seen = sender.view();
    placeCursor(sender, cursor);
    // Stepping leaves the canonical state already: the Share button changes nothing the sender sees.
    expect(sender.view()).toEqual(seen);
    const receiver = new Simulation(json);
    runJob(cursorJob(receiver, cursor));
    expect(receiver.view()).toEqual(seen);
  });
});

/** A preset varied within the engine's limits: seed, duration, nice values, thread counts. */
const variation = fc.record({
  preset: fc.constantFrom(
    'cfs-nice-levels',
    'greedy-threads',
    'context-switches',
    'eevdf-vs-cfs',
    'o1-vs-cfs',
    'pipe-pingpong',
    'group-imbalance-make',
  ),
  seed: fc.integer({ min: 0, max: 2 ** 32 - 1 }),
  durationMs: fc.integer({ min: 1, max: 300 }),
  nice: fc.array(fc.integer({ min: -20, max: 19 }), { minLength: 1, maxLength: 8 }),
  threads: fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 8 }),
  name: fc.string({ minLength: 1, maxLength: 40 }),
  frac: fc.double({ min: 0, max: 1, noNaN: true }),
  cpu: fc.integer({ min: 0, max: 1023 }),
  colourBy: fc.constantFrom('nr_running' as const, 'load' as const),
  partner: fc.constantFrom('', 'bugs:linux-4.1', 'bugs:linux-4.1-fixed', 'preset:cfs-nice-levels'),
  lesson: fc.option(
    fc.record({ id: fc.string({ minLength: 1, maxLength: 100 }), step: fc.integer({ min: 0, max: 10_000 }) }),
    { nil: null },
  ),
});

type Variation = typeof variation extends fc.Arbitrary<infer T> ? T : never;

function vary(v: Variation): string {
  const s = JSON.parse(presetText(v.preset)) as {
    seed: number;
    duration_ms: number;
    name: string;
    processes: { nice?: number; threads?: number }[];
  };
  s.seed = v.seed;
  s.duration_ms = v.durationMs;
  s.name = v.name;
  s.processes.forEach((p, i) => {
    p.nice = v.nice[i % v.nice.length];
    if (p.threads !== undefined) p.threads = v.threads[i % v.threads.length];
  });
  return JSON.stringify(s);
}

describe('share links: property test over random valid scenarios', () => {
  it('the engine accepts the variation, and link → state → engine reproduces the sender', () => {
    fc.assert(
      fc.property(variation, (v) => {
        const scenario = vary(v);
        const sender = new Simulation(scenario); // throws if the engine refuses: the generator must stay valid
        sender.runUntil(Math.round(sender.durationNs * v.frac));
        const cursor = cursorOf(sender);
        placeCursor(sender, cursor);
        expect(cursorOf(sender)).toEqual(cursor);
        const state: ShareState = {
          scenario,
          view: { cursor, cpu: v.cpu, colourBy: v.colourBy, partner: v.partner, lesson: v.lesson },
        };
        const enc = encodeShare(state);
        if (!enc.ok) throw new Error(JSON.stringify(enc.reason));
        const dec = decodeShare(enc.fragment);
        expect(dec).toEqual({ ok: true, state });
        const receiver = new Simulation(scenario);
        runJob(cursorJob(receiver, cursor));
        expect(receiver.traceHash()).toBe(sender.traceHash());
        expect(receiver.view()).toEqual(sender.view());
        sender.dispose();
        receiver.dispose();
      }),
      { numRuns: 40, seed: 20260 },
    );
  });
});

describe('share links: hostile input', () => {
  const refused = (f: string) => {
    const r = decodeShare(f);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason.code.length).toBeGreaterThan(0);
    return r.ok ? null : r.reason;
  };

  it('random strings never throw and always give a reason', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 300 }),
          fc.string({ unit: 'binary', maxLength: 300 }),
          fc.base64String({ maxLength: 400 }),
        ),
        (s) => {
          // A random string is a valid link only by a miracle; either way decode must answer.
          const r = decodeShare(s);
          if (!r.ok) expect(r.reason.code).toMatch(/^[a-z-]+$/);
        },
      ),
      { numRuns: 3000, seed: 7 },
    );
  });

  it('random bytes behind the valid prefix never throw and give a reason', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), fc.boolean(), (bytes, deflated) => {
        const body = deflated ? deflateSync(bytes) : bytes;
        const r = decodeShare(SHARE_PREFIX + b64url(body));
        expect(r.ok).toBe(false);
      }),
      { numRuns: 2000, seed: 11 },
    );
  });

  it('random JSON payloads behind the prefix never throw and name the bad field', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (j) => {
        const r = decodeShare(SHARE_PREFIX + b64url(deflateSync(new TextEncoder().encode(JSON.stringify(j)))));
        expect(r.ok).toBe(false);
        if (!r.ok) expect(['bad-field', 'bad-json']).toContain(r.reason.code);
      }),
      { numRuns: 1000, seed: 13 },
    );
  });

  it('names each kind of damage', () => {
    const good = encodeShare({
      scenario: presetText('cfs-nice-levels'),
      view: { cursor: { event: 5, ns: 9 }, cpu: 0, colourBy: 'load', partner: '', lesson: null },
    });
    if (!good.ok) throw new Error('no link');
    expect(refused('')?.code).toBe('not-a-link');
    expect(refused('#hello')?.code).toBe('not-a-link');
    expect(refused('s2.abc')).toEqual({ code: 'unknown-version', vars: { version: 2 } });
    expect(refused('s1.ab+c')?.code).toBe('bad-encoding');
    expect(refused('s1.a')?.code).toBe('bad-encoding');
    expect(refused(good.fragment.slice(0, -10))?.code).toBe('bad-compression');
    expect(refused(`s1.${'A'.repeat(MAX_FRAGMENT_CHARS)}`)).toEqual({
      code: 'too-long',
      vars: { size: MAX_FRAGMENT_CHARS + 3, max: MAX_FRAGMENT_CHARS },
    });
    expect(refused(SHARE_PREFIX + b64url(deflateSync(new Uint8Array([0xff, 0xfe, 0x80]))))?.code).toBe('bad-text');
    const withView = (view: unknown) =>
      SHARE_PREFIX + b64url(deflateSync(new TextEncoder().encode(JSON.stringify({ scenario: '{}', view }))));
    const view = { cursor: { event: 1, ns: 1 }, cpu: 0, colourBy: 'load', partner: '', lesson: null };
    expect(decodeShare(withView(view)).ok).toBe(true);
    expect(refused(withView({ ...view, cpu: -1 }))).toEqual({ code: 'bad-field', vars: { field: 'view.cpu' } });
    expect(refused(withView({ ...view, cursor: { event: 1.5, ns: 1 } }))?.vars.field).toBe('view.cursor.event');
    expect(refused(withView({ ...view, colourBy: 'x' }))?.vars.field).toBe('view.colourBy');
    expect(refused(withView({ ...view, partner: 'rm -rf' }))?.vars.field).toBe('view.partner');
    expect(refused(withView({ ...view, lesson: { id: '', step: 0 } }))?.vars.field).toBe('view.lesson.id');
    expect(refused(withView({ ...view, lesson: 'x' }))?.vars.field).toBe('view.lesson');
  });

  it('a decompression bomb stops at the cap; a link over the size limit is refused when made', () => {
    // 40 MB of zeros deflate to about 40 KB: over the fragment limit, so refused before inflating.
    const bomb = SHARE_PREFIX + b64url(deflateSync(new Uint8Array(40e6), { level: 9 }));
    expect(refused(bomb)?.code).toBe('too-long');
    // Under the fragment limit but inflating past the cap (about 20 MB of zeros): stopped by the cap.
    const small = SHARE_PREFIX + b64url(deflateSync(new Uint8Array(20e6), { level: 9 }));
    expect(small.length).toBeLessThan(MAX_FRAGMENT_CHARS);
    expect(refused(small)).toEqual({ code: 'too-large', vars: { max: MAX_INFLATED_BYTES } });
    // A scenario whose link would exceed the limit: random names do not compress.
    let x = 2463534242;
    const xorshift = () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), x >>> 0);
    const huge = JSON.stringify({
      version: 1,
      name: Array.from({ length: 12_000 }, () => xorshift().toString(36)).join(''),
      processes: [],
    });
    const r = encodeShare({
      scenario: huge,
      view: { cursor: { event: 0, ns: 0 }, cpu: 0, colourBy: 'load', partner: '', lesson: null },
    });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason.code).toBe('too-long');
  });
});
