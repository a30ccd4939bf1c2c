// Share links to scenarios scheduled by a JavaScript policy, as someone sends
// one (the uniprocessor nice-levels preset, 200 ms, under `source`), and what
// the browser tests of hostile policies do with them: follow one as a
// visitor does, find the page's text that holds a policy's words outside the
// quotation marks the page puts around them, check that the lab goes on, and
// listen for requests on a local server of another origin.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { expect } from 'vitest';
import { loadPreset, openLab, root, settled, type Lab } from './harness';
import { encodeShare } from '../../src/share/share-link';

/** The scenario a link carries: the nice-levels preset named `name`, 200 ms, under `source`. */
export function policyScenario(name: string, source: string): string {
  const s = JSON.parse(readFileSync(join(root, 'wasm-core', 'presets', 'cfs-nice-levels.json'), 'utf8')) as Record<
    string,
    unknown
  >;
  s.name = name;
  s.duration_ms = 200;
  s.policy = { kind: 'ext', source };
  return JSON.stringify(s);
}

export function policyLink(labUrl: string, name: string, source: string): string {
  const made = encodeShare({
    scenario: policyScenario(name, source),
    view: { cursor: { event: 0, ns: 0 }, cpu: 0, colourBy: 'load', partner: '', lesson: null },
  });
  if (!made.ok) throw new Error('could not make the link');
  return `${labUrl}#${made.fragment}`;
}

/** `schedsim run --json` of `json`: its report (a run whose policy failed exits 3 and still prints it). */
export function nativeReport(json: string): { trace_hash: string; notes: string[]; sim_time_ns: number } {
  const file = join(mkdtempSync(join(tmpdir(), 'schedlab-ext-')), 'scenario.json');
  writeFileSync(file, json);
  const r = spawnSync(join(root, 'wasm-core', 'target', 'release', 'schedsim'), ['run', file, '--json'], {
    encoding: 'utf8',
  });
  if (r.status !== 0 && r.status !== 3) throw new Error(`schedsim exited ${String(r.status)}: ${r.stderr}`);
  return JSON.parse(r.stdout) as { trace_hash: string; notes: string[]; sim_time_ns: number };
}

/** Opens `href` in a fresh load of the lab's page, as a visitor following the link does. */
export async function follow(lab: Lab, href: string): Promise<void> {
  await lab.page.goto('about:blank');
  await lab.page.goto(href);
}

/** Every piece of the page's text that holds `marker` outside an element the page marks as quoted words. */
export function unquoted(lab: Lab, marker: string): Promise<string[]> {
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

/** Loads another preset and plays it: the worker still answers the page, and only the page. */
export async function anotherPresetPlays(lab: Lab): Promise<void> {
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

/** A local server of another origin that logs every connection and request, answering as a permissive one would. */
export interface LoggingServer {
  /** host:port */
  origin: string;
  /** Every connection and request it saw. */
  seen: string[];
  close(): Promise<void>;
}

export async function loggingServer(): Promise<LoggingServer> {
  const seen: string[] = [];
  // CORS allowed and real content types, so that a request that gets out succeeds.
  const server: Server = createServer((req, res) => {
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
  return {
    origin: `127.0.0.1:${address.port}`,
    seen,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
}

/** The lab beside a logging server, and the one call that closes both. */
export async function openLabBesideServer(viewport: {
  width: number;
  height: number;
}): Promise<{ lab: Lab; server: LoggingServer; close: () => Promise<void> }> {
  const server = await loggingServer();
  const lab = await openLab(viewport);
  return {
    lab,
    server,
    close: async () => {
      await lab.close();
      await server.close();
    },
  };
}
