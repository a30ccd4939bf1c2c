// The one refresh scheduler: what the page asks the engine worker for with
// each request, and which view groups draw the frame that comes back.
//
// Paused or stepping, every request asks for everything and every view
// shows the new state at once. While busy (playing, or a long job posting
// progress frames):
// - the slow parts of a frame (the report, the task rows, the heatmaps'
//   history) are asked for at most one per request, each every SLOW_MS of
//   wall time, staggered a third of that apart from the start of the busy
//   stretch, so no request pays for all of them;
// - the heavy view groups (the machine, the runqueue, the lanes) take the
//   frames in turn, one group per frame, so no frame redraws all of them.

/** Wall time between two asks for one slow part while busy. */
export const SLOW_MS = 250;

export const VIEW_GROUPS = ['topology', 'runqueue', 'lanes'] as const;
export type ViewGroup = (typeof VIEW_GROUPS)[number];

/** The slow parts a request asks for. */
export interface SlowParts {
  report: boolean;
  tasks: boolean;
  history: boolean;
}

const ALL: SlowParts = { report: true, tasks: true, history: true };
const SLOW = ['report', 'tasks', 'history'] as const;

export class RefreshScheduler {
  /** When each slow part was last asked for (wall ms). */
  private lastAsked = [0, 0, 0];
  /** Frames taken in while busy: whose turn it is. */
  private turn = 0;

  /** A busy stretch starts at wall time `nowMs`: the slow parts fall due a third of SLOW_MS apart. */
  start(nowMs: number): void {
    this.lastAsked = SLOW.map((_, i) => nowMs - (i * SLOW_MS) / 3);
  }

  /** The slow parts the next request asks for: all when paused; while busy, at most the one that is due. */
  ask(busy: boolean, nowMs: number): SlowParts {
    if (!busy) return ALL;
    const i = this.lastAsked.findIndex((t) => nowMs - t >= SLOW_MS);
    if (i >= 0) this.lastAsked[i] = nowMs;
    return { report: i === 0, tasks: i === 1, history: i === 2 };
  }

  /** The view groups that draw the frame just taken in: all when paused; while busy, one in turn. */
  draw(busy: boolean): readonly ViewGroup[] {
    if (!busy) return VIEW_GROUPS;
    this.turn = (this.turn + 1) % VIEW_GROUPS.length;
    return [VIEW_GROUPS[this.turn]];
  }
}
