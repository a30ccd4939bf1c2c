// The engine worker's host of sched_ext policies, as the wasm engine's JsHost
// (wasm/policy_host.rs) asks for it: each policy boots in an instance of the
// policy guest (guest.ts), the interpreter and limits `schedsim run` uses.
import { setPolicyHost } from '../../wasm-core/pkg/schedlab_core.js';
import { makePolicyHost } from './guest';

export type { PolicyHost } from './guest';

/**
 * Gives the (initialised) wasm module this thread's policy host. With `refusal`, every policy fails to load with it
 * as the reason.
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
