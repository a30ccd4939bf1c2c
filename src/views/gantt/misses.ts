// Missed deadlines on the lanes (the engine's records, wasm-core/src/sim/misses.rs):
// a mark at the deadline on the lane of the CPU the task was on, and a line
// along the lane's foot to when the run noticed (for a periodic task, when its
// late job ended). Black with a white edge, so it reads on every task colour.
import type { MissView } from '../../engine/types';
import type { Translate } from '../../i18n/translate';
import { shownText } from '../hidden-chars';
import type { LanesGeometry } from './canvas';

export const MISS_COLOR = '#111111';

/** Where a miss is drawn: its lane's top, the deadline's x and the notice's x (CSS px). */
function place(m: MissView, g: LanesGeometry): { y: number; xd: number; xa: number } {
  return { y: 2 + (m.cpu - g.lo) * g.laneH, xd: g.x(m.deadline_ns), xa: g.x(m.at_ns) };
}

/** Paints the misses that fall on the drawn lanes, over the slices (call after `paintLanes`). */
export function paintMisses(canvas: HTMLCanvasElement, misses: readonly MissView[], g: LanesGeometry): void {
  const ctx = canvas.getContext('2d');
  if (!ctx || misses.length === 0) return;
  const dpr = window.devicePixelRatio || 1;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  const [x0, x1] = g.x.range();
  const h = g.laneH - 1;
  // A triangle almost half the lane tall, at least 6 px (many thin lanes).
  const size = Math.max(6, Math.min(12, Math.floor(h * 0.45)));
  const foot = Math.max(2, Math.min(4, Math.floor(h / 6)));
  for (const m of misses) {
    if (m.cpu < g.lo || m.cpu >= g.hi) continue;
    const { y, xd, xa } = place(m, g);
    // The lateness, along the lane's foot (clipped to the window).
    const a = Math.max(xd, x0);
    const b = Math.min(Math.max(xa, xd + 1), x1);
    if (b > a) {
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(a, y + h - foot - 2, b - a, foot + 2);
      ctx.fillStyle = MISS_COLOR;
      ctx.fillRect(a, y + h - foot - 1, b - a, foot);
    }
    if (xd < x0 || xd > x1) continue;
    // The deadline: a line through the lane, a triangle pointing down at it.
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(xd - 2, y, 4, h);
    ctx.fillStyle = MISS_COLOR;
    ctx.fillRect(xd - 1, y, 2, h);
    ctx.beginPath();
    ctx.moveTo(xd - size * 0.7, y);
    ctx.lineTo(xd + size * 0.7, y);
    ctx.lineTo(xd, y + size);
    ctx.closePath();
    ctx.lineJoin = 'round';
    ctx.lineWidth = 2;
    ctx.strokeStyle = '#ffffff';
    ctx.stroke();
    ctx.fill();
  }
}

/** The miss under a point of the canvas (CSS px), if any: on that lane, within a few px of its mark or over its line. */
export function missAt(misses: readonly MissView[], g: LanesGeometry, px: number, py: number): MissView | null {
  const lane = Math.floor((py - 2) / g.laneH) + g.lo;
  let best: MissView | null = null;
  let bestD = 7;
  for (const m of misses) {
    if (m.cpu !== lane) continue;
    const { xd, xa } = place(m, g);
    // Near the mark, or anywhere over its lateness line (then it ranks behind a mark nearby).
    const d = Math.abs(px - xd);
    const over = px >= xd && px <= xa ? 6 : Infinity;
    const score = Math.min(d, over);
    if (score < bestD) {
      best = m;
      bestD = score;
    }
  }
  return best;
}

const ms = (ns: number) => (ns / 1e6).toFixed(3);

/** What a miss is, in one sentence (said under the legend while the pointer is on its mark). */
export function missWords(m: MissView, nameOf: (pid: number) => string, t: Translate): string {
  const v = {
    name: shownText(nameOf(m.pid)),
    deadline: ms(m.deadline_ns),
    at: ms(m.at_ns),
    late: ms(m.at_ns - m.deadline_ns),
    cpu: m.cpu,
  };
  return t(m.kind === 'timer' ? 'gantt.missTimer' : 'gantt.missDeadline', v);
}

/** The misses in the window, for the lanes' text alternative (the first few named). */
export function missesWords(misses: readonly MissView[], nameOf: (pid: number) => string, t: Translate): string {
  if (misses.length === 0) return '';
  const first = misses
    .slice(0, 4)
    .map((m) => t('gantt.a11yMiss', { name: shownText(nameOf(m.pid)), deadline: ms(m.deadline_ns), cpu: m.cpu }));
  return t('gantt.a11yMisses', { n: misses.length, list: first.join(', ') });
}
