// The inspector's sentences say the decision's own numbers; in English the
// decision's sentence is the engine's own, word for word, and in Chinese it
// is all Chinese.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decisionSteps, explainDecision, groupSentence } from '../../src/views/inspector-words';
import { eventText } from '../../src/views/event-words';
import type { DecisionView, GroupStatsView } from '../../src/engine/types';
import { translate } from '../../src/i18n/i18n';
import { initSync, Simulator } from '../../wasm-core/pkg/schedlab_core.js';
import { presetText } from '../../src/engine/presets';

beforeAll(() => {
  initSync({
    module: readFileSync(join(import.meta.dirname, '..', '..', 'wasm-core', 'pkg', 'schedlab_core_bg.wasm')),
  });
});

/** A group over CPUs lo..hi (inclusive), as the engine's bitmap. */
const group = (lo: number, hi: number, over: Partial<GroupStatsView>): GroupStatsView => ({
  cpus: [((2 ** (hi + 1) - 1) ^ (2 ** lo - 1)) >>> 0],
  local: false,
  avg_load: 100,
  group_load: 800,
  group_capacity: 8192,
  sum_nr_running: 8,
  idle_cpus: 0,
  load_per_task: 100,
  util: 0,
  group_type: 'other',
  min_load: 100,
  max_load: 100,
  ...over,
});

const decision: DecisionView = {
  kernel: '4.1',
  t_ns: 5e6,
  cpu: 8,
  level: 'NUMA(16)',
  idle: 'newly-idle',
  groups: [
    group(8, 15, { local: true, avg_load: 90, sum_nr_running: 7, idle_cpus: 1, min_load: 0, max_load: 180 }),
    group(0, 7, { group_type: 'overloaded', avg_load: 160, sum_nr_running: 11 }),
  ],
  busiest_group: 1,
  domain_avg_load: 113,
  imbalance: 15,
  migration: null,
  busiest_cpu: 4,
  outcome: 'moved',
  moved: [42],
  from_cpu: 4,
  designated_cpu: null,
  why: null,
  explanation: 'CPU 8 balancing at NUMA(16) (newly-idle): pulled 1 task(s) from CPU 4 to cover an imbalance of 15',
};

const en = (k: string, v?: Record<string, string | number>) => translate('en', k, v);

