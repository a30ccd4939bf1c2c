// An engine client joined to an engine host in this process, each message
// passed on a later turn as a worker's would be (the wasm module must be
// initialised first).
import { EngineHost } from '../../src/engine/host';
import { checkRequest } from '../../src/engine/request-check';
import { EngineClient, type Port } from '../../src/engine/client';
import type { FromWorker } from '../../src/engine/protocol';
import { WORKER_FEATURES } from '../../src/worker-features';

export function connect(): EngineClient {
  const later = (f: () => void) => setTimeout(f, 0);
  let toPage: ((m: FromWorker) => void) | null = null;
  const host = new EngineHost((m) => later(() => toPage?.(m)), later, WORKER_FEATURES);
  const port: Port = {
    postMessage: (m) => later(() => host.handle(checkRequest(m))),
    onmessage: null,
  };
  const client = new EngineClient(port);
  toPage = (m) => port.onmessage?.({ data: m });
  return client;
}
