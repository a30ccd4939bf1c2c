// Exercises on the page: the goal read back from a scenario, the engine's
// verdict in every report of the run (before the end only "so far", then PASS
// or FAIL from the report's own figures; the rules are
// wasm-core/tests/it/exercise.rs's), the built-in exercises judged in the page's
// engine exactly as `schedsim run` judges them (the release build, as
// tests/unit/ext-policy-wasm.test.ts uses), and accepted by the engine.
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validateScenario } from '../../wasm-core/pkg/schedlab_core.js';
import { startPolicyEngine } from './policy-engine';
import type { Report } from '../../src/engine/types';
import { Simulation, presetJson } from '../../src/engine/engine';
import { exerciseOf, figureText, type Exercise } from '../../src/classroom/exercise';
import { EXERCISES, STARTERS, builtInByName, exerciseName, exerciseScenario } from '../../src/classroom/exercises';

const root = join(import.meta.dirname, '..', '..');
beforeAll(startPolicyEngine);

/** `schedsim run --json` of a scenario text: the engine's report with its own verdict. */
function native(json: string): Report {
  const file = join(mkdtempSync(join(tmpdir(), 'schedlab-exercise-')), 'scenario.json');
  writeFileSync(file, json);
  const cli = join(root, 'wasm-core', 'target', 'release', 'schedsim');
  return JSON.parse(execFileSync(cli, ['run', file, '--json'], { encoding: 'utf8' })) as Report;
}

/** A preset for `ms` with an exercise, as scenario text. */
function withExercise(preset: string, ms: number, exercise: Exercise): string {
  const s = JSON.parse(presetJson(preset)) as Record<string, unknown>;
  return JSON.stringify({ ...s, duration_ms: ms, exercise });
}

describe('exercise: the goal and the verdict', () => {
  it('reads the exercise a scenario carries, and none from one without', () => {
    const ex: Exercise = { goal: 'p99_wakeup_us', max: 100, process: 'sleeper', text: 'Wake fast.' };
    expect(exerciseOf(withExercise('cfs-nice-levels', 100, ex))).toEqual(ex);
    expect(exerciseOf(presetJson('cfs-nice-levels'))).toBeNull();
    expect(exerciseOf('{"exercise": {"goal": "fastest", "max": 1}}')).toBeNull();
    expect(exerciseOf('not json "exercise"')).toBeNull();
  });

  it('comes judged in the run’s own report: so far before the end, then PASS or FAIL', () => {
    // One tick at HZ 250: the bound of the keep-busy exercise (4.1's Group Imbalance bug breaks it by far).
    const ex: Exercise = { goal: 'longest_wasted_idle_ms', max: 4 };
    const text = withExercise('group-imbalance-make', 300, ex);
    expect(validateScenario(text)).toEqual([]);
    const sim = new Simulation(text);
    sim.runUntil(20e6);
    expect(sim.pageReport().exercise).toMatchObject({ goal: ex.goal, bound: 4, finished: false, pass: true });
    sim.runUntil(sim.durationNs);
    const r = sim.pageReport();
    expect(r.longest_wasted_idle).not.toBeNull();
    expect(r.exercise?.figure).toBe((r.longest_wasted_idle?.[2] ?? 0) / 1e6);
    expect(r.exercise).toMatchObject({ finished: true, pass: false });
    expect(r.exercise?.figure).toBeGreaterThan(4);
    expect(sim.report().exercise).toEqual(r.exercise);
    sim.dispose();
    // A scenario without an exercise: no verdict.
    const plain = new Simulation(presetJson('cfs-nice-levels'));
    expect(plain.pageReport().exercise).toBeUndefined();
    plain.dispose();
  });

  it('reads a process figure, and fails a process that gives none', () => {
    const run = (ex: Exercise) => {
      const s = JSON.parse(withExercise('cfs-nice-levels', 200, ex)) as { processes: object[] };
      // A process that starts after the run's end never wakes and never completes.
      s.processes.push({ name: 'late', start_ms: 500, program: [{ run_us: 1000 }] });
      const sim = new Simulation(JSON.stringify(s));
      sim.runUntil(sim.durationNs);
      const r = sim.pageReport();
      sim.dispose();
      return r;
    };
    const r = run({ goal: 'p99_wakeup_us', max: 1e6, process: 'sleeper' });
    const sleeper = r.processes.find((p) => p.name === 'sleeper');
    expect(r.exercise?.figure).toBe((sleeper?.wakeup_latency_ns?.[2] ?? NaN) / 1e3);
    expect(r.exercise?.pass).toBe(true);
    const never = run({ goal: 'max_wakeup_us', max: 1e6, process: 'late' }).exercise;
    expect(never).toMatchObject({ figure: null, pass: false, finished: true });
    const done = run({ goal: 'completion_ms', max: 1e6, process: 'late' }).exercise;
    expect(done).toMatchObject({ figure: null, pass: false });
  });

  it('writes figures as the engine does', () => {
    expect([3.2, 4, 0.0413, 1234.5678].map(figureText)).toEqual(['3.2', '4', '0.041', '1234.568']);
  });
});

describe('built-in exercises', () => {
  it('are judged in the page’s engine exactly as schedsim judges them, with the starters and a passing policy', () => {
    // Shortened runs (the verdict rule does not depend on the length); global FIFO passes keep-busy natively.
    const keepBusy = EXERCISES[0];
    const cases = [
      ...EXERCISES.map((e) => ({ e, policy: e.policy, ms: 300 })),
      { e: keepBusy, policy: STARTERS.fifo, ms: 300 },
    ];
    const passes: boolean[] = [];
    for (const { e, policy, ms } of cases) {
      const s = JSON.parse(exerciseScenario(e)) as Record<string, unknown>;
      const text = JSON.stringify({ ...s, duration_ms: ms, policy: { kind: 'ext', source: policy } });
      const engine = native(text).exercise;
      const sim = new Simulation(text);
      sim.runUntil(sim.durationNs);
      const page = sim.pageReport().exercise;
      sim.dispose();
      expect(page, e.id).toEqual(engine);
      passes.push(page?.pass ?? false);
    }
    // The starting policies fail their exercise; the shared queue keeps every core busy.
    expect(passes).toEqual([false, false, true]);
  }, 120_000);

  it('are the preset with the starter policy and the goal, and the engine accepts them', () => {
    for (const e of EXERCISES) {
      const text = exerciseScenario(e);
      const s = JSON.parse(text) as { name: string; policy: { kind: string; source: string } };
      expect(s.name).toBe(exerciseName(e));
      expect(builtInByName(s.name)).toBe(e);
      expect(s.policy).toEqual({ kind: 'ext', source: e.policy });
      expect(exerciseOf(text)).toEqual(e.exercise);
      expect(validateScenario(text)).toEqual([]);
    }
  });
});
