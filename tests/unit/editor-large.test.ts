// The editor's helpers for large inputs (issue 19): the field set answered
// from the model's shape equals the listed one, messages split by row, long
// texts cut into pieces and clipped without splitting a character, the check
// the editor's worker runs, and a scenario file refused by its size unread.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initSync } from '../../wasm-core/pkg/schedlab_core.js';
import { PRESETS, presetText } from '../../src/engine/presets';
import { fromScenario, readProcess, type JsonObject } from '../../src/editor/scenario-form';
import { scenarioText } from '../../src/editor/form-to-scenario';
import { fieldIds, formFields, problemsByField, problemsByRow, setField } from '../../src/editor/field-paths';
import { scenarioWriter } from '../../src/editor/scenario-writer';
import { checkText } from '../../src/editor/check-text';
import { pieces } from '../../src/views/long-text-view';
import { clip } from '../../src/views/clipped-text';
import { MAX_SCENARIO_BYTES, readScenarioFile, ScenarioFileTooBig } from '../../src/views/scenario-file';

const root = join(import.meta.dirname, '..', '..');
beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core', 'pkg', 'schedlab_core_bg.wasm')) });
});
const presets = () => PRESETS.map((p) => p.name);

describe('large inputs: editor helpers', () => {
  it('formFields answers exactly as fieldIds, on every preset', () => {
    for (const name of presets()) {
      const form = fromScenario(JSON.parse(presetText(name)) as JsonObject);
      form.machine.distance = [
        ['10', '20'],
        ['20', '10'],
      ];
      const listed = fieldIds(form);
      const shaped = formFields(form);
      for (const id of listed) expect(shaped.has(id), `${name}: ${id}`).toBe(true);
      const n = form.processes.length;
      const others = [
        `processes[${n}]`,
        `processes[${n}].nice`,
        'processes[0].bogus',
        `cgroups[${form.cgroups.length}]`,
        'events[99].at_ms',
        'machine.distance[2][0]',
        'machine.distance[0][2]',
        'nope',
        'processes',
        'processes[0].program[1]',
      ];
      for (const id of others) expect(shaped.has(id), `${name}: ${id}`).toBe(listed.has(id));
    }
  });

  it('writes the same text as scenarioText, row by row, after edits too', () => {
    const write = scenarioWriter();
    for (const name of presets()) {
      let form = fromScenario(JSON.parse(presetText(name)) as JsonObject);
      expect(write(form), name).toBe(scenarioText(form));
      form = setField(form, 'processes[0].nice', '5');
      form = setField(form, 'description', 'line\n"quoted" schedlab:processes:x');
      expect(write(form), name).toBe(scenarioText(form));
    }
    const odd = fromScenario({
      version: 1,
      processes: [7, { name: 'a', __proto__x: 1, zz: { deep: [1, { b: 2 }] } }, 'row'],
      zzz: 'after',
    });
    expect(write(odd)).toBe(scenarioText(odd));
    // "processes" that is not a list stays in extra; a row added then is written whole.
    const notList = fromScenario({ version: 1, processes: 'none' });
    const added = { ...notList, processes: [readProcess({ name: 'n' })] };
    expect(write(added)).toBe(scenarioText(added));
  });

  it('splits messages by table row', () => {
    const form = fromScenario(JSON.parse(presetText('gi-colocation')) as JsonObject);
    const byField = problemsByField(
      [
        { path: 'processes[1].nice', message: 'a' },
        { path: 'processes[1].program[0].run_us', message: 'b' },
        { path: 'processes[12]', message: 'c' },
        { path: 'cgroups[0].shares', message: 'd' },
      ],
      formFields(form),
    );
    const rows = problemsByRow(byField, 'processes');
    expect([...rows.keys()].sort((a, b) => a - b)).toEqual([1, 12]);
    expect([...(rows.get(1)?.keys() ?? [])].sort()).toEqual(['processes[1].nice', 'processes[1].program']);
    expect(rows.get(12)?.get('processes[12]')?.[0].message).toBe('c');
  });

  it('cuts a long text into pieces at line ends and spaces, whole, never splitting a character', () => {
    const text = `${'word '.repeat(3000)}\nshort line\n${'x'.repeat(4500)}😀${'y'.repeat(1998)}😀tail`;
    const b = pieces(text);
    expect(b[0]).toBe(0);
    expect(b[b.length - 1]).toBe(text.length);
    const parts = b.slice(1).map((end, i) => text.slice(b[i], end));
    expect(parts.join('')).toBe(text);
    expect(parts.every((p) => p.length > 0 && p.length <= 2000)).toBe(true);
    expect(parts.includes('short line\n')).toBe(true);
    expect(parts[0].endsWith(' ')).toBe(true);
    for (const p of parts) expect(/^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/.test(p), p.slice(0, 20)).toBe(false);
    expect(clip('ab😀', 3)).toBe('ab');
    expect(clip('short', 10)).toBe('short');
  });

  it('checks a text as the worker does: problems, the model when asked, or why it is not a scenario', () => {
    const text = presetText('cfs-nice-levels');
    const ok = checkText(text, true);
    expect(ok.problems).toEqual([]);
    expect(ok.syntax).toBeNull();
    expect(ok.model?.name).toBe('cfs-nice-levels');
    expect(checkText(text, false).model).toBeNull();
    const bad = checkText('{"version": 1,', true);
    expect(bad.model).toBeNull();
    expect(bad.syntax).not.toBeNull();
    expect(bad.problems).toHaveLength(1);
    expect(checkText('[1]', true).syntax).toBe('the scenario must be a JSON object');
  });

  it('refuses a file larger than MAX_SCENARIO_BYTES without reading it', async () => {
    let read = false;
    const file = (size: number) =>
      ({
        name: 'f.json',
        size,
        text: () => {
          read = true;
          return Promise.resolve('{}');
        },
      }) as unknown as File;
    await expect(readScenarioFile(file(MAX_SCENARIO_BYTES + 1))).rejects.toBeInstanceOf(ScenarioFileTooBig);
    expect(read).toBe(false);
    expect(await readScenarioFile(file(MAX_SCENARIO_BYTES))).toBe('{}');
    expect(read).toBe(true);
    expect(MAX_SCENARIO_BYTES).toBe(8 * 1024 * 1024);
  });
});
