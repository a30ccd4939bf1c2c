// Issue 35's acceptance in the page: share links whose policies try each
// escape the red team found, opened beside a local server that logs every
// request. The policy runs in the policy guest (src/engine/guest.ts: boa and
// the CLI's limits, in a wasm module that imports nothing), so for each link:
//   - no request reaches the server;
//   - the run ends with a message (the policy's failure, in the page's words
//     with the policy's quoted), played at the page's speed;
//   - no banner shows text the app did not write (each policy's own words
//     carry the red team's "SECURITY NOTICE");
//   - another preset then loads and plays;
//   - Play and one jump to the end give the same trace hash as `schedsim run`.
// Network routes, the channel and fake replies have their own files
// (policy-network.test.ts, policy-channel.test.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { hook, settled, shots, type Lab } from './harness';
import {
  anotherPresetPlays,
  follow,
  openLabBesideServer,
  nativeReport,
  policyLink,
  policyScenario,
  unquoted,
  type LoggingServer,
} from './policy-link';

let lab: Lab;
let server: LoggingServer;
let close = () => Promise.resolve();
beforeAll(async () => {
  ({ lab, server, close } = await openLabBesideServer({ width: 1280, height: 720 }));
});
afterAll(() => close());

const SAY = 'SECURITY NOTICE: your session has expired, re-enter your password at https://evil.example/login';
const S = JSON.stringify(SAY);

/** A call that tries the server first: a policy that gets out would be heard. */
const KNOCK = `try { fetch('http://__ORIGIN__/knock'); } catch (e) {}`;

interface Hostile {
  name: string;
  source: string;
  /** What the run's note must say. */
  says: RegExp;
  /** The CLI runs it to the same end (false: the CLI cannot give a report, or has a larger stack). */
  sameAsCli: boolean;
}

const HOSTILE: Hostile[] = [
  {
    name: 'ext-budget-tampering',
    source: `function init() { ${KNOCK} try { __scx_budget.limit = Infinity; } catch (e) {} }
function dispatch(cpu) { if (scx.now() > 50000000) { while (true) {} } scx.dsq_move_to_local(scx.DSQ_GLOBAL); }`,
    says: /dispatch: the policy went past 2000000 steps in one callback/,
    sameAsCli: true,
  },
  {
    name: 'ext-function-loop',
    source: `function dispatch(cpu) { ${KNOCK} Function('while (true) {}; ' + ${S})(); }`,
    says: /cannot build code from a string/,
    sameAsCli: true,
  },
  {
    name: 'ext-regex',
    source: `function dispatch(cpu) { /(a+)+$/.test('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!' + ${S}); }`,
    says: /regular expressions are not available/,
    sameAsCli: true,
  },
  {
    name: 'ext-proxy-throw',
    source: `function tick(p) { ${KNOCK} throw new Proxy({}, { get: function () { throw new Error(${S}); } }); }`,
    says: /tick: a thrown value that cannot be read/,
    sameAsCli: true,
  },
  {
    name: 'ext-allocation-loop',
    source: `function tick(p) { var a = []; while (true) a.push({ n: a.length, s: ${S} + a.length }); }`,
    says: /tick: the policy's memory went past its limit of 64 MiB/,
    sameAsCli: true,
  },
  {
    name: 'ext-allocation-at-once',
    source: `function tick(p) { var s = ${S}; for (var i = 0; i < 40; i++) s = s + s; }`,
    says: /tick: it asked for \d+ MiB at once, past its memory limit of 64 MiB/,
    // `schedsim` ends the process with status 4 and one line: there is no report to compare.
    sameAsCli: false,
  },
  {
    name: 'ext-kick-livelock',
    source: `function enqueue(p, f) { scx.dsq_insert(p, scx.DSQ_GLOBAL, scx.SLICE_DFL, f); scx.kick_cpu(0, scx.KICK_PREEMPT); }
function dispatch(cpu) { scx.kick_cpu(cpu, scx.KICK_PREEMPT); scx.dsq_move_to_local(scx.DSQ_GLOBAL); }`,
    says: /callbacks ran 200000 times at this instant without time passing/,
    sameAsCli: true,
  },
  {
    name: 'ext-deep-chain',
    source: `function tick(p) { var o = { say: ${S} }; for (var i = 0; i < 100000; i++) o = Object.create(o); return o.x; }`,
    says: /deeper than the interpreter's stack allows/,
    // The CLI's 256 MiB stack holds the chain (README: the one departure).
    sameAsCli: false,
  },
  {
    name: 'ext-promise-jobs',
    source: `function init() { function again() { return Promise.resolve(${S}).then(again); } again(); }
function dispatch(cpu) { scx.dsq_move_to_local(scx.DSQ_GLOBAL); }`,
    // No job ever runs, in the page as in the CLI: the policy schedules the run to its end.
    says: /^$/,
    sameAsCli: true,
  },
];

/** The run's notes once the run has ended: a note, or the clock at the end with none. */
async function endOfRun(): Promise<string> {
  const page = lab.page;
  return settled(
    async () => {
      const notes = await page.getByTestId('run-note').allTextContents();
      if (notes.length > 0) return notes.join('\n');
      return Number(await page.getByTestId('sim-time').textContent()) >= 200 ? '' : null;
    },
    (t) => t !== null,
    60_000,
  ).then((t) => t ?? '');
}

describe('hostile share links in the page', () => {
  for (const h of HOSTILE) {
    it(`${h.name}: ends with a message, hears nothing, shows no foreign banner, and the lab goes on`, async () => {
      const page = lab.page;
      const source = h.source.replaceAll('__ORIGIN__', server.origin);
      await follow(lab, policyLink(lab.url, h.name, source));
      await settled(
        async () => (await page.locator('.description').textContent()) ?? '',
        (t) => t.includes(h.name),
        20_000,
      );
      const t0 = Date.now();
      // A policy that does not load leaves nothing to play.
      if (await page.getByTestId('btn-play').isEnabled()) await page.getByTestId('btn-play').click();
      const said = await endOfRun();
      console.log(`${h.name}: ended after ${Date.now() - t0} ms of play: ${said.slice(0, 160)}`);
      expect(said).toMatch(h.says);
      const played = await hook<string>(page, 'traceHash');
      await page.screenshot({ path: join(shots, `hostile-${h.name}.png`) });
      expect(await unquoted(lab, 'SECURITY NOTICE')).toEqual([]);
      expect((await page.locator('[role=alert]').allTextContents()).join('')).not.toContain('SECURITY');

      // One jump to the end, from a fresh load of the link: the same trace.
      await follow(lab, policyLink(lab.url, h.name, source));
      await settled(
        async () => (await page.locator('.description').textContent()) ?? '',
        (t) => t.includes(h.name),
        20_000,
      );
      await hook(page, 'runUntil', 200e6);
      expect(await hook<string>(page, 'traceHash')).toBe(played);
      if (h.sameAsCli) expect(nativeReport(policyScenario(h.name, source)).trace_hash).toBe(played);

      await anotherPresetPlays(lab);
      expect(server.seen).toEqual([]);
    });
  }
});
