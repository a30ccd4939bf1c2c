// The page's side of the engine worker: requests as promises, progress of
// long jobs to a callback. The transport is a port-like object, so the unit
// tests can connect a client straight to an EngineHost without a worker.
//
// The worker runs a share link's policy, someone else's code, so the page
// trusts no message from it on sight: each is checked against the protocol
// (reply-check.ts), and one that does not fit means the worker can no longer
// be believed. The page then stops it, fails what was waiting with words of
// its own (never the message's), and starts a fresh worker when it can.
import type { Op, Progress } from './protocol';
import { inflateFrame, type Frame, type FrameQuery } from './frame';
import { checkFromWorker } from './reply-check';
import { ProtocolError } from './protocol-fields';

export interface Port {
  postMessage(m: unknown): void;
  onmessage: ((e: { data: unknown }) => void) | null;
  /** Ends the other side for good (a worker's `terminate`). */
  terminate?(): void;
}

/** A reply's value and the frame read after it. */
export interface Answer<T> {
  value: T;
  frame: Frame | null;
}

/**
 * The engine refused a request: the message is the engine's, and may repeat the scenario's own text (its names, its
 * policy's errors), so the page shows it quoted, never as its own words.
 */
export class EngineRefusal extends Error {}

/** The engine worker failed, or was stopped for breaking the protocol: the message is the page's own. */
export class EngineFailure extends Error {}

interface Pending {
  op: Op;
  resolve: (a: Answer<unknown>) => void;
  reject: (e: Error) => void;
  onProgress?: (p: Progress<Frame>) => void;
}

export class EngineClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Set when the worker itself failed (its script or module did not load): every request then fails with it. */
  private broken: Error | null = null;
  /** Told when a worker that broke the protocol was replaced by a fresh one (which holds no simulation yet). */
  onReplaced: ((e: EngineFailure) => void) | null = null;

  /** `restart`, when given, starts a fresh worker in place of one that broke the protocol. */
  constructor(
    private port: Port,
    private readonly restart?: () => Port,
  ) {
    this.attach(port);
  }

  /** A client of the engine worker `start()` starts (main.tsx starts it from src/sim-worker.ts). */
  static inWorker(start: () => Worker): EngineClient {
    let client: EngineClient | null = null;
    const open = (): Port => {
      const w = start();
      // The event's message is the worker's and is not shown (the console has it): a policy in the worker could
      // have written it.
      w.onerror = (e) => {
        console.error('schedlab: the engine worker failed:', e.message);
        client?.fail(
          new EngineFailure('the engine worker failed: it could not be loaded, or it stopped with an error'),
        );
      };
      return w as unknown as Port;
    };
    client = new EngineClient(open(), open);
    return client;
  }

  private attach(port: Port): void {
    port.onmessage = (e) => {
      if (port === this.port) this.receive(e.data);
    };
  }

  /** Fails every request under way and every later one (the worker is gone). */
  fail(e: Error): void {
    this.broken = e;
    this.failPending(e);
  }

  private failPending(e: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(e);
  }

  request<T>(op: Op, q?: FrameQuery, onProgress?: (p: Progress<Frame>) => void): Promise<Answer<T>> {
    const id = this.nextId++;
    if (this.broken) return Promise.reject(this.broken);
    return new Promise<Answer<T>>((resolve, reject) => {
      this.pending.set(id, { op, resolve: resolve as (a: Answer<unknown>) => void, reject, onProgress });
      this.port.postMessage({ ...op, id, q });
    });
  }

  /** A message needing no answer (the page drew a progress frame). */
  send(op: Op): void {
    if (!this.broken) this.port.postMessage({ ...op, id: 0 });
  }

  private receive(data: unknown): void {
    let m;
    try {
      m = checkFromWorker(data, (id) => this.pending.get(id)?.op);
    } catch (e) {
      if (!(e instanceof ProtocolError)) throw e;
      return this.stopWorker(e.where);
    }
    if ('progress' in m) {
      const p = m.progress;
      this.pending.get(p.id)?.onProgress?.({ ...p, frame: p.frame && inflateFrame(p.frame) });
      return;
    }
    const r = m.reply;
    const p = this.pending.get(r.id);
    if (!p) return;
    this.pending.delete(r.id);
    if (r.ok) p.resolve({ value: r.value, frame: r.frame && inflateFrame(r.frame) });
    else p.reject(new EngineRefusal(r.error));
  }

  /** The worker sent what the protocol has no place for (`where` says what, never with the worker's text). */
  private stopWorker(where: string): void {
    const old = this.port;
    old.onmessage = null;
    old.terminate?.();
    let fresh: Port | null = null;
    try {
      fresh = this.restart?.() ?? null;
    } catch (err) {
      console.error('schedlab: a fresh engine worker could not be started:', err);
    }
    const e = new EngineFailure(
      `the engine worker sent the page a message outside the protocol (${where}), so the page stopped it` +
        (fresh ? ' and started a new one' : ''),
    );
    if (!fresh) return this.fail(e);
    this.port = fresh;
    this.attach(fresh);
    this.failPending(e);
    this.onReplaced?.(e);
  }
}
