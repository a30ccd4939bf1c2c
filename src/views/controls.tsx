// Playback controls: play/pause with speed, stepping forward and back by an
// event, a tick, a balancing decision, a migration or a checker violation.
// The keys come from shortcuts.ts (listed by the help overlay).
import { useEffect, useLayoutEffect, useRef } from 'react';
import { fmtMs } from './colors';
import { commandForKey, keyLabel, type Command } from './shortcuts';
import { shortcutsOn } from './shortcut-setting';
import { useT } from '../i18n/i18n';
import { fmtSpeed, isSlow } from '../engine/play-pace';

/** Multiples of real time for Play; slow speeds let the eye follow the tree. */
export const SPEEDS = [0.01, 0.1, 1, 10, 100] as const;

export interface ControlsProps {
  nowNs: number;
  durationNs: number;
  events: number;
  playing: boolean;
  finished: boolean;
  speed: number;
  /** The speed Play achieved lately (simulated per wall time), null until measured. */
  achieved: number | null;
  /** A short note about the last command ("no earlier migration"). */
  notice: string | null;
  onCommand: (c: Command) => void;
  onSpeed: (s: number) => void;
}

/** Back / forward pairs, each a labelled button group (label: ctl.pair.<id>). */
const PAIRS: { back: Command; fwd: Command; id: string }[] = [
  { back: 'back', fwd: 'step', id: 'event' },
  { back: 'tick-back', fwd: 'tick', id: 'tick' },
  { back: 'prev-decision', fwd: 'next-decision', id: 'decision' },
  { back: 'prev-migration', fwd: 'next-migration', id: 'migration' },
  { back: 'prev-violation', fwd: 'next-violation', id: 'violation' },
];

/** Test ids kept from the first controls (browser tests click them). */
const LEGACY_ID: Partial<Record<Command, string>> = { step: 'btn-step', tick: 'btn-tick' };

export function Controls(p: ControlsProps) {
  const t = useT();
  // The key handler reads the latest props through a ref, so it is bound
  // once instead of being re-added on every render while playing.
  const latest = useRef(p);
  useLayoutEffect(() => {
    latest.current = p;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || !shortcutsOn()) return;
      const target = e.target as HTMLElement | null;
      if (target && ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName)) return;
      // Space and Enter on a focused button, link or cell press it (keyboard
      // users operate the controls with them): they are not the Play shortcut then.
      if (
        (e.key === ' ' || e.key === 'Enter') &&
        target?.closest?.('button, a[href], [role=button], [role=radio], [role=tab], summary')
      )
        return;
      // Arrow keys scroll a focused scrolled box (runqueue, event log, tables) rather than step the simulation.
      if (e.key.startsWith('Arrow') && target?.closest?.('[role=region], ol[tabindex], table[tabindex]')) return;
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
    <section className="controls" aria-label={t('a11y.playback')}>
      <button
        data-testid="btn-play"
        className="primary"
        onClick={() => p.onCommand('play')}
        disabled={p.finished}
        title={t('ctl.playTitle', { key: keyLabel('play', t) })}
      >
        {p.playing ? t('ctl.pause') : t('ctl.play')}
      </button>
      <label className="speed">
        {t('ctl.speed')}
        <select value={p.speed} onChange={(e) => p.onSpeed(Number(e.target.value))}>
          {SPEEDS.map((s) => (
            <option key={s} value={s}>
              {t('ctl.speedOption', { speed: s })}
            </option>
          ))}
        </select>
      </label>
      {PAIRS.map((pair) => {
        const label = t(`ctl.pair.${pair.id}`);
        return (
          <span className="step-pair" key={pair.id}>
            <button
              data-testid={`btn-back-${pair.id}`}
              onClick={() => p.onCommand(pair.back)}
              disabled={atStart}
              title={t('ctl.backTitle', { what: label, key: keyLabel(pair.back, t) })}
            >
              ◀
            </button>
            <span className="step-label">{label}</span>
            <button
              data-testid={LEGACY_ID[pair.fwd] ?? `btn-next-${pair.id}`}
              onClick={() => p.onCommand(pair.fwd)}
              disabled={p.finished}
              title={t('ctl.fwdTitle', { what: label, key: keyLabel(pair.fwd, t) })}
            >
              ▶
            </button>
          </span>
        );
      })}
      <button
        data-testid="btn-reset"
        onClick={() => p.onCommand('reset')}
        title={t('ctl.resetTitle', { key: keyLabel('reset', t) })}
      >
        {t('ctl.reset')}
      </button>
      <button
        data-testid="btn-help"
        onClick={() => p.onCommand('help')}
        title={t('ctl.helpTitle', { key: keyLabel('help', t) })}
      >
        ?
      </button>
      <span className="clock">
        t = <b data-testid="sim-time">{fmtMs(p.nowNs)}</b> ms / {fmtMs(p.durationNs)} ms ·{' '}
        <span data-testid="event-count">{p.events}</span> {t('ctl.events')}
        {p.finished && ` · ${t('ctl.finished')}`}
      </span>
      {p.playing && isSlow(p.achieved, p.speed) && (
        // The engine cannot keep up: say how fast it really goes, not just that it plays.
        <span className="slow-play" data-testid="slow-play" title={t('ctl.slowTitle', { speed: p.speed })}>
          {t('ctl.slowPlay', { achieved: fmtSpeed(p.achieved ?? 0) })}
        </span>
      )}
      {p.notice && (
        <span className="notice" data-testid="notice">
          {p.notice}
        </span>
      )}
    </section>
  );
}
