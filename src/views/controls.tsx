// Playback controls: play/pause with speed, stepping forward and back by an
// event, a tick, a balancing decision, a migration or a checker violation.
// The keys come from shortcuts.ts (listed by the help overlay).
import { useEffect, useLayoutEffect, useRef } from 'react';
import { fmtMs } from './colors';
import { commandForKey, keyLabel, type Command } from './shortcuts';

/** Multiples of real time for Play; slow speeds let the eye follow the tree. */
export const SPEEDS = [0.01, 0.1, 1, 10, 100] as const;

export interface ControlsProps {
  nowNs: number;
  durationNs: number;
  events: number;
  playing: boolean;
  finished: boolean;
  speed: number;
  /** A short note about the last command ("no earlier migration"). */
  notice: string | null;
  onCommand: (c: Command) => void;
  onSpeed: (s: number) => void;
}

/** Back / forward pairs, each a labelled button group. */
const PAIRS: { label: string; back: Command; fwd: Command; id: string }[] = [
  { label: 'event', back: 'back', fwd: 'step', id: 'event' },
  { label: 'tick', back: 'tick-back', fwd: 'tick', id: 'tick' },
  { label: 'decision', back: 'prev-decision', fwd: 'next-decision', id: 'decision' },
  { label: 'migration', back: 'prev-migration', fwd: 'next-migration', id: 'migration' },
  { label: 'violation', back: 'prev-violation', fwd: 'next-violation', id: 'violation' },
];

/** Test ids kept from the first controls (browser tests click them). */
const LEGACY_ID: Partial<Record<Command, string>> = { step: 'btn-step', tick: 'btn-tick' };

export function Controls(p: ControlsProps) {
  // The key handler reads the latest props through a ref, so it is bound
  // once instead of being re-added on every render while playing.
  const latest = useRef(p);
  useLayoutEffect(() => {
    latest.current = p;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey) return;
      const target = e.target as HTMLElement | null;
      if (target && ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName)) return;
      const c = commandForKey(e.key);
      if (c === null) return;
      e.preventDefault();
      latest.current.onCommand(c);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const atStart = p.events === 0 && p.nowNs === 0;
  return (
    <div className="controls">
      <button data-testid="btn-play" className="primary" onClick={() => p.onCommand('play')} disabled={p.finished} title={`Play / pause (${keyLabel('play')})`}>
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
      {PAIRS.map((pair) => (
        <span className="step-pair" key={pair.id}>
          <button data-testid={`btn-back-${pair.id}`} onClick={() => p.onCommand(pair.back)} disabled={atStart} title={`Back to the previous ${pair.label} (${keyLabel(pair.back)})`}>
            ◀
          </button>
          <span className="step-label">{pair.label}</span>
          <button
            data-testid={LEGACY_ID[pair.fwd] ?? `btn-next-${pair.id}`}
            onClick={() => p.onCommand(pair.fwd)}
            disabled={p.finished}
            title={`Forward to the next ${pair.label} (${keyLabel(pair.fwd)})`}
          >
            ▶
          </button>
        </span>
      ))}
      <button data-testid="btn-reset" onClick={() => p.onCommand('reset')} title={`Back to the start (${keyLabel('reset')})`}>
        Reset
      </button>
      <button data-testid="btn-help" onClick={() => p.onCommand('help')} title={`Keyboard shortcuts (${keyLabel('help')})`}>
        ?
      </button>
      <span className="clock">
        t = <b data-testid="sim-time">{fmtMs(p.nowNs)}</b> ms / {fmtMs(p.durationNs)} ms · <span data-testid="event-count">{p.events}</span> events
        {p.finished && ' · finished'}
      </span>
      {p.notice && (
        <span className="notice" data-testid="notice">
          {p.notice}
        </span>
      )}
    </div>
  );
}
