// Checks a message the engine worker receives against the protocol
// (protocol.ts) before the host acts on it: its shape, every field's type,
// no field the request does not have. The page is the only sender meant, but
// whatever runs in the worker's realm (a share link's policy) or posts to it
// could send anything, and a NaN cursor or an unknown op must be refused with
// a reply that says why, never half-handled.
import type { FrameQuery, GanttWindow, Held } from './frame';
import type { Command, Read, Request } from './protocol';
import type { JobSpec } from './jobs';
import type { Mark } from './types';
import { boolean, fail, integer, number, object, oneOf, string, type Obj } from './protocol-fields';

/** Why a message is not a request: the reply's error. */
export { ProtocolError } from './protocol-fields';

const MARKS: readonly Mark[] = ['decision', 'migration', 'violation', 'tick'];

function held(v: unknown, path: string): Held {
  const o = object(v, path, ['gen', 'names', 'historyKey']);
  integer(o.gen, `${path}.gen`, -1);
  integer(o.names, `${path}.names`, 0);
  if (o.historyKey !== null) string(o.historyKey, `${path}.historyKey`);
  return o as unknown as Held;
}

function frameQuery(v: unknown, path: string): FrameQuery {
  const o = object(v, path, ['cpu', 'gantt', 'report', 'rows', 'history', 'held', 'partner']);
  integer(o.cpu, `${path}.cpu`, 0);
  const g = object(o.gantt, `${path}.gantt`, ['spanNs', 'endNs']) as Partial<GanttWindow>;
  number(g.spanNs, `${path}.gantt.spanNs`);
  if (g.endNs !== null) number(g.endNs, `${path}.gantt.endNs`);
  boolean(o.report, `${path}.report`);
  integer(o.rows, `${path}.rows`, 0);
  boolean(o.history, `${path}.history`);
  held(o.held, `${path}.held`);
  if (o.partner !== null) held(o.partner, `${path}.partner`);
  return o as unknown as FrameQuery;
}

/** A feature's handler by name; its argument is the handler's to check (extensions.ts). */
function ext(o: Obj, path: string): void {
  string(o.name, `${path}.name`);
}

function command(v: unknown, path: string): Command {
  const kind = oneOf((v as Obj | null)?.kind, `${path}.kind`, [
    'step',
    'tick',
    'back',
    'run-until',
    'seek-event',
    'seek-time',
    'step-mark',
    'ext',
  ]);
  const fields: Record<Command['kind'], string[]> = {
    step: [],
    tick: [],
    back: [],
    'run-until': ['ns', 'maxMs'],
    'seek-event': ['n'],
    'seek-time': ['ns'],
    'step-mark': ['mark'],
    ext: ['name', 'arg'],
  };
  const o = object(v, path, ['kind', ...fields[kind]]);
  if (kind === 'run-until' || kind === 'seek-time') number(o.ns, `${path}.ns`);
  if (kind === 'run-until' && o.maxMs !== undefined) number(o.maxMs, `${path}.maxMs`);
  if (kind === 'seek-event') integer(o.n, `${path}.n`, 0);
  if (kind === 'step-mark') oneOf(o.mark, `${path}.mark`, MARKS);
  if (kind === 'ext') ext(o, path);
  return o as unknown as Command;
}

function job(v: unknown, path: string): JobSpec {
  const kind = oneOf((v as Obj | null)?.kind, `${path}.kind`, ['run-to', 'next-mark', 'prev-mark', 'ext']);
  const fields: Record<JobSpec['kind'], string[]> = {
    'run-to': ['toNs'],
    'next-mark': ['mark'],
    'prev-mark': ['mark'],
    ext: ['name', 'arg'],
  };
  const o = object(v, path, ['kind', ...fields[kind]]);
  if (kind === 'run-to') number(o.toNs, `${path}.toNs`);
  if (kind === 'next-mark' || kind === 'prev-mark') oneOf(o.mark, `${path}.mark`, MARKS);
  if (kind === 'ext') ext(o, path);
  return o as unknown as JobSpec;
}

function read(v: unknown, path: string): Read {
  const fields: Record<Read['kind'], string[]> = {
    view: [],
    'trace-hash': [],
    report: [],
    'latency-cdfs': ['points'],
    decisions: ['n'],
    placements: ['n'],
    migrations: ['sinceNs', 'n'],
    'chrome-trace': [],
    'metrics-csv': [],
    'partner-summary': [],
    'real-report': [],
  };
  const kind = oneOf((v as Obj | null)?.kind, `${path}.kind`, Object.keys(fields) as Read['kind'][]);
  const o = object(v, path, ['kind', ...fields[kind]]);
  if (kind === 'latency-cdfs') integer(o.points, `${path}.points`, 0);
  if (kind === 'decisions' || kind === 'placements' || kind === 'migrations') integer(o.n, `${path}.n`, 0);
  if (kind === 'migrations') number(o.sinceNs, `${path}.sinceNs`);
  return o as unknown as Read;
}

/** Each op's own fields (every request also has `op`, `id` and may have `q`). */
const OP_FIELDS: Record<Request['op'], string[]> = {
  load: ['json'],
  'open-trace': ['name', 'file', 'text'],
  partner: ['json'],
  command: ['command'],
  job: ['job'],
  cancel: [],
  ack: [],
  frame: [],
  read: ['read'],
  files: [],
  call: ['name', 'arg'],
};

/** `data` as a Request; throws a ProtocolError saying what does not fit. */
export function checkRequest(data: unknown): Request {
  const op = oneOf((data as Obj | null)?.op, 'op', Object.keys(OP_FIELDS) as Request['op'][]);
  const o = object(data, 'the request', ['op', 'id', 'q', ...OP_FIELDS[op]]);
  integer(o.id, 'id', 0);
  if (o.q !== undefined || op === 'ack') frameQuery(o.q, 'q');
  switch (op) {
    case 'load':
      string(o.json, 'json');
      break;
    case 'open-trace':
      string(o.name, 'name');
      if (o.file !== undefined && !(typeof Blob === 'function' && o.file instanceof Blob))
        fail('file', 'a file', o.file);
      if (o.text !== undefined) string(o.text, 'text');
      break;
    case 'partner':
      if (o.json !== null) string(o.json, 'json');
      break;
    case 'command':
      command(o.command, 'command');
      break;
    case 'job':
      job(o.job, 'job');
      break;
    case 'read':
      read(o.read, 'read');
      break;
    case 'call':
      string(o.name, 'name');
      break;
    case 'cancel':
    case 'ack':
    case 'frame':
    case 'files':
      break;
  }
  return o as unknown as Request;
}

/** The id to answer a refused message with: its own when it has a usable one, else 0 (no request of the page's). */
export function replyId(data: unknown): number {
  const id = (data as Obj | null)?.id;
  return Number.isSafeInteger(id) && (id as number) >= 0 ? (id as number) : 0;
}
