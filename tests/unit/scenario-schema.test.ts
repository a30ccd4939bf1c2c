// The JSON Schema documents the scenario format the engine reads: every
// built-in preset validates against it, and the schema rejects what the
// engine rejects for shape (unknown fields, wrong types).
import { describe, expect, it, beforeAll } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { initSync, presetList, presetScenario } from '../../wasm-core/pkg/schedlab_core.js';

const root = join(import.meta.dirname, '..', '..');
const schema = JSON.parse(readFileSync(join(root, 'wasm-core/schema/scenario.v1.schema.json'), 'utf8'));

beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core/pkg/schedlab_core_bg.wasm')) });
});

describe('scenario schema v1', () => {
  const validate = new Ajv2020({ allErrors: true, strict: false }).compile(schema);

  it('accepts every built-in preset', () => {
    for (const { name } of JSON.parse(presetList()) as { name: string }[]) {
      const ok = validate(JSON.parse(presetScenario(name)));
      expect(validate.errors ?? [], name).toEqual([]);
      expect(ok).toBe(true);
    }
  });

  it('rejects unknown fields and wrong types', () => {
    const s = JSON.parse(presetScenario('cfs-nice-levels'));
    expect(validate({ ...s, colour: 'red' })).toBe(false);
    expect(validate({ ...s, duration_ms: 'long' })).toBe(false);
    expect(validate({ ...s, processes: [{ name: 'x', program: [{ run_us: 5, sleep_us: 5 }] }] })).toBe(false);
  });

  it('documents the exercise as the engine reads it', () => {
    const s = JSON.parse(presetScenario('cfs-nice-levels'));
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
