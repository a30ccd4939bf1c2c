// A lesson's own loads keep the lesson even when the learner has moved on a
// step (to another preset) before the load finished — the race that closed
// the Group Imbalance lesson under a quick Next. Loads from elsewhere (a
// preset picked in the header) still leave it. The engine is the real one,
// joined in-process; the load's answer is held back until the step has moved.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initSync } from '../../wasm-core/pkg/schedlab_core.js';
import { presetJson } from '../../src/engine/engine';
import { Lab } from '../../src/app/lab';
import { lessonById } from '../../src/classroom/lessons';
import { presetAt, scenarioJson } from '../../src/classroom/lesson';
import { defined } from '../defined';
import { connect } from './connect';

const root = join(import.meta.dirname, '..', '..');
beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core', 'pkg', 'schedlab_core_bg.wasm')) });
});

const lesson = defined(lessonById('group-imbalance'));
/** The first step whose preset differs from the step before it. */
const moved = lesson.steps.findIndex((_, i) => i > 0 && presetAt(lesson, i) !== presetAt(lesson, i - 1));

describe('a lesson load in flight', () => {
  it('the lesson has a step where the preset changes', () => {
    expect(moved).toBeGreaterThan(0);
  });

  it('keeps the lesson when the step moved on while it loaded', async () => {
    const lab = new Lab(connect());
    const before = presetAt(lesson, moved - 1);
    lab.lesson.set({ lesson: { id: lesson.id, step: moved - 1 } });
    const loading = lab.load(scenarioJson(lesson, before), true);
    // Next pressed before the engine answered: the step's preset is now another.
    lab.lesson.set({ lesson: { id: lesson.id, step: moved } });
    expect(await loading).toBe(true);
    expect(lab.scenario.get().name).toBe(before);
    expect(lab.lesson.get().lesson).toEqual({ id: lesson.id, step: moved });
  });

  it('a preset picked elsewhere still leaves the lesson', async () => {
    const lab = new Lab(connect());
    lab.lesson.set({ lesson: { id: lesson.id, step: 0 } });
    expect(await lab.load(presetJson('cfs-nice-levels'))).toBe(true);
    expect(lab.lesson.get().lesson).toBeNull();
  });
});
