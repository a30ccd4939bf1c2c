// Pointer gestures on the lanes: a click jumps to its time, a drag pans, two
// fingers pinch-zoom, Ctrl/⌘ + wheel zooms around the pointer.
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent, type RefObject } from 'react';
import type * as d3 from 'd3';
import { useLatest } from '../../stores/use-latest';
import { LABEL_W_PX } from './canvas';
import type { GanttNav } from './nav';

/** Pointer travel (CSS px) below which a press is a click, not a drag. */
const CLICK_SLOP_PX = 4;

type Scale = d3.ScaleLinear<number, number>;

/** Ctrl/⌘ + wheel zooms around the pointer; a plain wheel still scrolls the page. */
export function useWheelZoom(canvasRef: RefObject<HTMLCanvasElement | null>, nav: GanttNav | undefined, x: Scale) {
  // A native listener, because React's wheel handlers are passive.
  const navRef = useLatest(nav);
  const xRef = useLatest(x);
  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    const onWheel = (e: WheelEvent) => {
      const n = navRef.current;
      if (!n || !(e.ctrlKey || e.metaKey)) return;
      e.preventDefault();
      const px = e.clientX - canvas.getBoundingClientRect().left;
      n.onZoom(e.deltaY < 0 ? 1.25 : 0.8, xRef.current.invert(Math.max(LABEL_W_PX, px)));
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => canvas.removeEventListener('wheel', onWheel);
  }, [canvasRef, navRef, xRef]);
}

type Handler = (e: ReactPointerEvent<HTMLCanvasElement>) => void;

export interface LanesPointer {
  /** Whether a press is down and may be dragging (the cursor shows a grabbing hand). */
  dragging: boolean;
  handlers: { onPointerDown: Handler; onPointerMove: Handler; onPointerUp: Handler; onPointerCancel: Handler };
}

/** The lanes' pointer handlers over the window [t0Ns, t1Ns] drawn by `x`. */
export function useLanesPointer(
  x: Scale,
  t0Ns: number,
  t1Ns: number,
  nav: GanttNav | undefined,
  onSeek: ((tNs: number) => void) | undefined,
): LanesPointer {
  const [drag, setDrag] = useState<{ startX: number; lastX: number } | null>(null);
  /** Pointers down on the lanes (id → clientX): two make a pinch. */
  const pointers = useRef(new Map<number, number>());
  const nsPerPx = (t1Ns - t0Ns) / Math.max(1, x.range()[1] - x.range()[0]);

  const onPointerDown: Handler = (e) => {
    try {
      e.currentTarget.setPointerCapture(e.pointerId);
    } catch {
      // A pointer the browser no longer tracks (lifted already): the drag works without capture.
    }
    pointers.current.set(e.pointerId, e.clientX);
    // A second finger starts a pinch: no click, no drag.
    if (pointers.current.size === 2) return setDrag(null);
    setDrag({ startX: e.clientX, lastX: e.clientX });
  };
  const onPointerMove: Handler = (e) => {
    const before = pointers.current.get(e.pointerId);
    if (before === undefined) return;
    if (pointers.current.size === 2 && nav) {
      // Pinch: the spread between two fingers zooms around their middle.
      const [a, b] = [...pointers.current.entries()].map(([id, cx]) => (id === e.pointerId ? e.clientX : cx));
      const [pa, pb] = [...pointers.current.values()];
      const was = Math.abs(pa - pb);
      const now = Math.abs(a - b);
      pointers.current.set(e.pointerId, e.clientX);
      if (was > 10 && now > 10 && Math.abs(now - was) > 2) {
        const mid = (a + b) / 2 - e.currentTarget.getBoundingClientRect().left;
        nav.onZoom(now / was, x.invert(Math.max(LABEL_W_PX, mid)));
      }
      return;
    }
    pointers.current.set(e.pointerId, e.clientX);
    if (!drag || !nav) return;
    const dx = e.clientX - drag.lastX;
    if (Math.abs(e.clientX - drag.startX) < CLICK_SLOP_PX) return;
    // Dragging right shows earlier times.
    nav.onPan(-dx * nsPerPx);
    setDrag({ ...drag, lastX: e.clientX });
  };
  const onPointerUp: Handler = (e) => {
    const pinching = pointers.current.size > 1;
    pointers.current.delete(e.pointerId);
    const wasClick = !pinching && drag !== null && Math.abs(e.clientX - drag.startX) < CLICK_SLOP_PX;
    setDrag(null);
    const px = e.clientX - e.currentTarget.getBoundingClientRect().left;
    if (wasClick && onSeek && px >= LABEL_W_PX) onSeek(Math.round(x.invert(px)));
  };
  const onPointerCancel: Handler = (e) => {
    pointers.current.delete(e.pointerId);
    setDrag(null);
  };
  return { dragging: drag !== null, handlers: { onPointerDown, onPointerMove, onPointerUp, onPointerCancel } };
}
