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
//   frames in turn, one group per frame, so no frame redraws all of them;
// - what is scrolled out of view takes no part: a group out of view draws
//   nothing at its turn, and a slow part that only views out of view show is
//   not asked for. What comes into view is drawn at its next turn; paused,
//   everything is drawn whatever is in view.

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

/**
 * The parts of the page whose view can be out of sight: the heavy view groups,
 * and the panels of the slow parts (the heatmaps and the metrics charts show
 * the history, the task table the tasks; the report also feeds the figures at
 * the top, so it is always asked for), and the schedstat panel, which only
 * keeps its drawing while out of view.
 */
export type SeenPart = ViewGroup | 'heatmaps' | 'charts' | 'tasks' | 'schedstat';

/** Which slow part each panel shows. */
const SHOWN_BY: Record<'tasks' | 'history', readonly SeenPart[]> = {
  tasks: ['tasks'],
  history: ['heatmaps', 'charts'],
};

const NONE: ReadonlySet<SeenPart> = new Set();

export class RefreshScheduler {
  /** When each slow part was last asked for (wall ms). */
  private lastAsked = [0, 0, 0];
  /** Frames taken in while busy: whose turn it is. */
  private turn = 0;

  /** A busy stretch starts at wall time `nowMs`: the slow parts fall due a third of SLOW_MS apart. */
  start(nowMs: number): void {
    this.lastAsked = SLOW.map((_, i) => nowMs - (i * SLOW_MS) / 3);
  }

  /**
   * The slow parts the next request asks for: all when paused; while busy, at most the one that is due,
   * passing over those whose panels are all out of view (`unseen`): they stay due, and are asked for once
   * a panel showing them comes into view.
   */
  ask(busy: boolean, nowMs: number, unseen: ReadonlySet<SeenPart> = NONE): SlowParts {
    if (!busy) return ALL;
    const inView = (part: (typeof SLOW)[number]) => part === 'report' || SHOWN_BY[part].some((p) => !unseen.has(p));
    const i = this.lastAsked.findIndex((t, k) => nowMs - t >= SLOW_MS && inView(SLOW[k]));
    if (i >= 0) this.lastAsked[i] = nowMs;
    return { report: i === 0, tasks: i === 1, history: i === 2 };
  }

  /**
   * The view groups that draw the frame just taken in: all when paused; while busy, one in turn, or none when
   * the group whose turn it is is out of view (`unseen`). A group out of view keeps its turn rather than giving it
   * to the others: drawn more often, the ones in view would cost each frame more than the rotation spreads.
   */
  draw(busy: boolean, unseen: ReadonlySet<SeenPart> = NONE): readonly ViewGroup[] {
    if (!busy) return VIEW_GROUPS;
    this.turn = (this.turn + 1) % VIEW_GROUPS.length;
    const group = VIEW_GROUPS[this.turn];
    return unseen.has(group) ? [] : [group];
  }
}
