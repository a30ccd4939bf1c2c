// Issue 35, item 1: a share link's JavaScript policy reaches no network. A
// local server (another origin than the app's) logs every connection; a
// share link carries a policy that tries every route to it the red team found
// or a browser offers: the global object through `Function`, `eval` and the
// constructors' constructors, a module import, fetch, XHR, a worker, a font,
// importScripts, WebSocket, EventSource, posting to the page, a timer. The
// policy runs in the policy guest (src/engine/guest.ts), which imports
// nothing: each route must fail or come to nothing, and the server must log
// nothing. Around the guest, the site's Content-Security-Policy (src/csp.ts)
// is sent as the header the workers obey, with no 'unsafe-eval' anywhere.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { root, settled, shots, type Lab } from './harness';
import { follow, openLabBesideServer, policyLink, type LoggingServer } from './policy-link';
import { CSP_HEADER, CSP_PAGE } from '../../src/csp';

let lab: Lab;
let server: LoggingServer;
let close = () => Promise.resolve();
beforeAll(async () => {
  ({ lab, server, close } = await openLabBesideServer({ width: 1280, height: 720 }));
});
afterAll(() => close());

/**
 * A policy that, at init, tries every route to the server and throws its report: each route, and whether it threw
 * (with what) or returned (and what).
 */
function probePolicy(): string {
  const http = `http://${server.origin}`;
  return `
var HTTP = ${JSON.stringify(http)};
function init() {
  var out = [];
  function attempt(name, f) {
    try {
      var r = f();
      out.push([name, 'returned ' + (r && typeof r.then === 'function' ? 'a promise' : typeof r)]);
    } catch (e) {
      out.push([name, 'threw ' + String(e && e.message || e)]);
    }
  }
  attempt('Function', function () { return Function('return this')().fetch(HTTP + '/function'); });
  attempt('eval', function () { return (0, eval)('this').fetch(HTTP + '/eval'); });
  attempt('constructor', function () { return (function () {}).constructor('return this')().fetch(HTTP + '/ctor'); });
  attempt('globalThis', function () { return globalThis.fetch(HTTP + '/global'); });
  attempt('import()', function () { return import(HTTP + '/import.js'); });
  attempt('fetch', function () { return fetch(HTTP + '/fetch'); });
  attempt('XMLHttpRequest', function () { var x = new XMLHttpRequest(); x.open('GET', HTTP + '/xhr'); x.send(); });
  attempt('Worker', function () { return new Worker(HTTP + '/worker.js'); });
  attempt('FontFace', function () { return new FontFace('probe', 'url(' + HTTP + '/font.woff2)').load(); });
  attempt('importScripts', function () { return importScripts(HTTP + '/script.js'); });
  attempt('WebSocket', function () { return new WebSocket('ws://${server.origin}/ws'); });
  attempt('EventSource', function () { return new EventSource(HTTP + '/events'); });
  attempt('postMessage', function () { return postMessage({ op: 'fetch', url: HTTP + '/post' }); });
  attempt('setTimeout', function () { return setTimeout(function () {}, 0); });
  throw new Error('schedlab-probe ' + JSON.stringify(out));
}
`;
}

describe("a share link's policy and the network", () => {
  it('serves the page and its workers with the Content-Security-Policy, no eval anywhere', async () => {
    const page = await fetch(lab.url);
    expect(page.headers.get('content-security-policy')).toBe(CSP_HEADER);
    expect(CSP_HEADER).not.toContain("'unsafe-eval'");
    // The page's own tag (written in index.html), whatever quoting the build gives its attribute.
    const meta = /<meta http-equiv="Content-Security-Policy" content="([^"]*)"/.exec(await page.text());
    expect(meta?.[1].replaceAll('&#39;', "'")).toBe(CSP_PAGE);
    const workers = readdirSync(join(root, 'dist', 'assets')).filter((f) => /^(sim|check)-worker-.*\.js$/.test(f));
    expect(workers).toHaveLength(2);
    for (const w of workers) {
      const r = await fetch(new URL(`assets/${w}`, lab.url));
      expect(r.headers.get('content-security-policy'), w).toBe(CSP_HEADER);
    }
  });

  it('every route out fails or comes to nothing, and the server hears nothing', async () => {
    const page = lab.page;
    await follow(lab, policyLink(lab.url, 'ext-network-probe', probePolicy()));
    const quoted = page.getByTestId('run-note').getByTestId('quoted-words');
    const text = await settled(
      async () => ((await quoted.count()) > 0 ? ((await quoted.first().textContent()) ?? '') : ''),
      (t) => t.includes('schedlab-probe'),
      20_000,
    );
    const report = JSON.parse(text.slice(text.indexOf('schedlab-probe ') + 'schedlab-probe '.length)) as [
      string,
      string,
    ][];
    expect(report.map((r) => r[0])).toEqual([
      'Function',
      'eval',
      'constructor',
      'globalThis',
      'import()',
      'fetch',
      'XMLHttpRequest',
      'Worker',
      'FontFace',
      'importScripts',
      'WebSocket',
      'EventSource',
      'postMessage',
      'setTimeout',
    ]);
    for (const [route, how] of report) {
      // `import()` is syntax: it makes a promise whose job never runs (the guest runs no promise job, and has no
      // network to load from); every other route throws.
      if (route === 'import()') expect(how).toBe('returned a promise');
      else expect(how, route).toMatch(/^threw /);
    }
    expect(report.find((r) => r[0] === 'Function')?.[1]).toContain('cannot build code from a string');
    await page.screenshot({ path: join(shots, 'policy-network.png') });
    // The page goes on (a moment for anything in flight), and the server heard nothing.
    await page.evaluate(() => new Promise((r) => setTimeout(r, 500)));
    expect(server.seen).toEqual([]);
  });
});
