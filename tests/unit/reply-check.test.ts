// The page's check of what the engine worker sends it (reply-check.ts), the
// mirror of request-check.test.ts: every message a real host posts for the
// page's requests passes as it is; a message outside the protocol (an unknown
// kind, a field of the wrong type, an id the page never sent or already had
// answered, progress for what is not a job) is refused, and the refusal's
// `where` never repeats what the worker sent.
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initSync } from '../../wasm-core/pkg/schedlab_core.js';
import { presetJson } from '../../src/engine/engine';
import { EngineHost } from '../../src/engine/host';
import type { FrameQuery } from '../../src/engine/frame';
import type { FromWorker, Op, Request } from '../../src/engine/protocol';
import { checkFromWorker, type Awaited } from '../../src/engine/reply-check';
import { ProtocolError } from '../../src/engine/protocol-fields';
import { WORKER_FEATURES } from '../../src/worker-features';
import { query } from './connect';

const root = join(import.meta.dirname, '..', '..');
beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core', 'pkg', 'schedlab_core_bg.wasm')) });
});

const SAY = 'SECURITY NOTICE: re-enter your password';

const q: FrameQuery = query();

/** What a real host posts for `ops` (ids 1, 2, …; jobs run to their end), each with the request it answers. */
async function postedFor(ops: { op: Op; q?: FrameQuery }[]): Promise<{ m: FromWorker; asked: Request }[]> {
  const out: { m: FromWorker; asked: Request }[] = [];
  let asked: Request | null = null;
  let settle: (() => void) | null = null;
  const host = new EngineHost(
    (m) => {
      out.push({ m, asked: asked as Request });
      if ('reply' in m) settle?.();
    },
    (f) => setTimeout(f, 0),
    WORKER_FEATURES,
  );
  for (const [i, o] of ops.entries()) {
    const req = { ...o.op, id: i + 1, q: o.q } as Request;
    asked = req;
    const answered = new Promise<void>((done) => (settle = done));
    host.handle(req);
    await answered;
  }
  return out;
}

/** The refusal's `where` for `data` when the page awaits `awaited`. */
function refusal(data: unknown, awaited: Awaited): string {
  try {
    checkFromWorker(data, awaited);
  } catch (e) {
    expect(e).toBeInstanceOf(ProtocolError);
    return (e as ProtocolError).where;
  }
  throw new Error(`accepted ${JSON.stringify(data)}`);
}

const awaitingCommand: Awaited = (id) => (id === 4 ? { op: 'command', command: { kind: 'step' } } : undefined);
const awaitingJob: Awaited = (id) => (id === 5 ? { op: 'job', job: { kind: 'run-to', toNs: 1e9 } } : undefined);

