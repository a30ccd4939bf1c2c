// Per-CPU Gantt lanes: which task ran when, over a sliding window ending at
// the cursor. Drawn on a canvas (dense data); the axis and the legend are
// plain DOM text. D3 only provides the time scale and its ticks. The pieces:
// canvas.ts (geometry, painting), misses.ts (missed deadlines: marks, the one
// pointed at, words), pointer.ts (gestures), nav.ts (zoom, pan and keys), parts.tsx
// (header, axis, legend), words.ts (the lanes in text).
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { sliceCount } from '../../engine/run-slices';
import type { LaneRange } from '../../engine/lane-range';
import type { MissView } from '../../engine/types';
import { useT } from '../../i18n/i18n';
import { paintLanes, useLanesGeometry, type BandClass } from './canvas';
import { lanesKeys, type GanttNav } from './nav';
import { missAt, missesWords, missWords, paintMisses } from './misses';
import { GanttAxis, GanttHead, GanttLegend } from './parts';
import { useLanesPointer, useWheelZoom } from './pointer';
import { lanesWords } from './words';

export type { GanttNav } from './nav';

export interface GanttViewProps {
  /** Flat quads [cpu, pid, start_ns, end_ns, …] (run-slices.ts). */
  slices: Float64Array;
  /** Tasks of the classes above the fair class, by pid: their slices carry their class's band. */
  bands?: ReadonlyMap<number, BandClass>;
  /** The machine's CPUs; the lanes draw `lanes` of them (all, or past MAX_LANES the selected CPU's node). */
  nrCpus: number;
  lanes?: LaneRange;
  t0Ns: number;
  t1Ns: number;
  nameOf: (pid: number) => string;
  /** Called with the simulated time under a click (jump there). */
  onSeek?: (tNs: number) => void;
  /** Zoom and pan of the window; without it the lanes only follow the cursor. */
  nav?: GanttNav;
  /** Lane detail exists from this time on (older slices dropped to bound memory); null: all kept. */
  keptFromNs?: number | null;
  /** Deadlines missed late across the window (marked on their lanes). */
  misses?: readonly MissView[];
}

const NO_MISSES: readonly MissView[] = [];

export function GanttView({
  slices,
  bands,
  nrCpus,
  lanes,
  t0Ns,
  t1Ns,
  nameOf,
  onSeek,
  nav,
  keptFromNs,
  misses = NO_MISSES,
}: GanttViewProps) {
  const t = useT();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const geometry = useLanesGeometry(boxRef, nrCpus, lanes, t0Ns, t1Ns);
  const { cssW, cssH, x } = geometry;
  const pointer = useLanesPointer(x, t0Ns, t1Ns, nav, onSeek);
  useWheelZoom(canvasRef, nav, x);
  // The geometry is a new object at each render (its d3 scale is), so this paints after every render, as the
  // lanes always have: the window moves with the cursor.
  useEffect(() => {
    if (!canvasRef.current) return;
    paintLanes(canvasRef.current, slices, geometry, bands);
    paintMisses(canvasRef.current, misses, geometry);
  }, [slices, geometry, bands, misses]);
  // Where the pointer is over the lanes: the miss there (in this frame's misses) is said under the legend.
  const [pointerAt, setPointerAt] = useState<{ x: number; y: number } | null>(null);
  const hovered = pointerAt && missAt(misses, geometry, pointerAt.x, pointerAt.y);
  const onPointerMove = (e: ReactPointerEvent<HTMLCanvasElement>) => {
    pointer.handlers.onPointerMove(e);
    const r = e.currentTarget.getBoundingClientRect();
    const at = { x: e.clientX - r.left, y: e.clientY - r.top };
    // Kept only over a mark: moving over the rest of the lanes renders (and repaints) nothing.
    const over = missAt(misses, geometry, at.x, at.y) !== null;
    if (over) setPointerAt(at);
    else if (pointerAt) setPointerAt(null);
  };

  return (
    <section className="panel" data-testid="lanes">
      <GanttHead t0Ns={t0Ns} t1Ns={t1Ns} nrCpus={nrCpus} geometry={geometry} nav={nav} keptFromNs={keptFromNs} />
      <div ref={boxRef} className="gantt-box">
        <canvas
          data-testid="gantt"
          data-t0={t0Ns}
          data-t1={t1Ns}
          data-slices={sliceCount(slices)}
          ref={canvasRef}
          style={{
            width: cssW,
            height: cssH,
            cursor: pointer.dragging ? 'grabbing' : nav ? 'grab' : onSeek ? 'pointer' : 'default',
          }}
          title={nav ? t('gantt.navTitle') : onSeek ? t('gantt.seekTitle') : undefined}
          // Keyboard: focusable, arrows pan, + / − zoom (lanesKeys); screen readers get who ran where.
          tabIndex={nav ? 0 : undefined}
          role="img"
          aria-label={[lanesWords(slices, nrCpus, t0Ns, t1Ns, nameOf, t), missesWords(misses, nameOf, t)]
            .filter(Boolean)
            .join(' ')}
          data-misses={misses.length}
          onKeyDown={nav ? (e) => lanesKeys(e, nav, t0Ns, t1Ns) : undefined}
          {...pointer.handlers}
          onPointerMove={onPointerMove}
          onPointerLeave={() => pointerAt && setPointerAt(null)}
        />
        <GanttAxis geometry={geometry} spanNs={t1Ns - t0Ns} />
      </div>
      <GanttLegend slices={slices} nameOf={nameOf} misses={misses.length} bands={bands} />
      {/* Under the legend, not floating by the mark: a panel paints nothing outside itself (contain: content). */}
      {hovered && (
        <p className="gantt-tip" role="status" data-testid="gantt-miss-tip">
          <span className="miss-swatch" aria-hidden="true">
            ▼
          </span>
          {missWords(hovered, nameOf, t)}
        </p>
      )}
    </section>
  );
}