describe('inspector sentences', () => {
  it('describe each group with its numbers', () => {
    const local = groupSentence(decision.groups[0], 0, decision, en);
    expect(local).toContain('own group has 7 runnable tasks on 8 CPUs, 1 idle');
    expect(local).toContain('below the domain’s 113');
    expect(local).toContain('from load 0 to 180');
    const busiest = groupSentence(decision.groups[1], 1, decision, en);
    expect(busiest).toMatch(/^The busiest group has 11 runnable tasks on 8 CPUs, 0 idle; overloaded/);
  });

  it('walk through the decision: groups, busiest, imbalance, what moved', () => {
    const steps = decisionSteps(decision, (p) => `task${p}`, en);
    expect(steps[0]).toBe(
      'CPU 8 (newly-idle) balances its NUMA(16) domain: it compares 2 groups of CPUs, whose average load is 113.',
    );
    expect(steps[1]).toContain('CPUs 0-7');
    expect(steps[2]).toContain('The imbalance is 15');
    expect(steps[3]).toBe('It pulled task42 from CPU 4.');
    const why = { code: 'local-at-domain-average', local: 90, avg: 80 } as const;
    const none = decisionSteps(
      {
        ...decision,
        outcome: 'balanced',
        moved: [],
        imbalance: 0,
        busiest_group: null,
        from_cpu: null,
        why,
        explanation: '',
      },
      String,
      en,
    );
    expect(none.at(-1)).toBe(
      "Nothing moved: the local group's average load 90 is already at or above the domain average 80.",
    );
  });

  it('word a 6.12 decision by its group types and migration type', () => {
    const d612: DecisionView = {
      ...decision,
      kernel: '6.12',
      groups: [
        group(8, 15, { local: true, group_type: 'has_spare', idle_cpus: 3, util: 5000, avg_load: 0 }),
        group(0, 7, { group_type: 'overloaded', avg_load: 160, sum_nr_running: 11 }),
      ],
      imbalance: 2,
      migration: 'task',
      explanation:
        'CPU 8 balancing at NUMA(16) (newly-idle): pulled 1 task(s) from CPU 4 to cover an imbalance of 2, counted in tasks',
    };
    expect(explainDecision(d612, en)).toBe(d612.explanation);
    const local = groupSentence(d612.groups[0], 0, d612, en);
    expect(local).toContain('has_spare — its capacity of 8192');
    // 6.12 works out avg_load only for an overloaded group: the sentence does not call 0 an average.
    expect(local).toContain('its average load is not worked out');
    expect(groupSentence(d612.groups[1], 1, d612, en)).toContain('average load 160');
    const steps = decisionSteps(d612, (p) => `task${p}`, en);
    expect(steps[1]).toContain('(overloaded here)');
    expect(steps[2]).toBe(
      'The imbalance is 2 task(s) (migrate_task): tasks to move so that the groups’ idle CPUs or tasks even out.',
    );
  });

  it('word every decision of real runs as the engine does, and in Chinese without English left', () => {
    const zh = (k: string, v?: Record<string, string | number>) => translate('zh', k, v);
    const seen = new Set<string>();
    /** The preset as it stands, or moved to 6.12 (which refuses the bug switches). */
    const on = (preset: string, kernel: string) => {
      const s = JSON.parse(presetText(preset));
      if (kernel === '4.1') return JSON.stringify(s);
      delete s.bugs;
      return JSON.stringify({ ...s, kernel });
    };
    for (const [preset, kernel] of [
      ['group-imbalance-make', '4.1'],
      ['group-construction-numactl', '4.1'],
      ['overload-on-wakeup-db', '4.1'],
      ['missing-domains-hotplug', '4.1'],
      ['group-imbalance-make', '6.12'],
      ['group-construction-numactl', '6.12'],
      ['overload-on-wakeup-db', '6.12'],
    ]) {
      const sim = new Simulator(on(preset, kernel));
      for (const t of [20e6, 300e6, 900e6]) {
        sim.run_until(t);
        for (const d of sim.decisions(400, false)) {
          expect(explainDecision(d, en)).toBe(d.explanation);
          const words = explainDecision(d, zh);
          expect(words, words).not.toMatch(/balanc|because|moved|group|task|idle\b|busiest/);
          seen.add(`${kernel}:${d.why ? `${d.outcome}/${d.why.code}` : d.outcome}`);
        }
      }
      sim.free();
    }
    // The runs reach several kinds of outcome and reason, so the check means something.
    expect([...seen].filter((k) => k.startsWith('4.1:')).length).toBeGreaterThanOrEqual(5);
    expect([...seen].filter((k) => k.startsWith('6.12:')).length).toBeGreaterThanOrEqual(5);
  });

  it('word every kind of trace record as the engine does, and in Chinese', () => {
    const zh = (k: string, v?: Record<string, string | number>) => translate('zh', k, v);
    const kinds = new Set<string>();
    for (const preset of [
      'group-imbalance-make',
      'missing-domains-hotplug',
      'cfs-nice-levels',
      'overload-on-wakeup-db',
    ]) {
      const sim = new Simulator(presetText(preset));
      for (let i = 0; i < 60; i++) {
        sim.run_until(((i + 1) * sim.duration_ns()) / 60);
        for (const e of sim.recent_events(64)) {
          expect(eventText(e, en)).toBe(e.text);
          expect(eventText(e, zh)).not.toMatch(
            /woke up|started|exited|moved from|preempts|balanced domain|goes o|sleeps|used its slice/,
          );
          kinds.add(e.kind);
        }
      }
      sim.free();
    }
    expect(kinds.size).toBeGreaterThanOrEqual(8);
  });
});