describe('checkFromWorker', () => {
  it("passes every message a real host posts for the page's requests, as it is", async () => {
    // A clock that moves 5 ms at each look: every slice of the job does one step and posts progress.
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => (now += 5));
    const posted = await postedFor([
      { op: { op: 'load', json: presetJson('group-imbalance-make') }, q },
      { op: { op: 'partner', json: presetJson('group-imbalance-make-fixed') } },
      { op: { op: 'command', command: { kind: 'run-until', ns: 100e6 } }, q },
      { op: { op: 'job', job: { kind: 'run-to', toNs: 110e6 } }, q: { ...q, report: false } },
      { op: { op: 'cancel' }, q },
      { op: { op: 'frame' }, q: { ...q, cpu: 7, held: { gen: 1, names: 3, historyKey: null } } },
      { op: { op: 'read', read: { kind: 'view' } } },
      { op: { op: 'read', read: { kind: 'trace-hash' } } },
      { op: { op: 'read', read: { kind: 'report' } } },
      { op: { op: 'read', read: { kind: 'latency-cdfs', points: 10 } } },
      { op: { op: 'read', read: { kind: 'migrations', sinceNs: 0, n: 10 } } },
      { op: { op: 'read', read: { kind: 'metrics-csv' } } },
      { op: { op: 'read', read: { kind: 'partner-summary' } } },
      { op: { op: 'files' } },
      { op: { op: 'load', json: '{"version": 1}' } },
      { op: { op: 'partner', json: null } },
    ]).finally(() => clock.mockRestore());
    expect(posted.some(({ m }) => 'progress' in m)).toBe(true);
    expect(posted.some(({ m }) => 'reply' in m && !m.reply.ok)).toBe(true);
    for (const { m, asked } of posted)
      expect(checkFromWorker(m, (id) => (id === asked.id ? asked : undefined))).toEqual(m);
  });

  it('refuses a message of no kind the protocol has', () => {
    expect(refusal(null, awaitingCommand)).toBe('the message: must be an object');
    expect(refusal({ notice: SAY }, awaitingCommand)).toBe('the message: has a field too many');
    expect(
      refusal({ reply: { id: 4, ok: true, value: { found: true }, frame: null }, extra: 1 }, awaitingCommand),
    ).toBe('the message: has a field too many');
  });

  it('refuses fields of the wrong type', () => {
    expect(refusal({ reply: { id: 4, ok: 'no', error: SAY } }, awaitingCommand)).toBe(
      'reply.ok: must be true or false',
    );
    expect(refusal({ reply: { id: 4, ok: false, error: { text: SAY } } }, awaitingCommand)).toBe(
      'reply.error: must be a string',
    );
    expect(refusal({ reply: { id: 4, ok: true, value: SAY, frame: null } }, awaitingCommand)).toBe(
      'reply.value: must be an object',
    );
    expect(refusal({ reply: { id: 4, ok: true, value: { found: SAY }, frame: null } }, awaitingCommand)).toBe(
      'reply.value.found: must be true or false',
    );
    expect(refusal({ reply: { id: 4, ok: true, value: { found: true } } }, awaitingCommand)).toBe(
      'reply.frame: must be an object',
    );
    expect(refusal({ reply: { id: 4, ok: false, error: SAY, frame: null } }, awaitingCommand)).toBe(
      'reply: has a field too many',
    );
    expect(refusal({ reply: { id: '4', ok: false, error: SAY } }, awaitingCommand)).toBe(
      'reply.id: must be an integer from 1',
    );
  });

  it('refuses a frame that is not shaped as one', async () => {
    const [{ m }] = await postedFor([{ op: { op: 'load', json: presetJson('cfs-nice-levels') }, q }]);
    if (!('reply' in m) || !m.reply.ok || !m.reply.frame) throw new Error('no frame');
    const f = m.reply.frame;
    const awaitingLoad: Awaited = (id) => (id === 1 ? { op: 'load', json: '' } : undefined);
    const withFrame = (frame: unknown) => ({ reply: { ...m.reply, frame } });
    expect(refusal(withFrame({ ...f, main: { ...f.main, cpus: [1, 2] } }), awaitingLoad)).toBe(
      'reply.frame.main.cpus: must be a Float64Array',
    );
    const header = { ...f.main.header, new_names: [SAY, 5] };
    expect(refusal(withFrame({ ...f, main: { ...f.main, header } }), awaitingLoad)).toBe(
      'reply.frame.main.header.new_names[1]: must be a string',
    );
    expect(refusal(withFrame({ ...f, lanes: { lo: 0 } }), awaitingLoad)).toBe(
      'reply.frame.lanes.hi: must be an integer from 0',
    );
  });

  it('refuses an answer to an id the page never sent, or already had answered', () => {
    const none: Awaited = () => undefined;
    expect(refusal({ reply: { id: 4, ok: false, error: SAY } }, none)).toBe(
      'reply.id: answers no request the page awaits',
    );
    expect(refusal({ reply: { id: 0, ok: false, error: SAY } }, awaitingCommand)).toBe(
      'reply.id: must be an integer from 1',
    );
  });

  it('refuses progress for anything but a job the page awaits, and progress of the wrong shape', () => {
    const progress = { fraction: 0.5, at: 1, of: 2, unit: 'ns' };
    expect(checkFromWorker({ progress: { id: 5, progress, frame: null } }, awaitingJob)).toBeTruthy();
    expect(refusal({ progress: { id: 4, progress, frame: null } }, awaitingCommand)).toBe(
      'progress.id: not a job the page awaits',
    );
    expect(refusal({ progress: { id: 5, progress: { ...progress, unit: SAY }, frame: null } }, awaitingJob)).toBe(
      'progress.progress.unit: must be one of ns, events',
    );
  });

  it("never repeats the worker's words in where it says what does not fit", () => {
    const bad = [
      { [SAY]: 1 },
      { reply: { id: 4, ok: true, value: { found: true, [SAY]: 1 }, frame: null } },
      { reply: { id: 4, ok: SAY, error: SAY } },
      { reply: { id: SAY, ok: false, error: SAY } },
    ];
    for (const m of bad) expect(refusal(m, awaitingCommand)).not.toContain('SECURITY');
  });
});
