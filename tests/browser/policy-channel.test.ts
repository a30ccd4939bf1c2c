// Issue 35, item 2 and the page's defence in depth: a share link's policy
// cannot take over the engine worker's channel to the page, and its words
// never pass for the page's. Each link's policy reaches for the worker's
// global by every way an attacker had (`Function('return this')()`, `eval`,
// `globalThis`, `self`; in the policy guest each fails, and it falls back to
// whatever it holds), tries every route (to take the page's requests:
// `onmessage`, message listeners, the setter on the prototype chain; to post
// the page fake replies that would fill the app's red banners: postMessage
// wherever it may live, events dispatched to itself), then fails with the
// attacker's "SECURITY NOTICE" as its error. The page must show its own words
// about the failure with that text only quoted inside them, and must go on
// answering: another preset loads and plays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { settled, shots, type Lab } from './harness';
import {
  anotherPresetPlays,
  follow,
  openLabBesideServer,
  policyLink,
  unquoted,
  type LoggingServer,
} from './policy-link';
import { translate } from '../../src/i18n/translate';

let lab: Lab;
let server: LoggingServer;
let close = () => Promise.resolve();
beforeAll(async () => {
  ({ lab, server, close } = await openLabBesideServer({ width: 1280, height: 900 }));
});
afterAll(() => close());

/** The attacker's words, as the red team wrote them. */
const SAY = 'SECURITY NOTICE: your session has expired, re-enter your password at https://evil.example/login';

/** Policy code that posts `fake` to the page by every route it can find, and returns how each ended. */
const POST_EVERY_WAY = `
function reachGlobal() {
  var ways = [
    function () { return Function('return this')(); },
    function () { return (0, eval)('this'); },
    function () { return globalThis; },
    function () { return self; },
  ];
  for (var i = 0; i < ways.length; i++) {
    try { var g = ways[i](); if (g) return g; } catch (e) {}
  }
  return {};
}
function postEveryWay(g, fake) {
  var tried = [];
  function attempt(name, f) {
    try { f(); tried.push(name + ' sent'); } catch (e) { tried.push(name + ' failed: ' + e); }
  }
  attempt('global postMessage', function () { g.postMessage(fake); });
  attempt('self.postMessage', function () { g.self.postMessage(fake); });
  for (var o = g, depth = 0; o; o = Object.getPrototypeOf(o), depth++) {
    (function (proto, depth) {
      var d = Object.getOwnPropertyDescriptor(proto, 'postMessage');
      if (d) attempt('postMessage on prototype ' + depth, function () { d.value.call(g, fake); });
    })(o, depth);
  }
  return tried;
}
`;

/** Tries every way to take the page's requests and answer them with the attacker's words, then fails with them. */
function hijackPolicy(): string {
  return `${POST_EVERY_WAY}
function init() {
  var g = reachGlobal();
  try { g.fetch('http://${server.origin}/hijack'); } catch (e) {}
  var say = ${JSON.stringify(SAY)};
  function answer(e) {
    var id = e && e.data && e.data.id;
    postEveryWay(g, { reply: { id: id, ok: false, error: say } });
  }
  var ways = {
    'onmessage =': function () { g.onmessage = answer; },
    'addEventListener': function () { g.addEventListener('message', answer); },
    'addEventListener, capture': function () { g.addEventListener('message', answer, true); },
    'EventTarget.prototype.addEventListener': function () {
      EventTarget.prototype.addEventListener.call(g, 'message', answer, { capture: true });
    },
    'onmessage setter on the chain': function () {
      for (var o = g; o; o = Object.getPrototypeOf(o)) {
        var d = Object.getOwnPropertyDescriptor(o, 'onmessage');
        if (d && d.set) { d.set.call(g, answer); return; }
      }
      throw new Error('no setter');
    },
    'stopImmediatePropagation disarmed': function () {
      Event.prototype.stopImmediatePropagation = function () {};
    },
  };
  Object.keys(ways).forEach(function (k) { try { ways[k](); } catch (e) {} });
  throw new Error(say);
}
`;
}

/** Posts fake replies for every id the page may be waiting on, and fake requests to the worker itself, then fails. */
function fakeReplyPolicy(): string {
  return `${POST_EVERY_WAY}
function init() {
  var g = reachGlobal();
  try { g.fetch('http://${server.origin}/fake-replies'); } catch (e) {}
  var say = ${JSON.stringify(SAY)};
  for (var id = 0; id < 200; id++) {
    postEveryWay(g, { reply: { id: id, ok: false, error: say } });
    postEveryWay(g, { reply: { id: id, ok: true, value: say, frame: null } });
  }
  // A request of its own, delivered to the worker's listeners as if the page had sent it.
  try {
    g.dispatchEvent(new g.MessageEvent('message', { data: { op: 'load', json: say, id: 1 } }));
  } catch (e) {}
  throw new Error(say);
}
`;
}

/** Waits until the page shows something about the link's run: a run note, or a banner. */
const shown = () =>
  settled(
    () => lab.page.locator('[data-testid=run-note], [role=alert]').count(),
    (n) => n > 0,
    20_000,
  );

describe("a share link's policy and the engine worker's channel", () => {
  for (const [name, policy] of [
    ['ext-hijack', hijackPolicy],
    ['ext-fake-replies', fakeReplyPolicy],
  ] as const) {
    it(`${name}: the page says what failed in its own words, quotes the policy, and goes on`, async () => {
      await follow(lab, policyLink(lab.url, name, policy()));
      await shown();
      // Nowhere is the attacker's text shown but inside quotation marks the page puts around it.
      expect(await unquoted(lab, 'SECURITY NOTICE')).toEqual([]);
      // No banner: the scenario itself loaded (its name is the header's) and the worker answered only as itself.
      expect(await lab.page.locator('[role=alert]').allTextContents()).toEqual([]);
      expect(await lab.page.locator('.description').textContent()).toContain(name);
      // The page's own words about the failure, with the policy's error quoted after them.
      const note = lab.page.getByTestId('run-note');
      expect(await note.textContent()).toContain(translate('en', 'notes.policyFailed', { ms: '0.000' }));
      expect(await note.getByTestId('quoted-words').textContent()).toContain(SAY);
      await lab.page.screenshot({ path: join(shots, `policy-channel-${name}.png`) });
      await anotherPresetPlays(lab);
      expect(await unquoted(lab, 'SECURITY NOTICE')).toEqual([]);
      expect(server.seen).toEqual([]);
    });
  }
});
