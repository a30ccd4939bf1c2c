// Playback controls. Keyboard: space play/pause, → step event, t step tick, r reset.
import { useEffect, useLayoutEffect, useRef } from 'react';
import { fmtMs } from './colors';

/** Multiples of real time for Play; slow speeds let the eye follow the tree. */
export const SPEEDS = [0.01, 0.1, 1, 10, 100] as const;

export interface ControlsProps {
  nowNs: number;
  durationNs: number;
  events: number;
  playing: boolean;
  finished: boolean;
  speed: number;
  onStep: () => void;
  onTick: () => void;
  onPlay: () => void;
  onReset: () => void;
  onSpeed: (s: number) => void;
}

export function Controls(p: ControlsProps) {
  // The key handler reads the latest props through a ref, so it is bound
  // once instead of being re-added on every render while playing.
  const latest = useRef(p);
  useLayoutEffect(() => {
    latest.current = p;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const p = latest.current;
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target as HTMLElement | null;
      if (target && ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName)) return;
      if (e.key === ' ') {
        e.preventDefault();
        p.onPlay();
      } else if (e.key === 'ArrowRight') p.onStep();
      else if (e.key === 't') p.onTick();
      else if (e.key === 'r') p.onReset();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <div className="controls">
      <button data-testid="btn-step" onClick={p.onStep} disabled={p.finished} title="Step one event (→)">
        Step event
      </button>
      <button data-testid="btn-tick" onClick={p.onTick} disabled={p.finished} title="Run to the next scheduler tick (t)">
        Step tick
      </button>
      <button data-testid="btn-play" className="primary" onClick={p.onPlay} disabled={p.finished} title="Play / pause (space)">
        {p.playing ? 'Pause' : 'Play'}
      </button>
      <label className="speed">
        speed
        <select value={p.speed} onChange={(e) => p.onSpeed(Number(e.target.value))}>
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {s}× real time
            </option>
          ))}
        </select>
      </label>
      <button data-testid="btn-reset" onClick={p.onReset} title="Back to the start (r)">
        Reset
      </button>
      <span className="clock">
        t = <b data-testid="sim-time">{fmtMs(p.nowNs)}</b> ms / {fmtMs(p.durationNs)} ms · {p.events} events
        {p.finished && ' · finished'}
      </span>
    </div>
  );
}
