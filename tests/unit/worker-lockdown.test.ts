// The engine worker's lockdown on a stand-in global shaped as a browser's
// (members on the object, on its prototype, on the prototype's prototype):
// every name is gone from the whole chain, and code that runs afterwards with
// the global in hand (as a policy does through `Function('return this')()`)
// can neither write, redefine nor delete its way back to the original.
import { describe, expect, it } from 'vitest';
import { lockDown, OUTSIDE, OUTSIDE_NAVIGATOR } from '../../src/engine/worker-lockdown';

const original = () => 'the outside';

/** A global whose outside names sit at every level of its chain, as in Chromium and Firefox workers. */
function fakeGlobal(): Record<string, unknown> {
  const eventTarget = { addEventListener: () => undefined, fetch: original };
  const workerScope = Object.create(eventTarget) as Record<string, unknown>;
  Object.defineProperty(workerScope, 'fonts', { get: original, configurable: true });
  const scope = Object.create(workerScope) as Record<string, unknown>;
  for (const name of OUTSIDE) if (name !== 'fonts') scope[name] = original;
  const navProto = { userAgent: 'x', sendBeacon: original };
  Object.defineProperty(navProto, 'serviceWorker', { get: original, configurable: true });
  const nav = Object.create(navProto) as Record<string, unknown>;
  nav.storage = original;
  scope.navigator = nav;
  scope.postMessage = original;
  return scope;
}

describe('lockDown', () => {
  it('takes every outside name away from the global, its prototypes and its navigator', () => {
    const g = fakeGlobal();
    lockDown(g);
    for (const name of OUTSIDE) {
      expect(g[name], name).toBeUndefined();
      for (let o = Object.getPrototypeOf(g) as object | null; o; o = Object.getPrototypeOf(o) as object | null)
        expect(Object.getOwnPropertyDescriptor(o, name), name).toBeUndefined();
    }
    const nav = g.navigator as Record<string, unknown>;
    for (const name of OUTSIDE_NAVIGATOR) expect(nav[name], name).toBeUndefined();
    // What the worker itself still needs stays.
    expect(g.postMessage).toBe(original);
    expect(typeof g.addEventListener).toBe('function');
    expect(nav.userAgent).toBe('x');
  });

  it('cannot be undone by code that holds the global', () => {
    const g = fakeGlobal();
    lockDown(g);
    const restore = new Function('g', 'f', "'use strict'; g.fetch = f;") as (g: unknown, f: unknown) => void;
    expect(() => restore(g, original)).toThrow(TypeError);
    expect(() => Object.defineProperty(g, 'fetch', { value: original })).toThrow(TypeError);
    expect(Reflect.deleteProperty(g, 'Worker')).toBe(false);
    const nav = g.navigator as Record<string, unknown>;
    expect(Reflect.deleteProperty(nav, 'sendBeacon')).toBe(false);
    // A prototype may be given a value again, but the global's own undefined hides it.
    (Object.getPrototypeOf(g) as Record<string, unknown>).fetch = original;
    expect(g.fetch).toBeUndefined();
    expect(g.Worker).toBeUndefined();
  });

  it('refuses, naming it, a global that holds a name fast', () => {
    const g = fakeGlobal();
    Object.defineProperty(g, 'WebSocket', { value: original, writable: false, configurable: false });
    expect(() => lockDown(g)).toThrow('the engine worker could not give up WebSocket');
  });

  it('leaves a global without a navigator alone there', () => {
    const g = fakeGlobal();
    delete g.navigator;
    expect(() => lockDown(g)).not.toThrow();
  });
});
