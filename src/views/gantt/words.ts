// The lanes in text: who ran where (their text alternative), the legend's
// tasks, the window's span and the axis's tick labels.
import { forEachSlice } from '../../engine/run-slices';
import type { useT } from '../../i18n/i18n';
import { shownText } from '../hidden-chars';

/** More tasks than this in the window and the legend lists the busiest only. */
const LEGEND_MAX = 24;

/** Who ran on each CPU in the window, in words (the lanes' text alternative; at most 16 CPUs, 6 names each). */
export function lanesWords(
  slices: Float64Array,
  nrCpus: number,
  t0Ns: number,
  t1Ns: number,
  nameOf: (pid: number) => string,
  t: ReturnType<typeof useT>,
): string {
  const byCpu = new Map<number, Map<number, number>>();
  forEachSlice(slices, (cpu, pid, startNs, endNs) => {
    const m = byCpu.get(cpu) ?? new Map<number, number>();
    m.set(pid, (m.get(pid) ?? 0) + (Math.min(endNs, t1Ns) - Math.max(startNs, t0Ns)));
    byCpu.set(cpu, m);
  });
  const parts: string[] = [];
  for (let cpu = 0; cpu < nrCpus && parts.length < 16; cpu++) {
    const m = byCpu.get(cpu);
    if (!m) continue;
    const names = [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([pid]) => shownText(nameOf(pid)));
    parts.push(t('a11y.lanesCpu', { cpu, names: names.join(', ') }));
  }
  return t('a11y.lanes', {
    t0: (t0Ns / 1e6).toFixed(1),
    t1: (t1Ns / 1e6).toFixed(1),
    list: parts.length ? parts.join('; ') : t('a11y.lanesIdle'),
  });
}

/** The tasks that ran in the window, by pid; only the busiest when there are many. */
export function legendEntries(slices: Float64Array): { shown: number[]; more: number } {
  const ranNs = new Map<number, number>();
  forEachSlice(slices, (_cpu, pid, startNs, endNs) => ranNs.set(pid, (ranNs.get(pid) ?? 0) + endNs - startNs));
  const pids = [...ranNs.keys()];
  if (pids.length <= LEGEND_MAX) return { shown: pids.sort((a, b) => a - b), more: 0 };
  const busiest = pids.sort((a, b) => (ranNs.get(b) ?? 0) - (ranNs.get(a) ?? 0)).slice(0, LEGEND_MAX);
  return { shown: busiest.sort((a, b) => a - b), more: pids.length - LEGEND_MAX };
}

export function fmtSpan(ns: number): string {
  return ns >= 10e6
    ? `${(ns / 1e6).toFixed(0)} ms`
    : ns >= 1e6
      ? `${(ns / 1e6).toFixed(1)} ms`
      : `${(ns / 1e3).toFixed(0)} µs`;
}

/** A tick label with as many decimals as the zoom needs to tell ticks apart. */
export function fmtTick(t: number, spanNs: number): string {
  const digits = spanNs >= 50e6 ? 0 : spanNs >= 5e6 ? 1 : spanNs >= 500e3 ? 2 : 3;
  return `${(t / 1e6).toFixed(digits)} ms`;
}
