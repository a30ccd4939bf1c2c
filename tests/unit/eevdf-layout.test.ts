// The EEVDF queue's layout and wording (src/views/eevdf-layout.ts): rows in
// the engine's order with curr first, bars from vruntime to deadline on an
// axis measured from V, V inside the plot, and why the pick is the pick.
import { describe, expect, it } from 'vitest';
import { eevdfLayout, fmtSignedMs, pickReason, pickedEntity, tickLabel } from '../../src/views/eevdf-layout';
import type { EevdfEntityView, EevdfRqView } from '../../src/engine/types';

const MS = 1e6;

const ent = (pid: number, vruntime: number, deadline: number, V: number, over: Partial<EevdfEntityView> = {}) => ({
  pid,
  name: `t${pid}`,
  group: null,
  vruntime,
  deadline,
  slice: 3 * MS,
  weight: 1024,
  vlag: V - vruntime,
  eligible: vruntime <= V,
  on_rq: true,
  protected: false,
  custom_slice: false,
  sched_delayed: false,
  ...over,
});

/** V = 100 ms; curr at 101 ms (not eligible), waiting: 99 ms (eligible) and 102 ms (not). */
function queue(over: Partial<EevdfRqView> = {}): EevdfRqView {
  const V = 100 * MS;
  return {
    tg: 0,
    name: '',
    nr_running: 3,
    avg_vruntime: V,
    zero_vruntime: V,
    min_vruntime: 99 * MS,
    load: 3072,
    curr: ent(1, 101 * MS, 104 * MS, V),
    queued: [ent(2, 99 * MS, 102 * MS, V), ent(3, 102 * MS, 105 * MS, V)],
    pick: 2,
    next_buddy: null,
    run_to_parity: true,
    ...over,
  };
}

describe('EEVDF queue layout', () => {
  it('draws curr first, then the waiting in deadline order, each from vruntime to deadline around V', () => {
    const L = eevdfLayout(queue(), 100, 700);
    expect(L.rows.map((r) => r.e.pid)).toEqual([1, 2, 3]);
    expect(L.rows.map((r) => r.running)).toEqual([true, false, false]);
    expect(L.rows.map((r) => r.pick)).toEqual([false, true, false]);
    expect(L.rows.map((r) => r.fromV / MS)).toEqual([1, -1, 2]);
    expect(L.rows.map((r) => r.deadlineFromV / MS)).toEqual([4, 2, 5]);
    // Eligible bars start left of V, ineligible ones right of it; every bar inside the plot.
    const [curr, eligible, ahead] = L.rows;
    expect(eligible.x0).toBeLessThan(L.vX);
    expect(curr.x0).toBeGreaterThan(L.vX);
    expect(ahead.x0).toBeGreaterThan(curr.x0);
    for (const r of L.rows) {
      expect(r.x0).toBeGreaterThanOrEqual(100);
      expect(r.x1).toBeLessThanOrEqual(700);
      expect(r.x1).toBeGreaterThan(r.x0);
    }
    expect(L.minX).toBeCloseTo(eligible.x0);
    expect(L.ticks.some((t) => t.ms === 0 && Math.abs(t.x - L.vX) < 1e-9)).toBe(true);
    expect(L.hidden).toBe(0);
  });

  it('counts the rows it leaves out, and spans 1 ms at least around a lone entity', () => {
    const V = 100 * MS;
    const many = Array.from({ length: 30 }, (_, i) => ent(10 + i, V, V + i, V));
    const L = eevdfLayout(queue({ queued: many, nr_running: 31 }), 0, 600, 24);
    expect(L.rows.length).toBe(24);
    expect(L.hidden).toBe(7);
    const lone = eevdfLayout(
      queue({ curr: ent(1, V, V, V), queued: [], min_vruntime: null, nr_running: 1, pick: 1 }),
      0,
      600,
    );
    expect(lone.minX).toBeNull();
    expect(lone.vX).toBeCloseTo(300);
  });

  it('says why the pick is the pick', () => {
    expect(pickReason(queue())).toBe('earliest');
    expect(pickedEntity(queue())?.pid).toBe(2);
    expect(pickReason(queue({ pick: null }))).toBe('none');
    expect(pickedEntity(queue({ pick: null }))).toBeNull();
    expect(pickReason(queue({ nr_running: 1, queued: [], pick: 1 }))).toBe('only');
    expect(pickReason(queue({ next_buddy: 2 }))).toBe('buddy');
    const V = 100 * MS;
    const protectedCurr = queue({ curr: ent(1, 99.5 * MS, 104 * MS, V, { protected: true }), pick: 1 });
    expect(pickReason(protectedCurr)).toBe('parity');
    expect(pickedEntity(protectedCurr)?.pid).toBe(1);
    expect(pickReason({ ...protectedCurr, run_to_parity: false })).toBe('earliest');
  });

  it('prints signed milliseconds and V-relative ticks', () => {
    expect(fmtSignedMs(1_234_567)).toBe('+1.235');
    expect(fmtSignedMs(-500_000)).toBe('\u22120.500');
    expect(fmtSignedMs(0)).toBe('+0.000');
    expect(fmtSignedMs(-1)).toBe('+0.000');
    expect(tickLabel(0)).toBe('V');
    expect(tickLabel(2)).toBe('+2');
    expect(tickLabel(-0.5)).toBe('\u22120.5');
    expect(tickLabel(0.1 + 0.2)).toBe('+0.3');
  });
});
