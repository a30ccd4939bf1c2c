// The engine worker's channel to the page (worker-channel.ts) on a stand-in
// global shaped as a browser's worker (an EventTarget; postMessage on the
// object, close and the onmessage accessor on its prototype). Once claimed,
// the page's messages reach the engine alone and only the engine can post;
// code that runs afterwards with the global in hand (a policy, through
// `Function('return this')()`) can neither answer the page, take its
// requests, slip in requests of its own, nor close the channel, even after
// rewriting Event.prototype. The browser's side is
// tests/browser/policy-channel.test.ts.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHANNEL, claimChannel } from '../../src/engine/worker-channel';

type Scope = EventTarget & Record<string, unknown>;

/** A worker's global before the engine claims it, and the page's end of it. */
function fakeWorker() {
  const sent: unknown[] = [];
  let closed = false;
  class WorkerGlobalScope extends EventTarget {}
  let handler: EventListener | null = null;
  Object.defineProperty(WorkerGlobalScope.prototype, 'onmessage', {
    configurable: true,
    get: () => handler,
    set(this: EventTarget, h: EventListener | null) {
      if (handler) this.removeEventListener('message', handler);
      handler = h;
      if (h) this.addEventListener('message', h);
    },
  });
  Object.defineProperty(WorkerGlobalScope.prototype, 'close', {
    configurable: true,
    writable: true,
    value: () => {
      closed = true;
    },
  });
  const g = new WorkerGlobalScope() as Scope;
  g.postMessage = (m: unknown) => void sent.push(m);
  g.onmessageerror = null;
  g.Event = Event;
  g.MessageEvent = MessageEvent;
  /** The page posts `data`: the browser delivers it as a trusted event (isTrusted is an own property there). */
  const fromPage = (data: unknown) => {
    const e = new MessageEvent('message', { data });
    Object.defineProperty(e, 'isTrusted', { value: true });
    g.dispatchEvent(e);
  };
  return { g, sent, fromPage, closed: () => closed };
}

/** Runs `body` as strict policy code with the global as `g`. */
const policy = (body: string) => new Function('g', `'use strict'; ${body}`) as (g: Scope, arg?: unknown) => unknown;

const restore: (() => void)[] = [];
afterEach(() => {
  for (const f of restore.splice(0)) f();
});

describe('claimChannel', () => {
  it("hands the page's messages to the engine and posts the engine's to the page", () => {
    const w = fakeWorker();
    const received: unknown[] = [];
    const post = claimChannel(w.g, (d) => received.push(d));
    w.fromPage({ op: 'frame', id: 1 });
    expect(received).toEqual([{ op: 'frame', id: 1 }]);
    post({ reply: { id: 1, ok: true, value: null, frame: null } }, []);
    expect(w.sent).toEqual([{ reply: { id: 1, ok: true, value: null, frame: null } }]);
  });

  it('leaves code that holds the global no way to post, to set onmessage, or to close the channel', () => {
    const w = fakeWorker();
    claimChannel(w.g, () => undefined);
    for (const name of CHANNEL) {
      expect(w.g[name], name).toBeUndefined();
      for (let o = Object.getPrototypeOf(w.g) as object | null; o; o = Object.getPrototypeOf(o) as object | null)
        expect(Object.getOwnPropertyDescriptor(o, name), name).toBeUndefined();
    }
    const say = { reply: { id: 1, ok: false, error: 'SECURITY NOTICE' } };
    expect(() => policy('g.postMessage(arguments[1]);')(w.g, say)).toThrow(TypeError);
    expect(() => policy('g.onmessage = function () {};')(w.g)).toThrow(TypeError);
    expect(() => policy("Object.defineProperty(g, 'onmessage', { value: function () {} });")(w.g)).toThrow(TypeError);
    expect(() => policy('delete g.postMessage;')(w.g)).toThrow(TypeError);
    expect(() => policy('g.close();')(w.g)).toThrow(TypeError);
    expect(w.sent).toEqual([]);
    expect(w.closed()).toBe(false);
  });

  it('lets no listener code adds see a message, and takes no message code dispatches', () => {
    const w = fakeWorker();
    const received: unknown[] = [];
    claimChannel(w.g, (d) => received.push(d));
    const spy = vi.fn();
    policy(`
      g.addEventListener('message', arguments[1]);
      g.addEventListener('message', arguments[1], true);
      EventTarget.prototype.addEventListener.call(g, 'message', arguments[1], { capture: true });
      g.dispatchEvent(new MessageEvent('message', { data: { op: 'load', json: 'forged', id: 1 } }));
    `)(w.g, spy);
    w.fromPage({ op: 'frame', id: 2 });
    expect(spy).not.toHaveBeenCalled();
    expect(received).toEqual([{ op: 'frame', id: 2 }]);
  });

  it('holds when code rewrites Event and MessageEvent afterwards', () => {
    const w = fakeWorker();
    const received: unknown[] = [];
    claimChannel(w.g, (d) => received.push(d));
    const stop = Object.getOwnPropertyDescriptor(Event.prototype, 'stopImmediatePropagation');
    const data = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'data');
    restore.push(() => {
      if (stop) Object.defineProperty(Event.prototype, 'stopImmediatePropagation', stop);
      if (data) Object.defineProperty(MessageEvent.prototype, 'data', data);
    });
    const spy = vi.fn();
    policy(`
      Event.prototype.stopImmediatePropagation = function () {};
      Object.defineProperty(MessageEvent.prototype, 'data', { get: function () { return 'forged'; }, configurable: true });
      g.addEventListener('message', arguments[1]);
    `)(w.g, spy);
    w.fromPage({ op: 'frame', id: 3 });
    expect(spy).not.toHaveBeenCalled();
    expect(received).toEqual([{ op: 'frame', id: 3 }]);
  });

  it("keeps an uncaught error's event in the worker, from the page", () => {
    const w = fakeWorker();
    claimChannel(w.g, () => undefined);
    const later = vi.fn();
    w.g.addEventListener('error', later);
    const e = new Event('error', { cancelable: true });
    w.g.dispatchEvent(e);
    // Cancelled: a dedicated worker's error event that is cancelled does not reach the Worker object in the page.
    expect(e.defaultPrevented).toBe(true);
    expect(later).not.toHaveBeenCalled();
  });

  it('refuses, naming it, a global that holds a channel name fast, before it listens', () => {
    const w = fakeWorker();
    Object.defineProperty(w.g, 'onmessage', { value: null, writable: false, configurable: false });
    const received: unknown[] = [];
    expect(() => claimChannel(w.g, (d) => received.push(d))).toThrow(
      'the engine worker could not keep its channel: onmessage still reachable',
    );
    w.fromPage({ op: 'frame', id: 4 });
    expect(received).toEqual([]);
  });
});
