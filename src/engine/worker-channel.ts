// The engine worker's message channel to the page, held by the engine alone.
// A share link's policy runs in this worker's realm, and
// `Function('return this')()` hands it the global: through the global's own
// `onmessage` it could answer every later request of the page, and through
// `postMessage` post the page replies of its own (the red team's "SECURITY
// NOTICE" banners). So before any policy can run, the worker keeps for itself
// what the channel needs (postMessage bound to the global, the first message
// listener, the builtins that listener calls, read now so that a policy that
// rewrites Event.prototype later changes nothing), then takes the channel's
// names away from the global as worker-lockdown.ts takes the network: deleted
// from the prototype chain, pinned as a constant `undefined`.
//
// What a policy can still reach, EventTarget's methods (they are every event
// target's, so they stay), meets a first listener that stops every message
// before any later listener sees it and takes only those the browser
// delivered: an event a policy dispatches itself is not trusted. The same
// listener keeps an uncaught error in the worker (a policy's timer that
// throws) from reaching the page as an error event with its words.
import { takeAway } from './worker-lockdown';

/** The global's names that post to the page, take its messages, or end the channel. */
export const CHANNEL = ['postMessage', 'onmessage', 'onmessageerror', 'close'] as const;

/** Sends `m` to the page, handing over `transfer`. */
export type Post = (m: unknown, transfer: Transferable[]) => void;

/** What the channel reads from the global while nothing else has run (a browser's worker has them all). */
interface Scope {
  postMessage?: unknown;
  addEventListener?: unknown;
  Event?: { prototype: object };
  MessageEvent?: { prototype: object };
}

/** `f` called with any `this`, looking nothing up when called (as Function.prototype.call bound to it). */
function uncurried(f: unknown, name: string): (self: unknown, ...args: unknown[]) => unknown {
  if (typeof f !== 'function') throw new Error(`the engine worker has no ${name}`);
  const { bind, call } = Function.prototype;
  return bind.call(call, f) as (self: unknown, ...args: unknown[]) => unknown;
}

/**
 * Takes the worker's channel for the engine: `receive` gets the data of every message the page sends, and nothing
 * else does. Returns the only way left to post to the page. Throws, naming them, if any of the channel's names stays
 * reachable on the global, so that the engine is not loaded over a channel it does not hold.
 */
export function claimChannel(scope: object, receive: (data: unknown) => void): Post {
  const s = scope as Scope;
  const post = uncurried(s.postMessage, 'postMessage');
  const listen = uncurried(s.addEventListener, 'addEventListener');
  const event = s.Event?.prototype as Record<string, unknown> | undefined;
  const stop = uncurried(event?.stopImmediatePropagation, 'Event.stopImmediatePropagation');
  const cancel = uncurried(event?.preventDefault, 'Event.preventDefault');
  const message = s.MessageEvent?.prototype;
  const dataOf = uncurried(message && Object.getOwnPropertyDescriptor(message, 'data')?.get, 'MessageEvent.data');
  // Capture phase, registered before any policy runs: at the global (the event's target) no listener runs before it.
  const onMessage = (e: Event) => {
    stop(e);
    // `isTrusted` is an own, unforgeable property of every event: false for one built by script.
    if (e.isTrusted === true) receive(dataOf(e));
  };
  const onError = (e: Event) => {
    stop(e);
    cancel(e);
  };
  // Given up before listening: a worker that fails here has no listener of the engine's, and its error reaches
  // the page, which says the engine failed.
  const kept = takeAway(scope, CHANNEL);
  if (kept.length > 0)
    throw new Error(`the engine worker could not keep its channel: ${kept.join(', ')} still reachable`);
  listen(scope, 'message', onMessage, true);
  listen(scope, 'error', onError, true);
  return (m, transfer) => void post(scope, m, { transfer });
}
