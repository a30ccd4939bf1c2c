// Checks a message the page receives from the engine worker against the
// protocol (protocol.ts) before the client acts on it: the mirror of
// request-check.ts. The worker runs a share link's policy, someone else's
// code, in its own realm; were it ever to post, its message must not pass for
// the engine's. So a message must be a Reply or a Progress of the right shape,
// answer a request the page is waiting for (a reply only once, progress only
// for a job), carry a value of the kind that request is answered with, and a
// frame of the frame's shape. Deeper parts (the frame header's views, a
// report) are the engine's data, drawn as text and numbers, and checked only
// for their kind.
import type { PostedFrame, PostedMachine } from './frame';
import type { FrameHeader } from './generated/engine';
import type { JobProgress } from './jobs';
import type { LaneRange } from './lane-range';
import type { FromWorker, Op, Progress, Read, Reply } from './protocol';
import { boolean, fail, integer, number, object, oneOf, ProtocolError, string, type Obj } from './protocol-fields';

/** The request the page sent with `id` and still awaits an answer to, if any. */
export type Awaited = (id: number) => Op | undefined;

/** A misfit that has no value to show. */
function refuse(where: string): never {
  throw new ProtocolError(where, where);
}

const nullable = <T>(v: unknown, check: (v: unknown) => T): T | null => (v === null ? null : check(v));

function array(v: unknown, path: string): unknown[] {
  return Array.isArray(v) ? v : fail(path, 'an array', v);
}

function plain(v: unknown, path: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, 'an object', v);
  return v as Obj;
}

function typed<T>(v: unknown, path: string, kind: new (n: number) => T): T {
  return v instanceof kind ? v : fail(path, `a ${kind.name}`, typeof v);
}

/** Every field of a frame header, so that the list cannot drift from the generated type. */
const HEADER_FIELDS: Record<keyof FrameHeader, true> = {
  events: true,
  now_ns: true,
  duration_ns: true,
  finished: true,
  detail: true,
  rotations: true,
  migrations: true,
  placement: true,
  decision: true,
  new_names: true,
  report: true,
  cdfs: true,
  history_key: true,
  history: true,
  lanes: true,
};

function header(v: unknown, path: string): FrameHeader {
  const h = object(v, path, Object.keys(HEADER_FIELDS));
  integer(h.events, `${path}.events`, 0);
  number(h.now_ns, `${path}.now_ns`);
  number(h.duration_ns, `${path}.duration_ns`);
  boolean(h.finished, `${path}.finished`);
  for (const k of ['detail', 'placement', 'decision', 'report', 'lanes'] as const)
    nullable(h[k], (x) => plain(x, `${path}.${k}`));
  array(h.rotations, `${path}.rotations`);
  array(h.migrations, `${path}.migrations`);
  array(h.new_names, `${path}.new_names`).forEach((n, i) => string(n, `${path}.new_names[${i}]`));
  nullable(h.cdfs, (x) => array(x, `${path}.cdfs`));
  string(h.history_key, `${path}.history_key`);
  nullable(h.history, (x) => {
    const s = object(x, `${path}.history`, ['width_ns', 'buckets']);
    number(s.width_ns, `${path}.history.width_ns`);
    integer(s.buckets, `${path}.history.buckets`, 0);
  });
  return h as unknown as FrameHeader;
}

function machine(v: unknown, path: string): PostedMachine {
  const m = object(v, path, ['gen', 'namesFrom', 'header', 'cpus', 'slices', 'history']);
  integer(m.gen, `${path}.gen`, 0);
  integer(m.namesFrom, `${path}.namesFrom`, 0);
  header(m.header, `${path}.header`);
  typed(m.cpus, `${path}.cpus`, Float64Array);
  typed(m.slices, `${path}.slices`, Float64Array);
  nullable(m.history, (x) => {
    const p = `${path}.history`;
    const h = object(x, p, ['widthNs', 'buckets', 'nrRunning', 'load', 'migrations', 'wasted']);
    number(h.widthNs, `${p}.widthNs`);
    integer(h.buckets, `${p}.buckets`, 0);
    typed(h.nrRunning, `${p}.nrRunning`, Float32Array);
    typed(h.load, `${p}.load`, Float32Array);
    typed(h.migrations, `${p}.migrations`, Uint32Array);
    typed(h.wasted, `${p}.wasted`, Float64Array);
  });
  return m as unknown as PostedMachine;
}

