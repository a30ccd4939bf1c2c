// The starters a JavaScript policy begins from: the engine's own policy files,
// named in both languages; choosing kind 'ext' with no source starts from the
// global FIFO, and leaving it drops only a source nobody edited.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterKindChange, isEdited, STARTERS, starterOf } from '../../src/editor/policy-starters';
import { setField } from '../../src/editor/field-paths';
import { fromScenario, type FormModel } from '../../src/editor/scenario-form';
import editor from '../../src/i18n/messages/editor';

const policies = join(import.meta.dirname, '..', '..', 'wasm-core', 'policies');
const withPolicy = (kind: string, source = '', watchdog = ''): FormModel =>
  setField(
    setField(setField(fromScenario({}), 'policy.kind', kind), 'policy.source', source),
    'policy.watchdog_ms',
    watchdog,
  );

describe('starters', () => {
  it("are the engine's policy files, each titled and explained in English and Chinese", () => {
    expect(STARTERS.map((s) => s.id)).toEqual(['global-fifo', 'percpu-rr', 'weighted-vtime', 'keep-busy-skeleton']);
    for (const s of STARTERS) {
      expect(s.source).toBe(readFileSync(join(policies, `${s.id}.js`), 'utf8'));
      for (const lang of [editor.en, editor.zh]) {
        expect(lang[`editor.starter.${s.id}`], s.id).toBeTruthy();
        expect(lang[`editor.starterAbout.${s.id}`], s.id).toBeTruthy();
      }
    }
  });

  it('tell an untouched starter from typed code', () => {
    expect(starterOf(STARTERS[2].source)?.id).toBe('weighted-vtime');
    expect(starterOf(`${STARTERS[2].source}\n`)).toBeNull();
    expect(isEdited('')).toBe(false);
    expect(isEdited('  \n')).toBe(false);
    expect(isEdited(STARTERS[3].source)).toBe(false);
    expect(isEdited(`${STARTERS[0].source}// mine\n`)).toBe(true);
  });
});

describe('changing the kind', () => {
  it("to 'ext' with no source starts from the global FIFO; a source is kept", () => {
    expect(afterKindChange(withPolicy('ext')).policy.source).toBe(STARTERS[0].source);
    expect(afterKindChange(withPolicy('ext', ' \n')).policy.source).toBe(STARTERS[0].source);
    const mine = withPolicy('ext', 'function enqueue(p) {}');
    expect(afterKindChange(mine)).toBe(mine);
  });

  it("away from 'ext' drops an untouched starter and its watchdog, and keeps typed code", () => {
    const untouched = afterKindChange(withPolicy('cfs', STARTERS[1].source, '500'));
    expect(untouched.policy.source).toBe('');
    expect(untouched.policy.watchdog_ms).toBe('');
    expect(afterKindChange(withPolicy('eevdf', '', '500')).policy.watchdog_ms).toBe('');
    const typed = withPolicy('cfs', 'function enqueue(p) {}', '500');
    expect(afterKindChange(typed)).toBe(typed);
    const none = withPolicy('o1');
    expect(afterKindChange(none)).toBe(none);
  });
});
