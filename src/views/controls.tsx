// Playback controls. Keyboard: space play/pause, → step event, t step tick, r reset.
import { useEffect } from 'react';
import { fmtMs } from './colors';

export const SPEEDS = [0.01, 0.1, 1, 10] as const;

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
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
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
  }, [p]);

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
