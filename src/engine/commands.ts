// The stepping commands on a simulation, forward and (exactly) backward.
// Returns a note for the controls when a command found nothing to go to.
import type { Simulation } from './engine';
import type { Mark } from './types';
import type { Command } from '../views/shortcuts';
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

/** Applies a stepping command; play, reset and help are the app's own. */
export function applyStep(sim: Simulation, c: Command, t: Translate): string | null {
  if (c === 'step') {
    sim.stepEvent();
    return null;
  }
  if (c === 'tick') {
    sim.stepTick();
    return null;
  }
  if (c === 'back') {
    if (sim.events === 0) return t('notice.firstEvent');
    sim.seekEvent(sim.events - 1);
    return null;
  }
  // The "next / previous …" commands never get here: the app runs their
  // searches in slices (forwardMark, backwardMark).
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
