// Classroom lessons: every step has its words in both languages, every preset
// exists, and every question is answered by the simulation (a copy run
// forward from the step's anchor) with the answer among the choices.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initSync, validateScenario } from '../../wasm-core/pkg/schedlab_core.js';
import { Simulation, listPresets } from '../../src/engine/engine';
import { CATALOGS } from '../../src/i18n/catalogs';
import { translate } from '../../src/i18n/i18n';
import { LESSONS } from '../../src/classroom/lessons';
import { partnerAt, presetAt, scenarioJson } from '../../src/classroom/lesson';
import { applyAnchor } from '../../src/classroom/anchor';
import { predict } from '../../src/classroom/predict';

const root = join(import.meta.dirname, '..', '..');
beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core', 'pkg', 'schedlab_core_bg.wasm')) });
});

const keys = (lang: 'en' | 'zh') => new Set(CATALOGS.flatMap((c) => Object.keys(c[lang])));

describe('lessons', () => {
  it('have a title, narration and question prompts in English and Chinese', () => {
    for (const lang of ['en', 'zh'] as const) {
      const have = keys(lang);
      for (const l of LESSONS) {
        expect(have.has(`lesson.${l.id}.title`), `${lang} ${l.id}.title`).toBe(true);
        for (const s of l.steps) {
          expect(have.has(`lesson.${l.id}.${s.id}`), `${lang} ${l.id}.${s.id}`).toBe(true);
          if (s.question) expect(have.has(`lesson.${l.id}.${s.id}.q`), `${lang} ${l.id}.${s.id}.q`).toBe(true);
        }
      }
    }
  });

  it('run presets that exist or scenarios of their own, each lesson on a bug preset also showing its fixed twin', () => {
    const names = new Set(listPresets().map((p) => p.name));
    for (const l of LESSONS) {
      const used = l.steps.map((_, i) => presetAt(l, i));
      for (const p of used) expect(names.has(p) || Object.hasOwn(l.scenarios ?? {}, p), p).toBe(true);
      // A lesson that compares shows its counterpart as the partner on the same clock instead of a later step.
      const compares = l.steps.some((s) => s.partner);
      if (l.preset.match(/imbalance|construction|overload|missing/) && !compares)
        expect(used).toContain(`${l.preset}-fixed`);
      if (compares)
        l.steps.forEach((_, i) => i < l.steps.length - 1 && expect(partnerAt(l, i), `${l.id} ${i}`).not.toBeNull());
    }
  });

  it('name their own scenarios as the scenarios name themselves, and the engine accepts them', () => {
    for (const l of LESSONS)
      for (const [name, build] of Object.entries(l.scenarios ?? {})) {
        const text = build();
        expect((JSON.parse(text) as { name: string }).name, `${l.id}: ${name}`).toBe(name);
        expect(validateScenario(text), `${l.id}: ${name}`).toEqual([]);
      }
  });

  it('answer every question from the simulation, the answer among the choices', () => {
    const t = (k: string, v?: Record<string, string | number>) => translate('en', k, v);
    for (const l of LESSONS)
      l.steps.forEach((s, i) => {
        if (!s.question) return;
        const json = scenarioJson(l, presetAt(l, i));
        const sim = new Simulation(json);
        applyAnchor(sim, s.anchor);
        const p = predict(sim, sim.events, s.question, t);
        expect(p, `${l.id}.${s.id}`).not.toBeNull();
        if (!p) return;
        console.log(
          `${l.id}.${s.id} @${(sim.nowNs / 1e6).toFixed(3)}: [${p.choices.join(' | ')}] → ${p.choices[p.answer]} @${(p.atNs / 1e6).toFixed(3)}: ${p.reason}`,
        );
        expect(p.choices.length).toBeGreaterThanOrEqual(2);
        expect(p.answer).toBeGreaterThanOrEqual(0);
        expect(p.atEvent).toBeGreaterThan(sim.events);
        // The answer is what running the lab itself forward shows.
        sim.seekEvent(p.atEvent);
        if (s.question.kind === 'next-runner')
          expect(sim.nameOf(sim.view().cpus[s.question.cpu].curr ?? -1)).toBe(p.choices[p.answer]);
        if (s.question.kind === 'placement')
          expect(t('cls.cpu', { n: sim.placements(1)[0].chosen_cpu })).toBe(p.choices[p.answer]);
        sim.dispose();
      });
  }, 120_000);
});
