// The engine worker's message loop: the wasm module and every simulation of
// the lab live in the worker, so a long run never holds the page. host.ts
// does the work; a trace file is read here first (streamed, size-capped), and
// requests are handled strictly in the order they came, a file read included.
// The worker's entry (src/sim-worker.ts) calls serve with the features'
// handlers, so the engine never imports a feature. Once the module is in, the
// worker gives up the network and storage before any request (and so any
// policy) runs (worker-lockdown.ts).
import init from '../../wasm-core/pkg/schedlab_core.js';
import type { WorkerFeature } from './extensions';
import { EngineHost } from './host';
import { installPolicyHost } from './policy-host';
import type { Request } from './protocol';
import { lockDown } from './worker-lockdown';
import { readTraceText } from './trace-file';
import { traceLimit } from './real-run';

export function serve(features: readonly WorkerFeature[]): void {
  // A module that does not load (an old browser, a broken download) answers every request with why, and the page
  // shows it where it shows a refused scenario.
  let failed: string | null = null;
  let queue: Promise<unknown> = init()
    .then(() => {
      lockDown(globalThis);
      installPolicyHost();
    })
    .catch((e: unknown) => {
      failed = e instanceof Error ? e.message : String(e);
    });
  const host = new EngineHost(
    (m, transfer) => self.postMessage(m, { transfer }),
    (f) => setTimeout(f, 0),
    features,
  );
  self.onmessage = (e: MessageEvent<Request>) => {
    const req = e.data;
    queue = queue.then(async () => {
      if (failed !== null) {
        self.postMessage({
          reply: { id: req.id, ok: false, error: `the simulation engine failed to load: ${failed}` },
        });
        return;
      }
      if (req.op === 'open-trace' && req.file) {
        try {
          const text = await readTraceText(req.file, traceLimit());
          host.handle({ ...req, file: undefined, text });
          return;
        } catch (err) {
          self.postMessage({
            reply: { id: req.id, ok: false, error: err instanceof Error ? err.message : String(err) },
          });
          return;
        }
      }
      host.handle(req);
    });
  };
}
