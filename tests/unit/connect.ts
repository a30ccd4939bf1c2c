// An engine client joined to an engine host in this process, each message
// passed on a later turn as a worker's would be (the wasm module must be
// initialised first).
import { EngineHost } from '../../src/engine/host';
import { checkRequest } from '../../src/engine/request-check';
import { EngineClient, type Port } from '../../src/engine/client';
import { WORKER_FEATURES } from '../../src/worker-features';
import type { FrameQuery } from '../../src/engine/frame';

/** One worker in this process: the port the page holds, and what else could post to the page from inside it. */
export interface InProcessWorker {
  port: Port;
  /** Delivers `m` to the page now, as code in the worker that could post would. */
  inject(m: unknown): void;
  /** Whether the page ended it (nothing it posts reaches the page any more). */
  terminated(): boolean;
}

export function inProcessWorker(): InProcessWorker {
  const later = (f: () => void) => setTimeout(f, 0);
  let ended = false;
  const toPage = (m: unknown) => {
    if (!ended) port.onmessage?.({ data: m });
  };
  const host = new EngineHost((m) => later(() => toPage(m)), later, WORKER_FEATURES);
  const port: Port = {
    postMessage: (m) => later(() => host.handle(checkRequest(m))),
    onmessage: null,
    terminate: () => {
      ended = true;
    },
  };
  return { port, inject: toPage, terminated: () => ended };
}

export function connect(): EngineClient {
  return new EngineClient(inProcessWorker().port);
}

/** A frame request for CPU 0 with the report, history and 300 rows (the tests' usual), `over` replacing parts. */
export const query = (over: Partial<FrameQuery> = {}): FrameQuery => ({
  cpu: 0,
  gantt: { spanNs: 200e6, endNs: null },
  report: true,
  rows: 300,
  history: true,
  held: { gen: -1, names: 0, historyKey: null },
  partner: null,
  ...over,
});
