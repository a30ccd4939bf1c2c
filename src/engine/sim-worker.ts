// The engine worker: the wasm module and every simulation of the lab live
// here, so a long run never holds the page. host.ts does the work; a trace
// file is read here first (streamed, size-capped), and requests are handled
// strictly in the order they came, a file read included.
import init from '../../wasm-core/pkg/schedlab_core.js';
import { EngineHost } from './host';
import type { Request } from './protocol';
import { readTraceText } from './trace-file';
import { traceLimit } from './real-run';

let queue: Promise<unknown> = init();
const host = new EngineHost(
  (m) => self.postMessage(m),
  (f) => setTimeout(f, 0),
);
self.onmessage = (e: MessageEvent<Request>) => {
  const req = e.data;
  queue = queue.then(async () => {
    if (req.op === 'open-trace' && req.file) {
      try {
        const text = await readTraceText(req.file, traceLimit());
        return host.handle({ ...req, file: undefined, text });
      } catch (err) {
        return self.postMessage({
          reply: { id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) },
        });
      }
    }
    host.handle(req);
  });
};