function frame(v: unknown, path: string): PostedFrame {
  const f = object(v, path, ['main', 'lanes', 'partner']);
  machine(f.main, `${path}.main`);
  const l = object(f.lanes, `${path}.lanes`, ['lo', 'hi'] satisfies (keyof LaneRange)[]);
  integer(l.lo, `${path}.lanes.lo`, 0);
  integer(l.hi, `${path}.lanes.hi`, 0);
  nullable(f.partner, (x) => machine(x, `${path}.partner`));
  return f as unknown as PostedFrame;
}

/** What a load (or a partner's build) answers. */
function loaded(v: unknown, path: string): void {
  const o = object(v, path, ['topology', 'gen', 'trace']);
  plain(o.topology, `${path}.topology`);
  integer(o.gen, `${path}.gen`, 0);
  if (o.trace !== undefined) plain(o.trace, `${path}.trace`);
}

/** The reads answered with text; the others with a structure of the engine's (partner-summary: or null). */
const TEXT_READS: readonly Read['kind'][] = ['view', 'trace-hash', 'metrics-csv', 'real-report'];

/** Checks `v` is what `asked` is answered with (a feature's call: its handler's answer, which its caller reads). */
function value(v: unknown, asked: Op, path: string): void {
  switch (asked.op) {
    case 'load':
    case 'open-trace':
      return loaded(v, path);
    case 'partner':
      return void nullable(v, (x) => loaded(x, path));
    case 'command':
      return void boolean(object(v, path, ['found']).found, `${path}.found`);
    case 'job': {
      const o = object(v, path, ['found', 'cancelled']);
      boolean(o.found, `${path}.found`);
      return void boolean(o.cancelled, `${path}.cancelled`);
    }
    case 'cancel':
    case 'frame':
    case 'ack':
      if (v !== null) fail(path, 'null', typeof v);
      return;
    case 'read':
      if (TEXT_READS.includes(asked.read.kind)) return void string(v, path);
      if (asked.read.kind === 'partner-summary' && v === null) return;
      if (typeof v !== 'object' || v === null) fail(path, 'an object or an array', typeof v);
      return;
    case 'files':
      return array(v, path).forEach((f, i) => string(f, `${path}[${i}]`));
    case 'call':
      return;
  }
}

function progress(v: unknown, awaited: Awaited): Progress {
  const p = object(v, 'progress', ['id', 'progress', 'frame']);
  const id = integer(p.id, 'progress.id', 1);
  if (awaited(id)?.op !== 'job') refuse('progress.id: not a job the page awaits');
  const j = object(p.progress, 'progress.progress', ['fraction', 'at', 'of', 'unit'] satisfies (keyof JobProgress)[]);
  for (const k of ['fraction', 'at', 'of'] as const) number(j[k], `progress.progress.${k}`);
  oneOf(j.unit, 'progress.progress.unit', ['ns', 'events']);
  nullable(p.frame, (x) => frame(x, 'progress.frame'));
  return p as unknown as Progress;
}

function reply(v: unknown, awaited: Awaited): Reply {
  const ok = boolean(plain(v, 'reply').ok, 'reply.ok');
  const r = object(v, 'reply', ok ? ['id', 'ok', 'value', 'frame'] : ['id', 'ok', 'error']);
  const id = integer(r.id, 'reply.id', 1);
  const asked = awaited(id);
  // An id the page never sent, or one already answered (the client forgets an id once it is answered).
  if (!asked) refuse('reply.id: answers no request the page awaits');
  if (!ok) {
    string(r.error, 'reply.error');
  } else {
    value(r.value, asked, 'reply.value');
    nullable(r.frame, (x) => frame(x, 'reply.frame'));
  }
  return r as unknown as Reply;
}

/** `data` as a message from the worker answering what the page awaits; throws a ProtocolError saying what does not fit. */
export function checkFromWorker(data: unknown, awaited: Awaited): FromWorker {
  const m = plain(data, 'the message');
  if ('progress' in m) return { progress: progress(object(m, 'the message', ['progress']).progress, awaited) };
  return { reply: reply(object(m, 'the message', ['reply']).reply, awaited) };
}
