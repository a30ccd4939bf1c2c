// The classroom's handlers in the engine worker, by name: the page sends
// these keys, classroom/worker.ts answers them (extensions.ts).
import { callKey, commandKey } from '../engine/extensions';
import type { Lang } from '../i18n/translate';
import type { Anchor } from './lesson';
import type { Prediction, Question } from './predict';

/** Puts the lab's run at a lesson step's anchor; found = the anchor exists. */
export const ANCHOR = commandKey<Anchor>('classroom.anchor');

/** A lesson question answered by a copy of the lab's run at event `events`, worded in `lang`. */
export const PREDICT = callKey<{ events: number; question: Question; lang: Lang }, Prediction | null>(
  'classroom.predict',
);
