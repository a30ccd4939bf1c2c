// Issue 35, item 1: a share link's JavaScript policy reaches no network. A
// local server (another origin than the app's) logs every connection; share
// links carry policies that try every route to it from the engine worker: a
// module import from code built with `Function`, fetch, XHR, a nested worker
// that fetches, a font, importScripts, WebSocket, EventSource. Each route
// must fail with an error, the run must go on to its end as if nothing had
// been tried, and the server must log nothing. Two layers hold it (src/csp.ts:
// the site's Content-Security-Policy, sent as the header the workers obey;
// src/engine/worker-lockdown.ts: the worker's global without those names);
// the test holds for the build, as served to users.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type Server } from 'node:http';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { hook, openLab, root, settled, shots, type Lab } from './harness';
import { policyLink } from './policy-link';
import { CSP_HEADER, CSP_PAGE } from '../../src/csp';

let lab: Lab;
let server: Server;
let origin = '';
/** Every connection and request the local server saw. */
const seen: string[] = [];

beforeAll(async () => {
  // Answers as a permissive server would (CORS allowed, real content types), so a request that gets out succeeds.
  server = createServer((req, res) => {
    seen.push(`${req.method ?? '?'} ${req.url ?? '?'}`);
    const type = req.url?.endsWith('.js') ? 'text/javascript' : 'text/plain';
    res.writeHead(200, { 'content-type': type, 'access-control-allow-origin': '*' });
    res.end(type === 'text/javascript' ? 'export const reached = 1;' : 'reached');
  });
  server.on('connection', () => seen.push('connection'));
  server.on('upgrade', (req, socket) => {
    seen.push(`upgrade ${req.url ?? '?'}`);
    socket.destroy();
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no server address');
  origin = `127.0.0.1:${address.port}`;
  lab = await openLab({ width: 1280, height: 720 });
});
afterAll(async () => {
  await lab?.close();
  server?.closeAllConnections();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
});

/**
 * A policy that, at init, tries every route to the server with the worker's real global in hand (as an attacker
 * gets it, `Function('return this')()`), then logs how each ended on the worker's console. The routes are promise
 * jobs, so natively (where none runs) the policy is a plain global FIFO.
 */
function probePolicy(): string {
  const http = `http://${origin}`;
  return `
var HTTP = ${JSON.stringify(http)};
var WS = ${JSON.stringify(`ws://${origin}`)};
function init() {
  var g = Function('return this')();
  function settle(start) {
    return new Promise(function (ok, no) { start(ok, function (why) { no(new Error(why)); }); });
  }
  var routes = {
    'import()': function () { return Function('u', 'return import(u)')(HTTP + '/import.js'); },
    'fetch': function () { return g.fetch(HTTP + '/fetch'); },
    'XMLHttpRequest': function () {
      return settle(function (ok, no) {
        var x = new g.XMLHttpRequest();
        x.open('GET', HTTP + '/xhr');
        x.onload = ok;
        x.onerror = function () { no('XHR failed'); };
        x.send();
      });
    },
    'nested Worker + fetch': function () {
      return settle(function (ok, no) {
        var code = 'fetch(' + JSON.stringify(HTTP + '/from-nested-worker') + ').then(function () { postMessage("fetched"); },' +
          ' function (e) { postMessage("refused: " + e); });';
        var w = new g.Worker(g.URL.createObjectURL(new g.Blob([code], { type: 'text/javascript' })));
        w.onmessage = function (e) { ok(e.data); };
        w.onerror = function (e) { no('the nested worker did not run: ' + (e.message || 'error event')); };
      });
    },
    'FontFace': function () { return new g.FontFace('probe', 'url(' + HTTP + '/font.woff2)').load(); },
    'fonts.add + load': function () {
      g.fonts.add(new g.FontFace('probe-set', 'url(' + HTTP + '/font-set.woff2)'));
      return g.fonts.load('12px probe-set');
    },
    'importScripts': function () { g.importScripts(HTTP + '/script.js'); },
    'WebSocket': function () {
      return settle(function (ok, no) {
        var s = new g.WebSocket(WS + '/ws');
        s.onopen = ok;
        s.onerror = function () { no('WebSocket failed'); };
      });
    },
    'EventSource': function () {
      return settle(function (ok, no) {
        var s = new g.EventSource(HTTP + '/events');
        s.onopen = ok;
        s.onerror = function () { s.close(); no('EventSource failed'); };
      });
    },
  };
  var names = Object.keys(routes);
  Promise.allSettled(names.map(function (n) { return Promise.resolve().then(routes[n]); })).then(function (rs) {
    g.console.log('schedlab-probe ' + JSON.stringify(rs.map(function (r, i) {
      return [names[i], r.status, r.status === 'rejected' ? String(r.reason && r.reason.message || r.reason) : ''];
    })));
  });
}
`;
}

/** A link to a 200 ms run scheduled by `source`. */
const link = (name: string, source: string) => policyLink(lab.url, name, source);

/** Opens `href` in a fresh load of the lab's page, as a visitor following the link does. */
async function follow(href: string): Promise<void> {
  await lab.page.goto('about:blank');
  await lab.page.goto(href);
}

/** The page's text once it includes `part`. */
const pageText = (part: string) =>
  settled(
    async () => (await lab.page.locator('body').textContent()) ?? '',
    (t) => t.includes(part),
    20_000,
  );

describe("a share link's policy and the network", () => {
  it('serves the page and its workers with the Content-Security-Policy', async () => {
    const page = await fetch(lab.url);
    expect(page.headers.get('content-security-policy')).toBe(CSP_HEADER);
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

  it('every route out fails with an error, the run goes on to its end, and the server hears nothing', async () => {
    const page = lab.page;
    const probed = new Promise<string>((resolve) => {
      page.on('console', (m) => {
        if (m.text().startsWith('schedlab-probe ')) resolve(m.text().slice('schedlab-probe '.length));
      });
    });
    await follow(link('ext-network-probe', probePolicy()));
    // The probe's report, or the page showing a failure (the policy did not load, or stopped): that ends the test
    // with the page's words rather than a time-out.
    const failure = '[role=alert], [data-testid=run-note]';
    const failed = page
      .waitForFunction((sel) => document.querySelector(sel) !== null, failure, { timeout: 0 })
      .then(
        async () =>
          `instead of the probe's report, the page says: ${await page.locator(failure).first().textContent()}`,
        () => new Promise<never>(() => undefined),
      );
    const report = await Promise.race([probed, failed.then((why) => Promise.reject(new Error(why)))]);
    const results = JSON.parse(report) as [string, string, string][];
    expect(seen).toEqual([]);
    expect(results.map((r) => r[0])).toEqual([
      'import()',
      'fetch',
      'XMLHttpRequest',
      'nested Worker + fetch',
      'FontFace',
      'fonts.add + load',
      'importScripts',
      'WebSocket',
      'EventSource',
    ]);
    for (const [route, status, why] of results) {
      expect(status, `${route}: ${why}`).toBe('rejected');
      expect(why, route).not.toBe('');
    }
    // The policy itself did not fail: it schedules the run to its end with no note.
    const loaded = await settled(
      async () => (await page.locator('.description').textContent()) ?? '',
      (t) => t.includes('ext-network-probe'),
      20_000,
    );
    expect(loaded).toContain('ext-network-probe');
    await hook(page, 'runUntil', 200e6);
    const at = await settled(
      async () => Number(await page.getByTestId('sim-time').textContent()),
      (t) => t === 200,
    );
    expect(at).toBe(200);
    expect(await page.getByTestId('run-note').count()).toBe(0);
    await page.screenshot({ path: join(shots, 'policy-network.png') });
    expect(seen).toEqual([]);
  });

  it('a policy that imports code in its own text does not load, saying so', async () => {
    const src = `function init() { import(${JSON.stringify(`http://${origin}/direct.js`)}); }`;
    await follow(link('ext-direct-import', src));
    expect(await pageText('a policy cannot import code')).toContain('a policy cannot import code');
    expect(seen).toEqual([]);
  });
});
