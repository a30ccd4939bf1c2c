// Exercises on the page: the goal read back from a scenario, the run judged
// by the rules of wasm-core/src/api/exercise.rs (within the bound passes, over
// it fails, before the end it is only "so far", a run stopped short fails),
// the built-in exercises judged on the page exactly as `schedsim run` judges
// them (the release build, as tests/unit/ext-policy-wasm.test.ts uses), and
// accepted by the engine.
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initSync, validateScenario } from '../../wasm-core/pkg/schedlab_core.js';
import { installPolicyHost } from '../../src/engine/policy-host';
import type { Report } from '../../src/engine/types';
import { Simulation, presetJson } from '../../src/engine/engine';
import { exerciseOf, figureText, judge, type Exercise } from '../../src/classroom/exercise';
import { EXERCISES, STARTERS, builtInByName, exerciseName, exerciseScenario } from '../../src/classroom/exercises';

const root = join(import.meta.dirname, '..', '..');
beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core', 'pkg', 'schedlab_core_bg.wasm')) });
  installPolicyHost();
});

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

  it('judges a run from its own report: so far before the end, then PASS or FAIL', () => {
    // One tick at HZ 250: the bound of the keep-busy exercise (4.1's Group Imbalance bug breaks it by far).
    const ex: Exercise = { goal: 'longest_wasted_idle_ms', max: 4 };
    const text = withExercise('group-imbalance-make', 300, ex);
    expect(JSON.parse(validateScenario(text))).toEqual([]);
    const sim = new Simulation(text);
    sim.runUntil(20e6);
    const early = judge(ex, sim.pageReport(), sim.finished, sim.durationNs);
    expect(early).toMatchObject({ goal: ex.goal, bound: 4, finished: false, pass: true });
    sim.runUntil(sim.durationNs);
    expect(sim.finished).toBe(true);
    const r = sim.pageReport();
    const v = judge(ex, r, true, sim.durationNs);
    expect(r.longest_wasted_idle).not.toBeNull();
    expect(v.figure).toBe((r.longest_wasted_idle?.[2] ?? 0) / 1e6);
    expect(v).toMatchObject({ finished: true, pass: false });
    expect(v.figure).toBeGreaterThan(4);
    // The same run with a bound above its figure passes: the verdict is the figure against the bound, nothing else.
    expect(judge({ ...ex, max: (v.figure ?? 0) + 1 }, r, true, sim.durationNs).pass).toBe(true);
    // Stopped short of its duration (a policy failed, the budget ran out): fails whatever the figure.
    const short = judge({ ...ex, max: 1e9 }, { ...r, sim_time_ns: 5e6 }, true, sim.durationNs);
    expect(short).toMatchObject({ pass: false, stopped_early_ns: 5e6 });
    sim.dispose();
  });

  it('reads a process figure, and fails a process that gives none', () => {
    const s = JSON.parse(
      withExercise('cfs-nice-levels', 200, { goal: 'p99_wakeup_us', max: 1e6, process: 'sleeper' }),
    ) as {
      processes: object[];
    };
    // A process that starts after the run's end never wakes and never completes.
    s.processes.push({ name: 'late', start_ms: 500, program: [{ run_us: 1000 }] });
    const sim = new Simulation(JSON.stringify(s));
    sim.runUntil(sim.durationNs);
    const r = sim.pageReport();
    const sleeper = r.processes.find((p) => p.name === 'sleeper');
    const p99 = judge({ goal: 'p99_wakeup_us', max: 1e6, process: 'sleeper' }, r, true, sim.durationNs);
    expect(p99.figure).toBe((sleeper?.wakeup_latency_ns?.[2] ?? NaN) / 1e3);
    expect(p99.pass).toBe(true);
    const never = judge({ goal: 'max_wakeup_us', max: 1e6, process: 'late' }, r, true, sim.durationNs);
    expect(never).toMatchObject({ figure: null, pass: false, finished: true });
    const done = judge({ goal: 'completion_ms', max: 1e6, process: 'late' }, r, true, sim.durationNs);
    expect(done).toMatchObject({ figure: null, pass: false });
    sim.dispose();
  });

  it('writes figures as the engine does', () => {
    expect([3.2, 4, 0.0413, 1234.5678].map(figureText)).toEqual(['3.2', '4', '0.041', '1234.568']);
  });
});

describe('built-in exercises', () => {
  it('are judged on the page exactly as schedsim judges them, with the starters and a passing policy', () => {
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
      const page = judge(e.exercise, sim.pageReport(), sim.finished, sim.durationNs);
      sim.dispose();
      expect(page, e.id).toEqual(engine);
      passes.push(page.pass);
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
      expect(JSON.parse(validateScenario(text))).toEqual([]);
    }
  });
});
