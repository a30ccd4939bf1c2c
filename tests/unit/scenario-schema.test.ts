// The JSON Schema documents the scenario format the engine reads (generated
// from the scenario structs by wasm-core/src/api/scenario/schema.rs): every
// built-in preset and template validates against it, and the schema rejects
// what the engine rejects for shape (unknown fields, wrong types, a step of
// two kinds, an event that changes nothing).
import { describe, expect, it, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { initSync, scenarioChoices } from '../../wasm-core/pkg/schedlab_core.js';
import { PRESETS, presetText } from '../../src/engine/presets';

const root = join(import.meta.dirname, '..', '..');
const schema = JSON.parse(readFileSync(join(root, 'wasm-core/schema/scenario.v1.schema.json'), 'utf8'));

beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core/pkg/schedlab_core_bg.wasm')) });
});

describe('scenario schema v1', () => {
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

  it('accepts every built-in preset', () => {
    for (const { name } of PRESETS) {
      const ok = validate(JSON.parse(presetText(name)));
      expect(validate.errors ?? [], name).toEqual([]);
      expect(ok).toBe(true);
    }
  });

  it('accepts every template, by name and as its steps', () => {
    const s = JSON.parse(presetText('cfs-nice-levels'));
    for (const t of scenarioChoices().templates) {
      expect(validate({ ...s, processes: [{ name: 'x', template: t.name }] }), t.name).toBe(true);
      expect(validate({ ...s, processes: [{ name: 'x', program: t.program, job_pool: 4 }] }), t.name).toBe(true);
    }
  });

  it('rejects unknown fields and wrong types', () => {
    const s = JSON.parse(presetText('cfs-nice-levels')) as Record<string, unknown>;
    const step = (op: object) => ({ ...s, processes: [{ name: 'x', program: [op] }] });
    expect(validate({ ...s, colour: 'red' })).toBe(false);
    expect(validate({ ...s, duration_ms: 'long' })).toBe(false);
    expect(validate({ ...s, hz: null })).toBe(false);
    expect(validate(step({ run_us: 5, sleep_us: 5 }))).toBe(false);
    expect(validate(step({ spin_us: 5 }))).toBe(false);
    expect(validate(step({ post: 'f', to: 0 }))).toBe(false);
    expect(validate(step({ run_us: { uniform: [1, 2], exp: 3 } }))).toBe(false);
    expect(validate(step({ await: 'f', from: -2, wait_policy: 'block', spin_us: { exp: 5 } }))).toBe(true);
    expect(validate({ ...s, processes: [{ name: 'x', template: 'pi', program: [] }] })).toBe(false);
    expect(validate({ ...s, events: [{ at_ms: 1, cpu_offline: 1, cpu_online: 1 }] })).toBe(false);
    expect(validate({ ...s, bugs: 'linux-5' })).toBe(false);
    expect(validate({ ...s, sanity_checker: { period_ms: 10 } })).toBe(false);
  });

  it('documents the exercise as the engine reads it', () => {
    const s = JSON.parse(presetText('cfs-nice-levels'));
    const ok = (exercise: object) => validate({ ...s, exercise });
    expect(ok({ goal: 'longest_wasted_idle_ms', max: 4, text: 'Keep every core busy.' })).toBe(true);
    expect(ok({ goal: 'p99_wakeup_us', max: 100, process: 'sleeper' })).toBe(true);
    // A per-process goal names its process; a machine-wide one names none.
    expect(ok({ goal: 'p99_wakeup_us', max: 100 })).toBe(false);
    expect(ok({ goal: 'wasted_core_ms', max: 1, process: 'sleeper' })).toBe(false);
    expect(ok({ goal: 'fastest', max: 1 })).toBe(false);
    expect(ok({ goal: 'wasted_core_ms', max: -1 })).toBe(false);
    expect(ok({ goal: 'wasted_core_ms' })).toBe(false);
    expect(ok({ goal: 'wasted_core_ms', max: 1, bound: 2 })).toBe(false);
  });
});
