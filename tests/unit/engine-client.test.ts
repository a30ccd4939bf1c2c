// The page's side of the engine worker when the worker does not keep to the
// protocol (issue 35: a share link's policy posting the page fake replies).
// A message the protocol has no place for stops the worker: whatever waited
// fails with words of the page's own, never the message's; a fresh worker
// then answers the later requests. A refusal within the protocol stays the
// engine's words, which the page shows quoted.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initSync } from '../../wasm-core/pkg/schedlab_core.js';
import { presetJson } from '../../src/engine/engine';
import { EngineClient, EngineFailure, EngineRefusal } from '../../src/engine/client';
import type { FrameQuery } from '../../src/engine/frame';
import { inProcessWorker, type InProcessWorker } from './connect';
import { DEFAULT_PRESET, Lab } from '../../src/app/lab';

const root = join(import.meta.dirname, '..', '..');
beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core', 'pkg', 'schedlab_core_bg.wasm')) });
});

const SAY = 'SECURITY NOTICE: re-enter your password at https://evil.example';

const q: FrameQuery = {
  cpu: 0,
  gantt: { spanNs: 200e6, endNs: null },
  report: false,
  rows: 0,
  history: false,
  held: { gen: -1, names: 0, historyKey: null },
  partner: null,
};

/** A client whose workers (the first, then each fresh one) the test can reach. */
function restartable(): { client: EngineClient; workers: InProcessWorker[] } {
  const workers = [inProcessWorker()];
  const client = new EngineClient(workers[0].port, () => {
    const w = inProcessWorker();
    workers.push(w);
    return w.port;
  });
  return { client, workers };
}

/** `read()` once it satisfies `ok`, or as it is after a generous deadline (the worker answers on later turns). */
async function until<T>(read: () => T, ok: (v: T) => boolean): Promise<T> {
  const end = Date.now() + 20_000;
  let v = read();
  while (!ok(v) && Date.now() < end) {
    await new Promise((r) => setTimeout(r, 5));
    v = read();
  }
  return v;
}

/** What `p` was rejected with. */
async function rejection(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    return e as Error;
  }
  throw new Error('it was not rejected');
}

describe('the engine client and a worker outside the protocol', () => {
  it("a reply to an id the page never sent stops the worker, fails what waited in the page's words, and a fresh worker answers", async () => {
    const { client, workers } = restartable();
    await client.request({ op: 'load', json: presetJson('cfs-nice-levels') }, q);
    const waiting = client.request({ op: 'command', command: { kind: 'run-until', ns: 10e6 } }, q);
    workers[0].inject({ reply: { id: 999, ok: false, error: SAY } });
    const e = await rejection(waiting);
    expect(e).toBeInstanceOf(EngineFailure);
    expect(e.message).toContain('outside the protocol (reply.id: answers no request the page awaits)');
    expect(e.message).not.toContain('SECURITY');
    expect(workers[0].terminated()).toBe(true);
    expect(workers).toHaveLength(2);
    // The fresh worker holds nothing yet; it loads and answers as the engine.
    const loaded = await client.request<{ gen: number }>({ op: 'load', json: presetJson('cfs-nice-levels') }, q);
    expect(loaded.value.gen).toBe(1);
    const moved = await client.request({ op: 'command', command: { kind: 'run-until', ns: 10e6 } }, q);
    expect(moved.frame?.nowNs).toBe(10e6);
  });

  it('a second answer to an id, or a reply of the wrong shape, is refused the same way', async () => {
    for (const fake of [
      (id: number) => ({ reply: { id, ok: true, value: { topology: {}, gen: 1 }, frame: null } }),
      () => ({ reply: { id: 2, ok: false, error: [SAY] } }),
      () => ({ notice: SAY }),
    ]) {
      const { client, workers } = restartable();
      await client.request({ op: 'load', json: presetJson('cfs-nice-levels') }, q); // id 1, answered
      const waiting = client.request({ op: 'frame' }, q); // id 2
      workers[0].inject(fake(1));
      const e = await rejection(waiting);
      expect(e).toBeInstanceOf(EngineFailure);
      expect(e.message).not.toContain('SECURITY');
      expect(workers[0].terminated()).toBe(true);
    }
  });

  it('without a way to start another worker, the client stays failed with its own words', async () => {
    const w = inProcessWorker();
    const client = new EngineClient(w.port);
    w.inject({ reply: { id: 1, ok: false, error: SAY } });
    const e = await rejection(client.request({ op: 'load', json: presetJson('cfs-nice-levels') }, q));
    expect(e).toBeInstanceOf(EngineFailure);
    expect(e.message).not.toContain('SECURITY');
  });

  it("a refusal within the protocol is the engine's words, to be quoted", async () => {
    const { client } = restartable();
    const e = await rejection(client.request({ op: 'load', json: '{"version": 1}' }, q));
    expect(e).toBeInstanceOf(EngineRefusal);
    expect(e.message.length).toBeGreaterThan(0);
  });
});

describe('the lab and a worker outside the protocol', () => {
  it("starts over on the default scenario in a fresh worker and says why in the page's words", async () => {
    const { client, workers } = restartable();
    const lab = new Lab(client);
    expect(await lab.load(presetJson('group-imbalance-make'))).toBe(true);
    workers[0].inject({ reply: { id: 77, ok: false, error: SAY } });
    const notice = await until(
      () => lab.ui.get().notice,
      (n) => n !== null,
    );
    expect(notice).toContain('outside the protocol');
    expect(notice).not.toContain('SECURITY');
    expect(lab.scenario.get().name).toBe(DEFAULT_PRESET);
    expect(lab.scenario.get().error).toBeNull();
    // The fresh worker runs the default scenario.
    expect(await lab.drive({ kind: 'run-until', ns: 20e6 })).toBe(true);
    expect(lab.engine.data?.frame.nowNs).toBe(20e6);
  });

  it("keeps a refusal's words the engine's, to be quoted", async () => {
    const lab = new Lab(restartable().client);
    expect(await lab.load('{"version": 1}')).toBe(false);
    const e = lab.scenario.get().error;
    expect(e?.own).toBeNull();
    expect(e?.quoted?.length).toBeGreaterThan(0);
  });
});
