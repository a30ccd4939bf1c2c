// The engine worker's protocol, with the host and the client joined in-process
// (messages delivered on later macrotasks, as between threads, and checked as
// the worker checks them: request-check.ts). A frame must
// equal what a simulation driven directly shows at the same cursor; jobs end
// exactly where an uninterrupted run would; a newer command or Cancel ends a
// job; the compare partner follows the clock; lesson answers match.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initSync } from '../../wasm-core/pkg/schedlab_core.js';
import { Simulation, presetJson } from '../../src/engine/engine';
import { EngineClient, type Port } from '../../src/engine/client';
import { connect, query } from './connect';
import { inflateFrame, readFrame, type Frame } from '../../src/engine/frame';
import type { JobEnd } from '../../src/engine/protocol';
import type { Progress } from '../../src/engine/protocol';
import { predict } from '../../src/classroom/predict';
import { machineData } from '../../src/stores/lab-engine';
import { translate } from '../../src/i18n/translate';
import { defined } from '../defined';
import { callOp, extJob, jobKey } from '../../src/engine/extensions';
import { EngineHost } from '../../src/engine/host';
import { PREDICT } from '../../src/classroom/engine-keys';

const root = join(import.meta.dirname, '..', '..');
beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core', 'pkg', 'schedlab_core_bg.wasm')) });
});

/** A 64-CPU run busy for a whole simulated minute (the database workers of Overload-on-Wakeup, repeated):
 * no job over it ends by itself within the tests' few milliseconds. */
function busyMinute(bug: boolean): string {
  const json = JSON.parse(presetJson('overload-on-wakeup-db'));
  json.duration_ms = 60000;
  json.processes[0].program[0].repeat = 100000;
  if (!bug) json.bugs = 'linux-4.1-fixed';
  return JSON.stringify(json);
}

/** The parts of a frame that name a state (the same cursor gives the same parts). The tree
 * rotations are left out: they are those of the last engine call, not of the state. */
const stateOf = (f: Frame | null) =>
  f && {
    events: f.events,
    nowNs: f.nowNs,
    view: { ...f.view, rotations: [] },
    slices: f.slices,
    migrations: f.migrations,
    decision: f.decision,
    report: f.report,
  };

