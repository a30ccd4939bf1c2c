// The stepping commands of the controls, forward and (exactly) backward, as
// the engine worker's commands and jobs.
import type { Mark } from '../engine/types';
import type { Command as EngineCommand } from '../engine/protocol';
import type { Command } from './shortcuts';
import type { Translate } from '../i18n/i18n';

const MARKS: Partial<Record<Command, [Mark, boolean]>> = {
  'tick-back': ['tick', false],
  'next-decision': ['decision', true],
  'prev-decision': ['decision', false],
  'next-migration': ['migration', true],
  'prev-migration': ['migration', false],
  'next-violation': ['violation', true],
  'prev-violation': ['violation', false],
};

/** A mark in words ("load-balancing decision"), for notices. */
export const markWords = (t: Translate, m: Mark): string => t(`mark.${m}`);

/** The engine command of a single step (one event, one tick, one event back); null for the others. */
export function stepCommand(c: Command): EngineCommand | null {
  if (c === 'step' || c === 'tick' || c === 'back') return { kind: c };
  // The "next / previous …" commands are jobs in the worker (forwardMark,
  // backwardMark); play, reset and help are the app's own.
  return null;
}

/** The mark a forward "next …" command searches for (the app runs those in slices). */
export function forwardMark(c: Command): Mark | null {
  const m = MARKS[c];
  return m && m[1] ? m[0] : null;
}

/** The mark a backward "previous …" command searches for (the app runs those in slices). */
export function backwardMark(c: Command): Mark | null {
  const m = MARKS[c];
  return m && !m[1] ? m[0] : null;
}
