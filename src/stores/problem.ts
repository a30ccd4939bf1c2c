// What the page says when something cannot be done, in two parts kept apart:
// its own words, and the engine's. The engine's message may repeat a
// scenario's own text (a link's names, its policy's errors) or, from a worker
// that went wrong, be anyone's; so it is only ever shown quoted, under words
// of the page's that say whose it is (views/problem-text.tsx), never as the
// page's own notice.
import { EngineRefusal } from '../engine/client';

export interface Problem {
  /** The page's own words (null: the banner's heading says it all). */
  own: string | null;
  /** The engine's message, shown quoted (null: none). */
  quoted: string | null;
}

/** A problem in the page's own words. */
export const ownProblem = (text: string): Problem => ({ own: text, quoted: null });

/** The problem an engine request failed with: the engine's refusal quoted, anything else as the page's (its failures). */
export function problemOf(e: unknown, own: string | null = null): Problem {
  if (e instanceof EngineRefusal) return { own, quoted: e.message };
  const text = e instanceof Error ? e.message : String(e);
  return { own: own === null ? text : `${own}: ${text}`, quoted: null };
}
