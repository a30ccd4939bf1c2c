// Which CPUs the topology view outlines: those considered by the latest
// decision at the cursor, a wakeup/fork placement or a load_balance call,
// whichever came last, with one sentence saying what was decided.
import type { DecisionView, PlacementView } from '../../engine/types';
import { cpusOf, toCpuList } from '../cpuset';
import { explainDecision } from '../inspector-words';
import type { Translate } from '../../i18n/translate';

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

export function placementFocus(p: PlacementView, t: Translate): Focus {
  const moved = p.chosen_cpu !== p.prev_cpu ? t('focus.movedFrom', { cpu: p.prev_cpu }) : t('focus.kept');
  return {
    kind: 'placement',
    tNs: p.t_ns,
    considered: cpusOf(p.considered),
    busiest: [],
    chosen: p.chosen_cpu,
    actor: null,
    caption: t('focus.placement', {
      t: ms(p.t_ns),
      kind: t(`focus.kind.${p.kind}`),
      task: p.task,
      how: t(p.kind === 'fork' ? 'focus.forked' : p.kind === 'exec' ? 'focus.execed' : 'focus.woken'),
      waker: p.waker_cpu,
      path: p.path,
      cpus: toCpuList(cpusOf(p.considered)) || t('focus.none'),
      chosen: p.chosen_cpu,
      moved,
    }),
  };
}

export function balanceFocus(d: DecisionView, t: Translate): Focus {
  const considered = d.groups.flatMap((g) => cpusOf(g.cpus));
  const busiest = d.busiest_group === null ? [] : cpusOf(d.groups[d.busiest_group]?.cpus ?? []);
  return {
    kind: 'balance',
    tNs: d.t_ns,
    considered,
    busiest,
    chosen: d.busiest_cpu,
    actor: d.cpu,
    caption: t('focus.balance', { t: ms(d.t_ns), cpus: toCpuList(considered), why: explainDecision(d, t) }),
  };
}

/** The later of the two; a balancing decision wins a tie (it follows the tick). */
export function latestFocus(p: PlacementView | undefined, d: DecisionView | undefined, t: Translate): Focus | null {
  if (!p && !d) return null;
  if (p && (!d || p.t_ns > d.t_ns)) return placementFocus(p, t);
  return balanceFocus(d as DecisionView, t);
}
