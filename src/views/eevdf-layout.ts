// The layout of a Linux 6.12 EEVDF queue (no React, so the unit tests read
// it): the rows — the running entity first, then the waiting ones in
// deadline order, as the kernel's tree holds them — each a bar from its
// vruntime to its virtual deadline on an axis of vruntime measured from the
// queue's zero-lag point V (avg_vruntime); the axis' ticks; why the pick is
// the pick; and the signed millisecond figures the rows print. Every number
// is the engine's (wasm-core/src/sim/fair/linux612/queue_view.rs); nothing
// here decides eligibility or the pick.
import * as d3 from 'd3';
import type { EevdfEntityView, EevdfRqView } from '../engine/types';

/** Rows drawn at most per queue; the rest are counted. */
export const EEVDF_ROWS = 24;

export interface EevdfRow {
  e: EevdfEntityView;
  /** The running entity (`cfs_rq->curr`, kept out of the tree). */
  running: boolean;
  /** What the next pick takes. */
  pick: boolean;
  /** The next buddy (`cfs_rq->next`). */
  buddy: boolean;
  /** vruntime − V and deadline − V, ns. */
  fromV: number;
  deadlineFromV: number;
  /** The bar's ends in px. */
  x0: number;
  x1: number;
}

export interface EevdfTick {
  x: number;
  /** ms from V (0 is V itself). */
  ms: number;
}

export interface EevdfLayout {
  rows: EevdfRow[];
  /** Waiting entities past `EEVDF_ROWS`, not drawn. */
  hidden: number;
  /** Where V is, px. */
  vX: number;
  /** Where the least waiting vruntime is, px (null: nothing waits). */
  minX: number | null;
  ticks: EevdfTick[];
  /** The plot's left and right edges, px. */
  left: number;
  right: number;
}

/**
 * Lays `q` out across a plot from `left` to `right` px: the domain is every
 * drawn vruntime and deadline and V itself, measured from V, padded by a
 * twentieth each side and never narrower than 1 ms.
 */
export function eevdfLayout(q: EevdfRqView, left: number, right: number, maxRows = EEVDF_ROWS): EevdfLayout {
  const V = q.avg_vruntime;
  const entities: { e: EevdfEntityView; running: boolean }[] = [];
  if (q.curr) entities.push({ e: q.curr, running: true });
  const room = Math.max(0, maxRows - entities.length);
  for (const e of q.queued.slice(0, room)) entities.push({ e, running: false });
  const hidden = q.queued.length - Math.min(q.queued.length, room);
  let lo = 0;
  let hi = 0;
  for (const { e } of entities) {
    lo = Math.min(lo, e.vruntime - V, e.deadline - V);
    hi = Math.max(hi, e.vruntime - V, e.deadline - V);
  }
  if (q.min_vruntime !== null) lo = Math.min(lo, q.min_vruntime - V);
  const pad = Math.max((hi - lo) / 20, 0);
  lo -= pad;
  hi += pad;
  if (hi - lo < 1e6) {
    const grow = (1e6 - (hi - lo)) / 2;
    lo -= grow;
    hi += grow;
  }
  const x = d3.scaleLinear().domain([lo, hi]).range([left, right]);
  const rows = entities.map(({ e, running }) => {
    const fromV = e.vruntime - V;
    const deadlineFromV = e.deadline - V;
    return {
      e,
      running,
      pick: q.pick === e.pid,
      buddy: q.next_buddy === e.pid,
      fromV,
      deadlineFromV,
      x0: x(Math.min(fromV, deadlineFromV)),
      x1: x(Math.max(fromV, deadlineFromV)),
    };
  });
  const msScale = d3.scaleLinear().domain([lo / 1e6, hi / 1e6]);
  const ticks = msScale.ticks(Math.max(2, Math.floor((right - left) / 90))).map((ms) => ({ x: x(ms * 1e6), ms }));
  return {
    rows,
    hidden,
    vX: x(0),
    minX: q.min_vruntime === null ? null : x(q.min_vruntime - V),
    ticks,
    left,
    right,
  };
}

/** Nanoseconds as signed milliseconds, three decimals, with a true minus and a plus ("+0.000" for 0). */
export function fmtSignedMs(ns: number): string {
  const s = Math.abs(ns / 1e6).toFixed(3);
  return ns < 0 && s !== '0.000' ? `\u2212${s}` : `+${s}`;
}

/** A tick's words: V itself, or its distance from V in ms. */
export function tickLabel(ms: number): string {
  if (ms === 0) return 'V';
  const s = String(Math.abs(Number(ms.toPrecision(6))));
  return ms < 0 ? `\u2212${s}` : `+${s}`;
}

/** Why the next pick is what it is (`pick_next_entity`, then `pick_eevdf`). */
export type PickReason = 'none' | 'only' | 'buddy' | 'parity' | 'earliest';

export function pickReason(q: EevdfRqView): PickReason {
  if (q.pick === null) return 'none';
  if (q.nr_running === 1) return 'only';
  if (q.pick === q.next_buddy) return 'buddy';
  if (q.curr && q.pick === q.curr.pid && q.curr.protected && q.run_to_parity) return 'parity';
  return 'earliest';
}

/** The entity the pick names, if it is drawn in `q` (the running one or a waiting one). */
export function pickedEntity(q: EevdfRqView): EevdfEntityView | null {
  if (q.pick === null) return null;
  if (q.curr && q.curr.pid === q.pick) return q.curr;
  return q.queued.find((e) => e.pid === q.pick) ?? null;
}