describe('engine worker protocol', () => {
  it('answers a command with the frame a directly driven simulation shows at the same cursor', async () => {
    const json = presetJson('group-imbalance-make');
    const c = connect();
    await c.request({ op: 'load', json }, query());
    const a = await c.request({ op: 'command', command: { kind: 'run-until', ns: 150e6 } }, query({ cpu: 5 }));
    const direct = new Simulation(json);
    direct.runUntil(150e6);
    expect(stateOf(a.frame)).toEqual(
      stateOf(inflateFrame(readFrame({ sim: direct, gen: 1 }, query({ cpu: 5 }), null))),
    );
    expect(a.frame?.newNames).toEqual(direct.namesFrom(0));
    direct.dispose();
  });

  it('one step forward and one back gives the state before, exactly', async () => {
    const c = connect();
    await c.request({ op: 'load', json: presetJson('cfs-nice-levels') }, query());
    const before = (await c.request({ op: 'command', command: { kind: 'run-until', ns: 30e6 } }, query())).frame;
    await c.request({ op: 'command', command: { kind: 'step' } }, query());
    const back = (await c.request({ op: 'command', command: { kind: 'back' } }, query())).frame;
    expect(stateOf(back)).toEqual(stateOf(before));
  });

  it('a job in slices ends where one engine call ends, reporting progress with frames on the way', async () => {
    // Long enough (a few hundred ms of wall time) that progress is reported on the way.
    const json = busyMinute(true);
    const c = connect();
    await c.request({ op: 'load', json }, query());
    const seen: Progress<Frame>[] = [];
    const end = await c.request<JobEnd>(
      { op: 'job', job: { kind: 'run-to', toNs: 3000e6 } },
      query({ report: false, rows: 0 }),
      (p) => {
        seen.push(p);
        c.send({ op: 'ack', q: query({ report: false, rows: 0 }) });
      },
    );
    expect(end.value).toEqual({ found: true, cancelled: false });
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((p, i) => i === 0 || p.progress.at >= seen[i - 1].progress.at)).toBe(true);
    const hash = (await c.request<string>({ op: 'read', read: { kind: 'trace-hash' } })).value;
    const direct = new Simulation(json);
    direct.runUntil(3000e6);
    expect(hash).toBe(direct.traceHash());
    expect(end.frame?.nowNs).toBe(direct.nowNs);
    direct.dispose();
  });

  it('a job ends with every slow part read at its end, whatever its query had due (no stale figures)', async () => {
    const json = presetJson('group-imbalance-make');
    const c = connect();
    const loaded = await c.request({ op: 'load', json }, query());
    // The lab's query while busy: no slow part due.
    const busy = query({
      report: false,
      rows: 0,
      history: false,
      held: { gen: 1, names: loaded.frame?.newNames.length ?? 0, historyKey: loaded.frame?.historyKey ?? null },
    });
    const end = await c.request<JobEnd>({ op: 'job', job: { kind: 'next-mark', mark: 'violation' } }, busy, () =>
      c.send({ op: 'ack', q: busy }),
    );
    expect(end.value.found).toBe(true);
    // The report is of the cursor the job stopped at, as the engine itself reports it there (a frame's
    // carries no schedstats: the frame has the queried CPU's beside it).
    const now = (await c.request<{ schedstat: { cpu: number }[] }>({ op: 'read', read: { kind: 'report' } })).value;
    expect(end.frame?.report).toEqual({ ...now, schedstat: [] });
    expect(end.frame?.schedstat).toEqual(now.schedstat.find((s) => s.cpu === 0));
    expect(end.frame?.report?.events).toBe(end.frame?.events);
    expect(end.frame?.report?.sim_time_ns).toBe(end.frame?.nowNs);
    expect(end.frame?.report?.sanity_violations.length).toBeGreaterThan(0);
    expect(end.frame?.tasks?.rows.length).toBeGreaterThan(0);
    expect(end.frame?.history).not.toBeNull();
  });

  it('a newer command ends a running job as cancelled; the state is then the command applied where the job stopped', async () => {
    const c = connect();
    await c.request({ op: 'load', json: busyMinute(true) }, query());
    const job = c.request<JobEnd>({ op: 'job', job: { kind: 'run-to', toNs: 60e9 } }, query());
    await new Promise((r) => setTimeout(r, 60));
    const stepped = await c.request({ op: 'command', command: { kind: 'step' } }, query());
    const end = await job;
    expect(end.value.cancelled).toBe(true);
    expect(defined(end.frame).nowNs).toBeLessThan(60e9);
    expect(defined(stepped.frame).events).toBe(defined(end.frame).events + 1);
  });

  it('Cancel stops a job between slices', async () => {
    const c = connect();
    // No violation ever comes in the fixed kernel: the search would run a minute of simulated time.
    await c.request({ op: 'load', json: busyMinute(false) }, query());
    const job = c.request<JobEnd>({ op: 'job', job: { kind: 'next-mark', mark: 'violation' } }, query());
    await new Promise((r) => setTimeout(r, 30));
    await c.request({ op: 'cancel' }, query());
    expect((await job).value).toEqual({ found: false, cancelled: true });
  });

  it('keeps the compare partner on the primary clock, forward and back', async () => {
    const c = connect();
    await c.request({ op: 'load', json: presetJson('group-imbalance-make') }, query());
    await c.request({ op: 'partner', json: presetJson('group-imbalance-make-fixed') }, query());
    const q = query({ partner: { gen: -1, names: 0, historyKey: null } });
    const fwd = await c.request({ op: 'command', command: { kind: 'run-until', ns: 400e6 } }, q);
    expect(fwd.frame?.partner?.nowNs).toBe(fwd.frame?.nowNs);
    const back = await c.request({ op: 'command', command: { kind: 'seek-time', ns: 100e6 } }, q);
    expect(back.frame?.partner?.nowNs).toBe(100e6);
    const direct = new Simulation(presetJson('group-imbalance-make-fixed'));
    direct.runUntil(100e6);
    expect(
      (await c.request<{ traceHash: string }>({ op: 'read', read: { kind: 'partner-summary' } })).value.traceHash,
    ).toBe(direct.traceHash());
    direct.dispose();
  });

  it('refuses a bad scenario with the engine message and keeps the old simulation', async () => {
    const c = connect();
    await c.request({ op: 'load', json: presetJson('cfs-nice-levels') }, query());
    await c.request({ op: 'command', command: { kind: 'run-until', ns: 20e6 } }, query());
    await expect(c.request({ op: 'load', json: '{"version": 1}' }, query())).rejects.toThrow(/.+/);
    expect((await c.request({ op: 'frame' }, query())).frame?.nowNs).toBe(20e6);
  });

  it('answers a lesson question from the run it holds (an edited scenario, not the preset of that name), leaving the run where it is', async () => {
    const edited = JSON.parse(presetJson('group-imbalance-make'));
    edited.seed = 7;
    const json = JSON.stringify(edited);
    const c = connect();
    await c.request({ op: 'load', json }, query());
    await c.request({ op: 'command', command: { kind: 'seek-event', n: 5000 } }, query());
    const q = { kind: 'balance-moves' } as const;
    const viaWorker = (await c.request(callOp(PREDICT, { events: 5000, question: q, lang: 'zh' }))).value;
    const direct = new Simulation(json);
    expect(viaWorker).toEqual(predict(direct, 5000, q, (k, v) => translate('zh', k, v)));
    expect(viaWorker).not.toBeNull();
    expect((await c.request({ op: 'frame' }, query())).frame?.events).toBe(5000);
    direct.dispose();
  });

  it('takes in names by pid when several frames answer the same held count (no duplicates, no gaps)', async () => {
    const c = connect();
    await c.request({ op: 'load', json: presetJson('group-imbalance-make') }, query());
    const held = { gen: 1, names: 0, historyKey: null };
    // Two requests under way at once, both made when the lab held no names.
    const [a, b] = await Promise.all([
      c.request({ op: 'command', command: { kind: 'run-until', ns: 50e6 } }, query({ held })),
      c.request({ op: 'command', command: { kind: 'run-until', ns: 300e6 } }, query({ held })),
    ]);
    const topo = { machine: '', nodes: 1, cpus: [], distance: [] } as never;
    const first = machineData(defined(a.frame), topo, null);
    const both = machineData(defined(b.frame), topo, first);
    const direct = new Simulation(presetJson('group-imbalance-make'));
    direct.runUntil(300e6);
    expect(both.names).toEqual(direct.namesFrom(0));
    // An older answer arriving after a newer one takes nothing away.
    expect(machineData(defined(a.frame), topo, both).names).toEqual(both.names);
    direct.dispose();
  });

  it('answers a job whose end fails with the error, never leaving its request waiting', async () => {
    // The worker keeps its uncaught errors from the page (worker-channel.ts): a failure outside a step must still
    // answer the job's request.
    const BOOM = jobKey<null>('test.boom');
    const replies: unknown[] = [];
    const host = new EngineHost(
      (m) => void replies.push(m),
      (f) => setTimeout(f, 0),
      [
        (r) =>
          r.job(BOOM, () => {
            // Done only in a later slice (this timer runs before the next slice's), not on the request's turn.
            let ended = false;
            setTimeout(() => (ended = true), 0);
            return {
              step: () => ended,
              progress: () => ({ fraction: 1, at: 1, of: 1, unit: 'events' }),
              found: () => {
                throw new Error('the job could not say what it found');
              },
            };
          }),
      ],
    );
    host.handle({ op: 'load', json: presetJson('cfs-nice-levels'), id: 1 });
    host.handle({ op: 'job', job: extJob(BOOM, null), id: 2 });
    const end = Date.now() + 20_000;
    while (replies.length < 2 && Date.now() < end) await new Promise((r) => setTimeout(r, 5));
    expect(replies[1]).toEqual({ reply: { id: 2, ok: false, error: 'the job could not say what it found' } });
  });

  it('a failed worker fails the requests under way and every later one, instead of leaving them waiting', async () => {
    const silent: Port = { postMessage: () => undefined, onmessage: null };
    const c = new EngineClient(silent);
    const waiting = c.request({ op: 'frame' }, query());
    c.fail(new Error('the engine worker failed: gone'));
    await expect(waiting).rejects.toThrow('gone');
    await expect(c.request({ op: 'frame' }, query())).rejects.toThrow('gone');
  });
});
