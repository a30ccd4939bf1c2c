// What a feature adds to the engine worker without the engine knowing it:
// named commands (they move the lab's run and are answered as the built-in
// ones are, with a frame), jobs (long work in slices, with progress and
// Cancel) and calls (questions answered from the lab's run). A feature
// exports a `WorkerFeature` that registers its handlers; the worker's entry
// (src/sim-worker.ts, through src/worker-features.ts) hands every feature to
// the host at startup. The page names a handler by the same key object, so
// argument and answer types agree on both sides of the worker.
import type { Simulation } from './engine';
import type { Job, JobSpec } from './jobs';
import type { Command, Op } from './protocol';
import type { RealRun } from './real-run';

/** A handler's name, with its argument and answer types (phantom: only `name` travels). */
export interface Key<K extends 'command' | 'job' | 'call', A, R> {
  readonly kind: K;
  readonly name: string;
  /** Never set: carries the types. */
  readonly types?: (arg: A) => R;
}
export type CommandKey<A> = Key<'command', A, boolean>;
export type JobKey<A> = Key<'job', A, unknown>;
export type CallKey<A, R> = Key<'call', A, R>;

/** A command's key: its handler answers whether it found where to go. Names are `feature.what`. */
export const commandKey = <A>(name: string): CommandKey<A> => ({ kind: 'command', name });
export const jobKey = <A>(name: string): JobKey<A> => ({ kind: 'job', name });
export const callKey = <A, R>(name: string): CallKey<A, R> => ({ kind: 'call', name });

/** The page's side: a feature's command, job or call as the worker's message. */
export const extCommand = <A>(key: CommandKey<A>, arg: A): Command => ({ kind: 'ext', name: key.name, arg });
export const extJob = <A>(key: JobKey<A>, arg: A): JobSpec => ({ kind: 'ext', name: key.name, arg });
export const callOp = <A, R>(key: CallKey<A, R>, arg: A): Op => ({ op: 'call', name: key.name, arg });

/** The lab's run as a handler sees it. */
export interface Lab {
  /** The lab's run: a simulation or a real trace (throws when nothing is loaded). */
  run(): Simulation | RealRun;
  /** The lab's simulation; throws "only for simulations" while a real trace is open. */
  sim(): Simulation;
}

/** What a feature registers its handlers with. */
export interface WorkerRegistry {
  command<A>(key: CommandKey<A>, run: (lab: Lab, arg: A) => boolean): void;
  job<A>(key: JobKey<A>, make: (lab: Lab, arg: A) => Job): void;
  call<A, R>(key: CallKey<A, R>, answer: (lab: Lab, arg: A) => R): void;
}

/** A feature's part in the worker: registers its handlers. */
export type WorkerFeature = (registry: WorkerRegistry) => void;

type Handler = (lab: Lab, arg: unknown) => unknown;

/** Every feature's handlers by kind and name; a name registered twice is an error at startup. */
export class Extensions implements WorkerRegistry {
  private readonly handlers = new Map<string, Handler>();

  constructor(features: readonly WorkerFeature[]) {
    for (const f of features) f(this);
  }

  command<A>(key: CommandKey<A>, run: (lab: Lab, arg: A) => boolean): void {
    this.add(key, run as Handler);
  }
  job<A>(key: JobKey<A>, make: (lab: Lab, arg: A) => Job): void {
    this.add(key, make as Handler);
  }
  call<A, R>(key: CallKey<A, R>, answer: (lab: Lab, arg: A) => R): void {
    this.add(key, answer as Handler);
  }

  /** Runs the handler of `kind` named `name`; throws if no feature registered it. */
  run(kind: 'command', name: string, lab: Lab, arg: unknown): boolean;
  run(kind: 'job', name: string, lab: Lab, arg: unknown): Job;
  run(kind: 'call', name: string, lab: Lab, arg: unknown): unknown;
  run(kind: 'command' | 'job' | 'call', name: string, lab: Lab, arg: unknown): unknown {
    const h = this.handlers.get(`${kind}:${name}`);
    if (!h) throw new Error(`no feature handles the ${kind} '${name}'`);
    return h(lab, arg);
  }

  private add(key: Key<'command' | 'job' | 'call', never, unknown>, h: Handler): void {
    const id = `${key.kind}:${key.name}`;
    if (this.handlers.has(id)) throw new Error(`two features register the ${key.kind} '${key.name}'`);
    this.handlers.set(id, h);
  }
}
