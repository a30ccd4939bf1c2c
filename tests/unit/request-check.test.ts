// The engine worker's check of what it receives: every request the page
// sends passes as it is; anything else (an unknown op or kind, a field of the
// wrong type, a NaN, a field the request does not have, not an object at all)
// is refused with the path of what does not fit.
import { describe, expect, it } from 'vitest';
import { checkRequest, ProtocolError, replyId } from '../../src/engine/request-check';
import type { FrameQuery } from '../../src/engine/frame';
import type { Request } from '../../src/engine/protocol';

const q: FrameQuery = {
  cpu: 3,
  gantt: { spanNs: 200e6, endNs: null },
  report: true,
  rows: 300,
  history: false,
  held: { gen: -1, names: 0, historyKey: null },
  partner: { gen: 2, names: 10, historyKey: 'h1' },
};

const valid: Request[] = [
  { op: 'load', json: '{}', id: 1, q },
  { op: 'open-trace', name: 't.txt', text: 'x', id: 2 },
  { op: 'open-trace', name: 't.txt', file: new Blob(['x']), id: 2, q: undefined },
  { op: 'partner', json: null, id: 3 },
  { op: 'command', command: { kind: 'step' }, id: 4, q },
  { op: 'command', command: { kind: 'run-until', ns: 1e9, maxMs: 40 }, id: 5, q },
  { op: 'command', command: { kind: 'seek-event', n: 40 }, id: 6 },
  { op: 'command', command: { kind: 'seek-time', ns: 1.5e6 }, id: 7 },
  { op: 'command', command: { kind: 'step-mark', mark: 'violation' }, id: 8 },
  { op: 'command', command: { kind: 'ext', name: 'lesson.go', arg: { any: ['thing'] } }, id: 9 },
  { op: 'job', job: { kind: 'run-to', toNs: 5e9 }, id: 10, q },
  { op: 'job', job: { kind: 'prev-mark', mark: 'tick' }, id: 11 },
  { op: 'job', job: { kind: 'ext', name: 'classroom.predict', arg: null }, id: 12 },
  { op: 'cancel', id: 13 },
  { op: 'ack', q, id: 0 },
  { op: 'frame', id: 14, q: { ...q, gantt: { spanNs: 1e6, endNs: 5e6 }, partner: null } },
  { op: 'read', read: { kind: 'view' }, id: 15 },
  { op: 'read', read: { kind: 'migrations', sinceNs: 0, n: 100 }, id: 16 },
  { op: 'read', read: { kind: 'latency-cdfs', points: 64 }, id: 17 },
  { op: 'files', id: 18 },
  { op: 'call', name: 'share.cursor', arg: 7, id: 19 },
];

/** The refusal's message for `data`. */
function refusal(data: unknown): string {
  try {
    checkRequest(data);
  } catch (e) {
    expect(e).toBeInstanceOf(ProtocolError);
    return (e as Error).message;
  }
  throw new Error(`accepted ${JSON.stringify(data)}`);
}

describe('checkRequest', () => {
  it('passes every kind of request the page sends, as it is', () => {
    for (const r of valid) expect(checkRequest(r), JSON.stringify(r)).toBe(r);
  });

  it('refuses what is not a request, saying what does not fit', () => {
    expect(refusal(null)).toMatch(/^op: must be one of load, /);
    expect(refusal('load')).toMatch(/^op: must be one of/);
    expect(refusal([])).toMatch(/^op: must be one of/);
    expect(refusal({ op: 'eval', id: 1 })).toMatch(/^op: must be one of .* \(got "eval"\)$/);
    expect(refusal({ op: 'load', id: 1 })).toBe('json: must be a string (got undefined)');
    expect(refusal({ op: 'load', json: '{}' })).toBe('id: must be an integer from 0 (got undefined)');
    expect(refusal({ op: 'load', json: '{}', id: -1 })).toBe('id: must be an integer from 0 (got -1)');
    expect(refusal({ op: 'load', json: '{}', id: 1, extra: 1 })).toBe('the request: has no field "extra"');
    expect(refusal({ op: 'command', command: { kind: 'run-until', ns: NaN }, id: 1 })).toBe(
      'command.ns: must be a finite number (got NaN)',
    );
    expect(refusal({ op: 'command', command: { kind: 'seek-event', n: 1.5 }, id: 1 })).toBe(
      'command.n: must be an integer from 0 (got 1.5)',
    );
    expect(refusal({ op: 'command', command: { kind: 'step', n: 1 }, id: 1 })).toBe('command: has no field "n"');
    expect(refusal({ op: 'command', command: { kind: 'step-mark', mark: 'x' }, id: 1 })).toMatch(/^command\.mark:/);
    expect(refusal({ op: 'command', command: null, id: 1 })).toMatch(/^command\.kind: must be one of/);
    expect(refusal({ op: 'job', job: { kind: 'ext', arg: 1 }, id: 1 })).toBe(
      'job.name: must be a string (got undefined)',
    );
    expect(refusal({ op: 'read', read: { kind: 'decisions', n: Infinity }, id: 1 })).toBe(
      'read.n: must be an integer from 0 (got Infinity)',
    );
    expect(refusal({ op: 'open-trace', name: 'x', file: 'not a file', id: 1 })).toBe(
      'file: must be a file (got "not a file")',
    );
    expect(refusal({ op: 'partner', json: 5, id: 1 })).toBe('json: must be a string (got 5)');
    expect(refusal({ op: 'call', arg: 1, id: 1 })).toBe('name: must be a string (got undefined)');
  });

  it('checks the frame query too, an ack needing one', () => {
    expect(refusal({ op: 'ack', id: 0 })).toBe('q: must be an object (got undefined)');
    expect(refusal({ op: 'frame', id: 1, q: { ...q, cpu: -1 } })).toBe('q.cpu: must be an integer from 0 (got -1)');
    expect(refusal({ op: 'frame', id: 1, q: { ...q, gantt: { spanNs: 1, endNs: 'x' } } })).toBe(
      'q.gantt.endNs: must be a finite number (got "x")',
    );
    expect(refusal({ op: 'frame', id: 1, q: { ...q, held: { gen: 0, names: 0 } } })).toBe(
      'q.held.historyKey: must be a string (got undefined)',
    );
    expect(refusal({ op: 'frame', id: 1, q: { ...q, partner: [] } })).toBe(
      'q.partner: must be an object (got an array)',
    );
  });

  it('answers a refused message on its own id when it has one', () => {
    expect(replyId({ op: 'eval', id: 7 })).toBe(7);
    expect(replyId({ id: 'x' })).toBe(0);
    expect(replyId(null)).toBe(0);
  });
});
