// The lanes' zoom and pan as the lab gives them, and the keys that drive them
// on the focused lanes.
import type { KeyboardEvent as ReactKeyboardEvent } from 'react';

export interface GanttNav {
  /** Whether the window ends at the cursor (else it was panned away). */
  follow: boolean;
  /** Zoom by `factor` (> 1 zooms in) keeping `anchorNs` where it is. */
  onZoom: (factor: number, anchorNs: number) => void;
  onPan: (deltaNs: number) => void;
  onFollow: () => void;
}

/** Where a zoom from the keys or the buttons stays put: the cursor while following, else the window's middle. */
export function zoomAnchorNs(nav: GanttNav, t0Ns: number, t1Ns: number): number {
  return nav.follow ? t1Ns : (t0Ns + t1Ns) / 2;
}

/** Keys on the focused lanes: ← → pan by a quarter window, + − zoom, Home follows the cursor. */
export function lanesKeys(e: ReactKeyboardEvent, nav: GanttNav, t0Ns: number, t1Ns: number): void {
  const span = t1Ns - t0Ns;
  const mid = zoomAnchorNs(nav, t0Ns, t1Ns);
  const act: Record<string, () => void> = {
    ArrowLeft: () => nav.onPan(-span / 4),
    ArrowRight: () => nav.onPan(span / 4),
    '+': () => nav.onZoom(2, mid),
    '=': () => nav.onZoom(2, mid),
    '-': () => nav.onZoom(0.5, mid),
    Home: () => nav.onFollow(),
  };
  const f = act[e.key];
  if (!f) return;
  // Handled here, so the lab's shortcuts (arrows step the simulation) do not also act.
  e.preventDefault();
  e.stopPropagation();
  f();
}
