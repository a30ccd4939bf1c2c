// The page's side of the engine worker: requests as promises, progress of
// long jobs to a callback. The transport is a port-like object, so the unit
// tests can connect a client straight to an EngineHost without a worker.
import type { FromWorker, Op, Progress } from './protocol';
import { inflateFrame, type Frame, type FrameQuery } from './frame';

export interface Port {
  postMessage(m: unknown): void;
  onmessage: ((e: { data: FromWorker }) => void) | null;
}

/** A reply's value and the frame read after it. */
export interface Answer<T> {
  value: T;
  frame: Frame | null;
}

interface Pending {
  resolve: (a: Answer<unknown>) => void;
  reject: (e: Error) => void;
  onProgress?: (p: Progress<Frame>) => void;
}

export class EngineClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** Set when the worker itself failed (its script or module did not load): every request then fails with it. */
  private broken: Error | null = null;

  constructor(private readonly port: Port) {
    port.onmessage = (e) => this.receive(e.data);
  }

  /** A client of the engine worker `w` (main.tsx starts it from src/sim-worker.ts). */
  static inWorker(w: Worker): EngineClient {
    const client = new EngineClient(w as unknown as Port);
    w.onerror = (e) => client.fail(new Error(`the engine worker failed: ${e.message || 'it could not be loaded'}`));
    return client;
  }

  /** Fails every request under way and every later one (the worker is gone). */
  fail(e: Error): void {
    this.broken = e;
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
  }

  request<T>(op: Op, q?: FrameQuery, onProgress?: (p: Progress<Frame>) => void): Promise<Answer<T>> {
    const id = this.nextId++;
    if (this.broken) return Promise.reject(this.broken);
    return new Promise<Answer<T>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (a: Answer<unknown>) => void, reject, onProgress });
      this.port.postMessage({ ...op, id, q });
    });
  }

  /** A message needing no answer (the page drew a progress frame). */
  send(op: Op): void {
    this.port.postMessage({ ...op, id: 0 });
  }

  private receive(m: FromWorker): void {
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
    else p.reject(new Error(r.error));
  }
}
