// The balancing inspector's sentences: each group's numbers and the
// decision's steps (compare groups, pick the busiest, size the imbalance,
// move or not) said in plain words. Only the decision's own numbers are
// used, and the reason (`why`) the engine gives as data.
// Pure: the caller passes the interface language's translate function.
import type { DecisionView, GroupStatsView, WhyView } from '../engine/types';
import type { Translate } from '../i18n/translate';
import { cpuCount, cpuListText } from './cpuset';
import { shownText } from './hidden-chars';

/** 6.12's seven group types (`enum group_type`), least busy first; 4.1 has other, imbalanced, overloaded. */
export const GROUP_TYPES_612 = [
  'has_spare',
  'fully_busy',
  'misfit_task',
  'smt_balance',
  'asym_packing',
  'imbalanced',
  'overloaded',
] as const;

/** The group type in words; capacity is in units of 1024 per full CPU (SMT siblings share one). */
function typeWords(g: GroupStatsView, d: DecisionView, t: Translate): string {
  const worth = t('words.worth', { cap: g.group_capacity, n: (g.group_capacity / 1024).toFixed(1) });
  // 6.12 ranks groups by its seven types; imbalanced and overloaded mean what they meant in 4.1.
  if (d.kernel === '6.12' && g.group_type !== 'imbalanced' && g.group_type !== 'overloaded')
    return t(`words.612.${g.group_type}`, { worth, util: g.util });
  if (g.group_type === 'overloaded') return t('words.overloaded', { worth });
  if (g.group_type === 'imbalanced') return t('words.imbalanced');
  if (g.group_type === 'other') return t('words.other', { worth });
  return g.group_type;
}

/** A group type's name in the interface language (the kernel's word in English). */
export function typeName(type: string, t: Translate): string {
  return t(`gtype.${type}`);
}

/** "3 runnable tasks": the catalog has a .one and a .many form of each counted noun. */
const plural = (t: Translate, n: number, key: string) => t(`${key}.${n === 1 ? 'one' : 'many'}`, { n });

function compare(a: number, b: number, t: Translate): string {
  return t(a > b ? 'words.above' : a < b ? 'words.below' : 'words.equal');
}

/**
 * Whether the group's average load was worked out: 4.1 always does; 6.12 only for an overloaded
 * group, and for the local group when calculate_imbalance needs it (update_sg_lb_stats, fair.c 10502–10505).
 */
export function avgComputed(g: GroupStatsView, d: DecisionView): boolean {
  return d.kernel !== '6.12' || g.group_type === 'overloaded' || g.avg_load > 0;
}

/** One sentence about one group's statistics. */
export function groupSentence(g: GroupStatsView, i: number, d: DecisionView, t: Translate): string {
  const cpus = cpuCount(g.cpus);
  const role = t(g.local ? 'words.roleLocal' : i === d.busiest_group ? 'words.roleBusiest' : 'words.roleOther');
  const tasks = t('words.has', {
    role,
    tasks: plural(t, g.sum_nr_running, 'words.tasks'),
    cpus: plural(t, cpus, 'words.cpus'),
    idle: g.idle_cpus,
  });
  const avg = avgComputed(g, d)
    ? t('words.avg', {
        avg: g.avg_load,
        cmp: compare(g.avg_load, d.domain_avg_load, t),
        dom: d.domain_avg_load,
      })
    : t('words.avg612none');
  const spread = g.max_load !== g.min_load ? t('words.spread', { min: g.min_load, max: g.max_load }) : '';
  return t('words.sentence', { tasks, kind: typeWords(g, d, t), avg, spread });
}

/** The decision as numbered steps. */
export function decisionSteps(d: DecisionView, nameOf: (pid: number) => string, t: Translate): string[] {
  const steps = [
    t('words.step1', {
      cpu: d.cpu,
      idle: d.idle,
      level: d.level,
      groups: plural(t, d.groups.length, 'words.groups'),
      avg: d.domain_avg_load,
    }),
  ];
  if (d.outcome === 'not-designated') {
    steps.push(explainDecision(d, t) + t('dec.stop'));
    return steps;
  }
  const b = d.busiest_group === null ? undefined : d.groups[d.busiest_group];
  const type = b ? typeName(b.group_type, t) : '';
  steps.push(b ? t('words.busiest', { cpus: cpuListText(b.cpus), type, avg: b.avg_load }) : t('words.noBusiest'));
  if (d.imbalance > 0 && d.migration !== null)
    steps.push(t(`words.imbalance612.${d.migration}`, { imb: d.imbalance, mig: t(`mig.${d.migration}`) }));
  else if (d.imbalance > 0) steps.push(t('words.imbalance', { imb: d.imbalance }));
  if (d.outcome === 'moved') {
    steps.push(
      t('words.pulled', { names: d.moved.map((pid) => shownText(nameOf(pid))).join(', '), cpu: d.busiest_cpu ?? '?' }),
    );
  } else {
    const why = d.why ? whyWords(d.why, t) : t(`why.outcome.${d.outcome}`, { from: d.from_cpu ?? '?' });
    steps.push(t('words.nothing', { why }));
  }
  return steps;
}

/** Why nothing moved, from the engine's reason code and numbers. */
export function whyWords(w: WhyView, t: Translate): string {
  if (w.code === 'busiest-has-no-task' || w.code === 'local-not-below-busiest')
    return t(`why.${w.code}`, { ...w, cpus: cpuListText(w.cpus) });
  if (w.code === 'local-type-busier')
    return t(`why.${w.code}`, { local: typeName(w.local, t), busiest: typeName(w.busiest, t) });
  if (w.code !== 'skipped') return t(`why.${w.code}`, w);
  const parts = (
    [
      ['running', w.running],
      ['pinned', w.pinned],
      ['hot', w.hot],
      ['tooHeavy', w.too_heavy],
      ['overImbalance', w.over_imbalance],
    ] as const
  )
    .filter(([, n]) => n > 0)
    .map(([k, n]) => t(`why.skip.${k}`, { n }));
  return parts.length === 0 ? t('why.skipped.none') : t('why.skipped', { parts: parts.join(t('why.sep')) });
}

/** The decision in one sentence, in the interface language (in English, the engine's own sentence). */
export function explainDecision(d: DecisionView, t: Translate): string {
  const who = t('dec.who', { cpu: d.cpu, level: d.level, idle: t(`dec.idle.${d.idle}`) });
  const why = d.why ? whyWords(d.why, t) : '';
  const from = d.from_cpu ?? '?';
  const sentence = t(`dec.${d.outcome}`, {
    who,
    why,
    from,
    designated: d.designated_cpu ?? '?',
    n: d.moved.length,
    imb: d.imbalance,
  });
  // 6.12 says what the imbalance it covered was counted in.
  return d.outcome === 'moved' && d.migration !== null
    ? sentence + t('dec.counted', { unit: t(`mig.unit.${d.migration}`) })
    : sentence;
}
