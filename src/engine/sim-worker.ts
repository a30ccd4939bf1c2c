// The engine worker: the wasm module and every simulation of the lab live
// here, so a long run never holds the page. host.ts does the work.
import init from '../../wasm-core/pkg/schedlab_core.js';
import { EngineHost } from './host';
import type { Request } from './protocol';

const ready = init();
const host = new EngineHost(
  (m) => self.postMessage(m),
  (f) => setTimeout(f, 0),
);
self.onmessage = (e: MessageEvent<Request>) => {
  // Messages wait for the module in the order they came.
  void ready.then(() => host.handle(e.data));
};
