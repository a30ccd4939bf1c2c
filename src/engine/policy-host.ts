// The engine worker's host of sched_ext policies (the wasm engine's JsHost,
// wasm/mod.rs, calls it): boots the runtime (`sched/ext/runtime.js`, the very
// file boa runs natively, imported here as text so that the wasm need not
// carry JavaScript to hand back to JavaScript) in this worker's own JavaScript engine, over the policy with its loops bounded
// (policy-guard.ts). The runtime is evaluated in a fresh function scope per
// run, so two runs (the lab's and compare's partner, a timeline's replay)
// never share a queue.
//
// No clock, no network, no DOM reach the policy through the runtime: it sees
// `scx` and its own globals. (It runs in the worker's realm, so a policy that
// reaches for `self` on purpose can; determinism is what the runtime keeps,
// and the worker keeps it in: serve.ts takes the network and storage away
// from the worker's global before any policy runs, worker-lockdown.ts, and the
// site's Content-Security-Policy refuses what a name cannot hold, src/csp.ts.)
import { setPolicyHost } from '../../wasm-core/pkg/schedlab_core.js';
import RUNTIME_JS from '../../wasm-core/src/sched/ext/runtime.js?raw';
import { guardLoops, PolicySyntaxError } from './policy-guard';

/** What the engine calls: NaN from `call` / `initTask` means the policy failed (`error()` says why). */
export interface PolicyHost {
  call(op: number, a: number, b: number, c: number, d: number): number;
  initTask(now: number, pid: number, weight: number, nice: number, cpus: string): number;
  kicks(): string;
  error(): string;
}

interface Runtime {
  boot(source: string, nrCpus: number, seed: number): void;
  describe(e: unknown): string;
  call(): PolicyHost['call'];
  initTask(): PolicyHost['initTask'];
  kicks(): PolicyHost['kicks'];
  error(): string;
}

/** Boots a policy; throws (with the reason, and the line when known) if it does not load. */
export function makePolicyHost(source: string, nrCpus: number, seed: number): PolicyHost {
  let guarded: string;
  try {
    guarded = guardLoops(source);
  } catch (e) {
    if (e instanceof PolicySyntaxError)
      throw new Error(`the policy does not load: SyntaxError: ${e.message}`, { cause: e });
    throw e;
  }
  // The runtime is code by design: its text is the engine's, evaluated once per run.
  const boot = new Function(
    `${RUNTIME_JS}
return { boot: __scx_boot, describe: __scx_describe, call: function () { return __scx_call; },
  initTask: function () { return __scx_init_task; }, kicks: function () { return __scx_kicks; },
  error: function () { return __scx_error; } };
//# sourceURL=scx-runtime.js`,
  ) as () => Runtime;
  const rt = boot();
  try {
    rt.boot(guarded, nrCpus, seed);
  } catch (e) {
    throw new Error(`the policy does not load: ${rt.describe(e)}`, { cause: e });
  }
  const call = rt.call();
  const initTask = rt.initTask();
  const kicks = rt.kicks();
  return { call, initTask, kicks, error: () => rt.error() };
}

/**
 * Gives the (initialised) wasm module this thread's policy host; the engine worker has given up the outside first
 * (worker-lockdown.ts). With `refusal`, every policy fails to load with it as the reason.
 */
export function installPolicyHost(refusal: string | null = null): void {
  setPolicyHost(
    refusal === null
      ? makePolicyHost
      : () => {
          throw new Error(`the policy does not load: ${refusal}`);
        },
  );
}
