// The engine worker's message loop: the wasm module and every simulation of
// the lab live in the worker, so a long run never holds the page. host.ts
// does the work; a trace file is read here first (streamed, size-capped), and
// requests are handled strictly in the order they came, a file read included.
// The worker's entry (src/sim-worker.ts) calls serve with the features'
// handlers, so the engine never imports a feature. At once the worker takes
// its message channel to the page for itself (worker-channel.ts); once the
// module is in, it gives up the network and storage before any request runs
// (worker-lockdown.ts), and it checks every message against the protocol
// before the host sees it (request-check.ts). A request that carries a
// sched_ext policy waits for the policy guest (guest.ts), compiled on the
// first such request only, with the fetch kept from before the lockdown.
import init from '../../wasm-core/pkg/schedlab_core.js';
import type { WorkerFeature } from './extensions';
import type { Request } from './protocol';
import { EngineHost } from './host';
import { installPolicyHost } from './policy-host';
import { checkRequest, replyId } from './request-check';
import { lockDown } from './worker-lockdown';
import { claimChannel } from './worker-channel';
import { loadGuest } from './guest';
import { readTraceText } from './trace-file';
import { traceLimit } from './real-run';

export function serve(features: readonly WorkerFeature[]): void {
  // Read now, before any policy can replace them on the global or on Promise.prototype.
  const setTimer = setTimeout;
  const { bind, call } = Function.prototype;
  const download = fetch.bind(globalThis);
  const then = bind.call(call, Promise.prototype.then) as <T>(p: Promise<T>, f: () => unknown) => Promise<unknown>;
  // A module that does not load (an old browser, a broken download) answers every request with why, and the page
  // shows it where it shows a refused scenario.
  let failed: string | null = null;
  let queue: Promise<unknown> = Promise.resolve();
  const post = claimChannel(globalThis, (data) => {
    queue = then(queue, () => handle(data));
  });
  queue = init()
    .then(() => {
      lockDown(globalThis);
      installPolicyHost();
    })
    .catch((e: unknown) => {
      failed = e instanceof Error ? e.message : String(e);
    });
  const host = new EngineHost(
    (m, transfer) => post(m, transfer ?? []),
    (f) => setTimer(f, 0),
    features,
  );
  // A message without an id of its own (an ack) has no request of the page's waiting: the page takes an answer to
  // id 0 for a breach of the protocol, so none is sent.
  const refuse = (id: number, error: string) => {
    if (id !== 0) post({ reply: { id, ok: false, error } }, []);
  };
  const handle = async (data: unknown) => {
    if (failed !== null) return refuse(replyId(data), `the simulation engine failed to load: ${failed}`);
    let req;
    try {
      req = checkRequest(data);
    } catch (err) {
      return refuse(
        replyId(data),
        `the engine worker refused a message: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    // A guest that does not load is said by the policy's load failing (guest.ts keeps the reason).
    if (carriesPolicy(req)) await loadGuest(download).catch(() => undefined);
    if (req.op === 'open-trace' && req.file) {
      try {
        const text = await readTraceText(req.file, traceLimit());
        host.handle({ ...req, file: undefined, text });
      } catch (err) {
        refuse(req.id, err instanceof Error ? err.message : String(err));
      }
      return;
    }
    host.handle(req);
  };
}

/**
 * Whether a request may build a simulation with a sched_ext policy: a scenario loaded in the lab or as compare's
 * partner with a policy's `source` (every other request works on a simulation built by one of these).
 */
function carriesPolicy(req: Request): boolean {
  return (req.op === 'load' || req.op === 'partner') && /"source"\s*:/.test(req.json ?? '');
}
