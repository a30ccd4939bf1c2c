// Which CPUs the topology view outlines: those considered by the latest
// decision at the cursor, a wakeup/fork placement or a load_balance call,
// whichever came last, with one sentence saying what was decided.
import type { DecisionView, PlacementView } from '../../engine/types';
import { parseCpuList } from '../cpulist';

export interface Focus {
  kind: 'placement' | 'balance';
  tNs: number;
  /** CPUs the decision looked at. */
  considered: number[];
  /** The busiest group's CPUs (balancing only). */
  busiest: number[];
  /** Where the task went (placement) or the busiest CPU (balancing). */
  chosen: number | null;
  /** The CPU that balanced (balancing only). */
  actor: number | null;
  caption: string;
}

const ms = (ns: number) => (ns / 1e6).toFixed(3);

/** Compresses sorted CPU numbers into a cpulist ("0-7,16"). */
export function toCpuList(cpus: number[]): string {
  const s = [...cpus].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < s.length; i++) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j] + 1) j++;
    parts.push(i === j ? `${s[i]}` : `${s[i]}-${s[j]}`);
    i = j;
  }
  return parts.join(',');
}

export function placementFocus(p: PlacementView): Focus {
  const moved = p.chosen_cpu !== p.prev_cpu ? `moved it from CPU ${p.prev_cpu}` : 'kept its previous CPU';
  return {
    kind: 'placement',
    tNs: p.t_ns,
    considered: p.considered,
    busiest: [],
    chosen: p.chosen_cpu,
    actor: null,
    caption:
      `${ms(p.t_ns)} ms — ${p.kind} of ${p.task} (${p.kind === 'fork' ? 'forked' : 'woken'} on CPU ${p.waker_cpu}): ` +
      `${p.path} looked at CPUs ${toCpuList(p.considered) || 'none'} and chose CPU ${p.chosen_cpu}, which ${moved}.`,
  };
}

export function balanceFocus(d: DecisionView): Focus {
  const considered = d.groups.flatMap((g) => parseCpuList(g.cpus));
  const busiest = d.busiest_group === null ? [] : parseCpuList(d.groups[d.busiest_group]?.cpus ?? '');
  return {
    kind: 'balance',
    tNs: d.t_ns,
    considered,
    busiest,
    chosen: d.busiest_cpu,
    actor: d.cpu,
    caption: `${ms(d.t_ns)} ms — load balancing over CPUs ${toCpuList(considered)}: ${d.explanation}`,
  };
}

/** The later of the two; a balancing decision wins a tie (it follows the tick). */
export function latestFocus(p: PlacementView | undefined, d: DecisionView | undefined): Focus | null {
  if (!p && !d) return null;
  if (p && (!d || p.t_ns > d.t_ns)) return placementFocus(p);
  return balanceFocus(d as DecisionView);
}
