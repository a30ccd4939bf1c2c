// Issue 35, item 2 and the page's defence in depth: a share link's policy
// cannot take over the engine worker's channel to the page, and its words
// never pass for the page's. Each link's policy holds the worker's real
// global (`Function('return this')()`, as an attacker gets it), tries every
// route it has (to take the page's requests: `onmessage`, message listeners,
// the setter on the prototype chain; to post the page fake replies that
// would fill the app's red banners: postMessage wherever it may live, events
// dispatched to itself), then fails with the attacker's "SECURITY NOTICE" as
// its error. The page must show its own words about the failure with that
// text only quoted inside them, and must go on answering: another preset
// loads and plays.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadPreset, openLab, settled, shots, type Lab } from './harness';
import { policyLink } from './policy-link';
import { translate } from '../../src/i18n/translate';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1280, height: 900 });
});
afterAll(async () => lab?.close());

/** The attacker's words, as the red team wrote them. */
const SAY = 'SECURITY NOTICE: your session has expired, re-enter your password at https://evil.example/login';

/** Policy code that posts `fake` to the page by every route it can find, and returns how each ended. */
const POST_EVERY_WAY = `
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
  var g = Function('return this')();
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
  var g = Function('return this')();
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

/** Opens `href` in a fresh load of the lab's page, as a visitor following the link does. */
async function follow(href: string): Promise<void> {
  await lab.page.goto('about:blank');
  await lab.page.goto(href);
}

/** Every piece of the page's text that holds `marker` outside an element the page marks as quoted words. */
function unquoted(marker: string): Promise<string[]> {
  return lab.page.evaluate((m) => {
    const out: string[] = [];
    const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walk.nextNode(); n; n = walk.nextNode()) {
      const el = n.parentElement;
      if ((n.textContent ?? '').includes(m) && !el?.closest('[data-testid=quoted-words]'))
        out.push(el?.closest('[role], section, div')?.outerHTML.slice(0, 300) ?? n.textContent ?? '');
    }
    return out;
  }, marker);
}

/** Waits until the page shows something about the link's run: a run note, or a banner. */
const shown = () =>
  settled(
    () => lab.page.locator('[data-testid=run-note], [role=alert]').count(),
    (n) => n > 0,
    20_000,
  );

/** Loads another preset and plays it: the worker still answers the page, and only the page. */
async function anotherPresetPlays(): Promise<void> {
  const page = lab.page;
  await loadPreset(page, 'group-imbalance-make');
  expect(await page.getByTestId('error').count()).toBe(0);
  await page.getByTestId('btn-play').click();
  const t = await settled(
    async () => Number(await page.getByTestId('sim-time').textContent()),
    (ms) => ms > 0,
    20_000,
  );
  await page.getByTestId('btn-play').click();
  expect(t).toBeGreaterThan(0);
}

describe("a share link's policy and the engine worker's channel", () => {
  for (const [name, policy] of [
    ['ext-hijack', hijackPolicy],
    ['ext-fake-replies', fakeReplyPolicy],
  ] as const) {
    it(`${name}: the page says what failed in its own words, quotes the policy, and goes on`, async () => {
      await follow(policyLink(lab.url, name, policy()));
      await shown();
      // Nowhere is the attacker's text shown but inside quotation marks the page puts around it.
      expect(await unquoted('SECURITY NOTICE')).toEqual([]);
      // No banner: the scenario itself loaded (its name is the header's) and the worker answered only as itself.
      expect(await lab.page.locator('[role=alert]').allTextContents()).toEqual([]);
      expect(await lab.page.locator('.description').textContent()).toContain(name);
      // The page's own words about the failure, with the policy's error quoted after them.
      const note = lab.page.getByTestId('run-note');
      expect(await note.textContent()).toContain(translate('en', 'notes.policyFailed', { ms: '0.000' }));
      expect(await note.getByTestId('quoted-words').textContent()).toContain(SAY);
      await lab.page.screenshot({ path: join(shots, `policy-channel-${name}.png`) });
      await anotherPresetPlays();
      expect(await unquoted('SECURITY NOTICE')).toEqual([]);
    });
  }
});
