// The messages between the page and the engine worker. Every request has an
// id; the worker answers each with one Reply of that id, in the order the
// requests came, and in between may post Progress for a job. Requests that
// change the simulation carry the lab's FrameQuery and are answered with the
// Frame it asks for, read right after the change.
import type { FrameQuery, PostedFrame } from './frame';
import type { JobProgress, JobSpec } from './jobs';
import type { Mark, TopologyView } from './types';
import type { TraceInfo } from './real-run';

/** What changes the simulation (and, after it, brings the partner to the same clock). */
export type Command =
  | { kind: 'step' }
  | { kind: 'tick' }
  | { kind: 'back' }
  /** With `maxMs` (Play): stops after about that much wall time, found = it got to `ns`. */
  | { kind: 'run-until'; ns: number; maxMs?: number }
  | { kind: 'seek-event'; n: number }
  | { kind: 'seek-time'; ns: number }
  | { kind: 'step-mark'; mark: Mark }
  /** A feature's command (extensions.ts: `extCommand`). */
  | { kind: 'ext'; name: string; arg: unknown };

/** What only reads (test hooks, exports, the partner's summary). */
export type Read =
  /** The whole state as JSON text. */
  | { kind: 'view' }
  | { kind: 'trace-hash' }
  | { kind: 'report' }
  | { kind: 'latency-cdfs'; points: number }
  | { kind: 'decisions'; n: number }
  | { kind: 'placements'; n: number }
  | { kind: 'migrations'; sinceNs: number; n: number }
  | { kind: 'chrome-trace' }
  | { kind: 'metrics-csv' }
  | { kind: 'partner-summary' }
  /** A real trace's `{format, report}` as `schedsim real-trace --json` prints it (JSON text). */
  | { kind: 'real-report' };

export type Op =
  /** Replaces the simulation; answered with its topology (or an error: the old one stays). */
  | { op: 'load'; json: string }
  /** Replaces the lab's run with a real trace (sim-worker.ts reads `file` into `text`, size-capped); answered as a load. */
  | { op: 'open-trace'; name: string; file?: Blob; text?: string }
  /** (Re)builds the compare partner, or removes it (null). */
  | { op: 'partner'; json: string | null }
  | { op: 'command'; command: Command }
  /** Long work in slices, with Progress; a newer command or Cancel ends it. */
  | { op: 'job'; job: JobSpec }
  | { op: 'cancel' }
  /** The page drew the last Progress frame: the next Progress may carry one (for this query). */
  | { op: 'ack'; q: FrameQuery }
  /** The same state read again for a changed query (CPU picked, lanes zoomed, slow parts due). */
  | { op: 'frame' }
  | { op: 'read'; read: Read }
  /** The files the worker itself loaded (its script, the wasm module), for the offline copy. */
  | { op: 'files' }
  /** A feature's question about the lab's run (extensions.ts: `callOp`). */
  | { op: 'call'; name: string; arg: unknown };

export type Request = Op & { id: number; q?: FrameQuery };

export type Reply =
  { id: number; ok: true; value: unknown; frame: PostedFrame | null } | { id: number; ok: false; error: string };

/** A job's progress; the worker posts it with a PostedFrame, the client hands the page an inflated Frame. */
export interface Progress<F = PostedFrame> {
  id: number;
  progress: JobProgress;
  frame: F | null;
}

export type FromWorker = { reply: Reply } | { progress: Progress };

/** What a load answers: both machines' shapes (they change only on load). */
export interface Loaded {
  topology: TopologyView;
  /** Set when the load is a real trace. */
  trace?: TraceInfo;
  /** The load's count: frames of it carry the same. */
  gen: number;
}

/** What a command answers (false: nothing found to go to, or the first event reached going back). */
export interface Moved {
  found: boolean;
}

/** What a job answers when it ends. */
export interface JobEnd {
  found: boolean;
  cancelled: boolean;
}
