// The balancing inspector's sentences: each group's numbers and the
// decision's steps (compare groups, pick the busiest, size the imbalance,
// move or not) said in plain words. Only the decision's own numbers are
// used; the engine's explanation carries the reason when nothing moved.
import type { DecisionView, GroupStatsView } from '../engine/types';
import { parseCpuList } from './cpulist';

/** The group type in words; capacity is in units of 1024 per full CPU (SMT siblings share one). */
function typeWords(g: GroupStatsView): string {
  const worth = `${g.group_capacity} (${(g.group_capacity / 1024).toFixed(1)} CPUs’ worth)`;
  if (g.group_type === 'overloaded') return `overloaded — more runnable tasks than its capacity of ${worth} can serve`;
  if (g.group_type === 'imbalanced') return 'imbalanced — affinity kept its tasks from spreading out';
  if (g.group_type === 'other') return `not overloaded — its capacity of ${worth} has room for its tasks`;
  return g.group_type;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function compare(a: number, b: number): string {
  return a > b ? 'above' : a < b ? 'below' : 'equal to';
}

/** One sentence about one group's statistics. */
export function groupSentence(g: GroupStatsView, i: number, d: DecisionView): string {
  const cpus = parseCpuList(g.cpus).length;
  const role = g.local ? 'The balancing CPU’s own group' : i === d.busiest_group ? 'The busiest group' : 'This group';
  const tasks = `${role} has ${plural(g.sum_nr_running, 'runnable task')} on ${plural(cpus, 'CPU')}, ${g.idle_cpus} idle`;
  const kind = typeWords(g);
  const avg = `average load ${g.avg_load} is ${compare(g.avg_load, d.domain_avg_load)} the domain’s ${d.domain_avg_load}`;
  const spread = g.max_load !== g.min_load ? `; its CPUs range from load ${g.min_load} to ${g.max_load}` : '';
  return `${tasks}; ${kind}; its ${avg}${spread}.`;
}

/** The decision as numbered steps. */
export function decisionSteps(d: DecisionView, nameOf: (pid: number) => string): string[] {
  const steps = [
    `CPU ${d.cpu} (${d.idle}) balances its ${d.level} domain: it compares ${plural(d.groups.length, 'group')} of CPUs, ` +
      `whose average load is ${d.domain_avg_load}.`,
  ];
  if (d.outcome === 'not-designated') {
    steps.push(d.explanation + '.');
    return steps;
  }
  const b = d.busiest_group === null ? undefined : d.groups[d.busiest_group];
  if (b) {
    steps.push(
      `The busiest group is CPUs ${b.cpus}: groups rank first by type (${b.group_type} here) and then by average load (${b.avg_load}).`,
    );
  } else {
    steps.push('No group is busier than the local one in a way worth fixing.');
  }
  if (d.imbalance > 0) {
    steps.push(
      `The imbalance is ${d.imbalance}: the load to pull so the busiest group comes down toward the average without lifting the local group above it.`,
    );
  }
  if (d.outcome === 'moved') {
    steps.push(`It pulled ${d.moved.map(nameOf).join(', ')} from CPU ${d.busiest_cpu ?? '?'}.`);
  } else {
    // The engine's sentence states why nothing moved.
    const why = d.explanation.split(': ').slice(1).join(': ');
    steps.push(`Nothing moved: ${why || d.outcome}.`);
  }
  return steps;
}
