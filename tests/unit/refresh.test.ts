// The refresh scheduler (src/stores/refresh.ts): paused, every request asks
// for everything and every view group draws every frame; busy, at most one
// slow part per request, each every SLOW_MS, and one view group per frame;
// a group out of view draws nothing at its turn, and nothing is asked for
// panels all out of view.
import { describe, expect, it } from 'vitest';
import { RefreshScheduler, SLOW_MS, VIEW_GROUPS } from '../../src/stores/refresh';

const asked = (p: { report: boolean; tasks: boolean; history: boolean }) =>
  (['report', 'tasks', 'history'] as const).filter((k) => p[k]);

describe('refresh scheduler', () => {
  it('asks for everything and redraws every group when paused', () => {
    const r = new RefreshScheduler();
    expect(asked(r.ask(false, 0))).toEqual(['report', 'tasks', 'history']);
    expect(r.draw(false)).toEqual(VIEW_GROUPS);
  });

  it('while busy asks for at most one slow part per request, each every SLOW_MS, a third apart', () => {
    const r = new RefreshScheduler();
    r.start(1000);
    const seen: [number, string[]][] = [];
    for (let t = 1000; t <= 1000 + 3 * SLOW_MS; t += 16) {
      const a = asked(r.ask(true, t));
      expect(a.length).toBeLessThanOrEqual(1);
      if (a.length) seen.push([t, a]);
    }
    // Staggered from the start: the history falls due a third of SLOW_MS in, the tasks two thirds, the report
    // after SLOW_MS (the frame that started the stretch had all three); then each again SLOW_MS later.
    expect(seen.slice(0, 6).map(([, a]) => a[0])).toEqual(['history', 'tasks', 'report', 'history', 'tasks', 'report']);
    expect(seen[0][0] - 1000).toBeGreaterThanOrEqual(SLOW_MS / 3);
    const reports = seen.filter(([, a]) => a[0] === 'report').map(([t]) => t);
    expect(reports[1] - reports[0]).toBeGreaterThanOrEqual(SLOW_MS);
    expect(seen[1][0] - seen[0][0]).toBeGreaterThanOrEqual(SLOW_MS / 3 - 16);
    expect(seen[3][0] - seen[0][0]).toBeGreaterThanOrEqual(SLOW_MS);
  });

  it('while busy hands each frame to one view group, in turn', () => {
    const r = new RefreshScheduler();
    const turns = Array.from({ length: 6 }, () => r.draw(true));
    expect(turns.every((g) => g.length === 1)).toBe(true);
    expect(new Set(turns.slice(0, 3).flat())).toEqual(new Set(VIEW_GROUPS));
    expect(turns.slice(3)).toEqual(turns.slice(0, 3));
  });

  it('while busy draws nothing at the turn of a group out of view, and keeps the turns of those in view', () => {
    const r = new RefreshScheduler();
    const unseen = new Set(['runqueue', 'lanes'] as const);
    const turns = Array.from({ length: 6 }, () => r.draw(true, unseen).join());
    // The machine draws one frame in three, as with every group in view; the other frames draw nothing.
    expect(turns.filter((g) => g === 'topology')).toHaveLength(2);
    expect(turns.filter((g) => g === '')).toHaveLength(4);
    expect(turns.slice(3)).toEqual(turns.slice(0, 3));
    expect(Array.from({ length: 3 }, () => r.draw(true, new Set(VIEW_GROUPS)))).toEqual([[], [], []]);
    // Paused, everything draws, in view or not.
    expect(r.draw(false, new Set(VIEW_GROUPS))).toEqual(VIEW_GROUPS);
  });

  it('while busy asks for no slow part whose panels are all out of view, until one comes into view', () => {
    const r = new RefreshScheduler();
    r.start(1000);
    const unseen = new Set(['heatmaps', 'charts', 'tasks'] as const);
    const seen: string[] = [];
    for (let t = 1000; t <= 1000 + 4 * SLOW_MS; t += 16) seen.push(...asked(r.ask(true, t, unseen)));
    // The report feeds the figures at the top of the page: it is asked for whatever is in view.
    expect(new Set(seen)).toEqual(new Set(['report']));
    // The heatmaps come into view: the history, long due, is asked for at once; the charts alone show it too.
    unseen.delete('heatmaps');
    expect(asked(r.ask(true, 1000 + 4 * SLOW_MS + 16, unseen))).toEqual(['history']);
    unseen.add('heatmaps');
    unseen.delete('charts');
    const later: string[] = [];
    for (let t = 1000 + 5 * SLOW_MS; t <= 1000 + 6 * SLOW_MS; t += 16) later.push(...asked(r.ask(true, t, unseen)));
    expect(later).toContain('history');
    expect(later).not.toContain('tasks');
    // Paused, everything is asked for.
    expect(asked(r.ask(false, 0, new Set(['heatmaps', 'charts', 'tasks'])))).toEqual(['report', 'tasks', 'history']);
  });
});
