// Share links: a scenario and what the sender was looking at, packed into the
// URL fragment as `s1.<base64url of raw deflate of a JSON payload>`. The
// fragment never reaches a server, and the `s1.` prefix names the format so a
// later one (`s2.`) can be told apart and refused with a clear message.
//
// Compression is fflate: small (a few KB in the bundle), dependency-free,
// maintained, and — unlike lz-string — it inflates as a stream, so a link
// that would inflate past MAX_INFLATED_BYTES (a decompression bomb) is
// stopped after a bounded amount of output instead of after all of it.
//
// The payload's shape is checked by hand below rather than with a JSON
// Schema validator: six fields do not justify shipping ajv (tens of KB, and
// code generation through `new Function`) to every visitor. The scenario
// inside is validated by the engine itself when the app loads it.
//
// Pure: no DOM, no engine. Every failure is a value, never an exception.
import { Inflate, deflateSync } from 'fflate';
import type { ColourBy } from '../views/topology/topology-view';
import { parsePartner } from '../compare/variants';

/** The format this build writes. */
export const SHARE_VERSION = 1;
export const SHARE_PREFIX = `s${SHARE_VERSION}.`;
/** Longest fragment made or accepted (characters). Stated in the refusal. */
export const MAX_FRAGMENT_CHARS = 32_000;
/** Largest payload an incoming fragment may inflate to (bytes). */
export const MAX_INFLATED_BYTES = 1 << 20;
/** Compressed bytes fed to the inflater per call, so its output per call stays near 256 KiB at most. */
const INFLATE_CHUNK = 256;
/** Same bound as the engine's MAX_CPUS. */
const MAX_CPU = 1023;
const MAX_LESSON_STEP = 10_000;
const MAX_LESSON_ID = 100;

/** The cursor: the engine's event count (several events share one ns) and the clock, which a run may move past its last event. */
export interface Cursor {
  event: number;
  ns: number;
}
/** A guided lesson's position (built elsewhere; round-tripped here). */
export interface LessonStep {
  id: string;
  step: number;
}
export interface ShareView {
  cursor: Cursor;
  cpu: number;
  colourBy: ColourBy;
  /** The compare partner as `partnerValue` writes it; '' for none. */
  partner: string;
  lesson: LessonStep | null;
}
export interface ShareState {
  /** The scenario JSON text, exactly as the sender's engine read it. */
  scenario: string;
  view: ShareView;
}

/** Why a link was refused: a message key (`share.problem.<code>`) and its values. */
export type ProblemCode =
  | 'not-a-link'
  | 'unknown-version'
  | 'too-long'
  | 'bad-encoding'
  | 'bad-compression'
  | 'too-large'
  | 'bad-text'
  | 'bad-json'
  | 'bad-field';
export interface ShareProblem {
  code: ProblemCode;
  vars: Record<string, string | number>;
}
export type EncodeResult = { ok: true; fragment: string } | { ok: false; reason: ShareProblem };
export type DecodeResult = { ok: true; state: ShareState } | { ok: false; reason: ShareProblem };

const problem = (
  code: ProblemCode,
  vars: Record<string, string | number> = {},
): { ok: false; reason: ShareProblem } => ({
  ok: false,
  reason: { code, vars },
});

/** Packs a state into a fragment (without '#'); refuses states that decode would refuse and links over the size limit. */
export function encodeShare(state: ShareState): EncodeResult {
  const bad = checkState(state);
  if (bad) return { ok: false, reason: bad };
  // Fixed key order, so equal states give equal links.
  const v = state.view;
  const payload = {
    scenario: state.scenario,
    view: {
      cursor: { event: v.cursor.event, ns: v.cursor.ns },
      cpu: v.cpu,
      colourBy: v.colourBy,
      partner: v.partner,
      lesson: v.lesson ? { id: v.lesson.id, step: v.lesson.step } : null,
    },
  };
  const bytes = new TextEncoder().encode(JSON.stringify(payload));
  if (bytes.length > MAX_INFLATED_BYTES) return problem('too-large', { max: MAX_INFLATED_BYTES });
  const fragment = SHARE_PREFIX + toBase64Url(deflateSync(bytes, { level: 9 }));
  if (fragment.length > MAX_FRAGMENT_CHARS)
    return problem('too-long', { size: fragment.length, max: MAX_FRAGMENT_CHARS });
  return { ok: true, fragment };
}

/** Unpacks a fragment (with or without '#'). Never throws: a bad link gives a reason. */
export function decodeShare(fragment: string): DecodeResult {
  try {
    return decode(typeof fragment === 'string' ? fragment : '');
  } catch {
    // Every step below reports its own failure; this is the last line of defence.
    return problem('bad-encoding');
  }
}

function decode(raw: string): DecodeResult {
  const f = raw.startsWith('#') ? raw.slice(1) : raw;
  if (f.length > MAX_FRAGMENT_CHARS) return problem('too-long', { size: f.length, max: MAX_FRAGMENT_CHARS });
  const m = /^s(\d{1,6})\.([\s\S]*)$/.exec(f);
  if (!m) return problem('not-a-link');
  if (Number(m[1]) !== SHARE_VERSION) return problem('unknown-version', { version: Number(m[1]) });
  const bytes = fromBase64Url(m[2]);
  if (!bytes) return problem('bad-encoding');
  const inflated = inflateCapped(bytes);
  if (inflated === 'too-large') return problem('too-large', { max: MAX_INFLATED_BYTES });
  if (inflated === 'corrupt') return problem('bad-compression');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(inflated);
  } catch {
    return problem('bad-text');
  }
  let payload: unknown;
  try {
    payload = JSON.parse(text);
  } catch {
    return problem('bad-json');
  }
  const state = readState(payload);
  if ('field' in state) return problem('bad-field', { field: state.field });
  const bad = checkState(state);
  return bad ? { ok: false, reason: bad } : { ok: true, state };
}

/** Inflates at most MAX_INFLATED_BYTES, feeding the input in small pieces so a bomb stops early. */
function inflateCapped(bytes: Uint8Array): Uint8Array | 'too-large' | 'corrupt' {
  const parts: Uint8Array[] = [];
  let total = 0;
  let over = false;
  let ended = false;
  const inflater = new Inflate((chunk, final) => {
    total += chunk.length;
    if (total > MAX_INFLATED_BYTES) {
      over = true;
      throw new Error('over');
    }
    parts.push(chunk);
    if (final) ended = true;
  });
  try {
    if (bytes.length === 0) inflater.push(bytes, true);
    for (let i = 0; i < bytes.length; i += INFLATE_CHUNK) {
      const end = Math.min(bytes.length, i + INFLATE_CHUNK);
      inflater.push(bytes.subarray(i, end), end === bytes.length);
    }
  } catch {
    return over ? 'too-large' : 'corrupt';
  }
  if (!ended) return 'corrupt';
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const isInt = (x: unknown, lo: number, hi: number): x is number =>
  typeof x === 'number' && Number.isSafeInteger(x) && x >= lo && x <= hi;
const isObj = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/** Reads the payload's fields, naming the first one that has the wrong type. */
function readState(p: unknown): ShareState | { field: string } {
  if (!isObj(p)) return { field: '(payload)' };
  if (typeof p.scenario !== 'string') return { field: 'scenario' };
  const v = p.view;
  if (!isObj(v)) return { field: 'view' };
  const c = v.cursor;
  if (!isObj(c)) return { field: 'view.cursor' };
  if (typeof c.event !== 'number') return { field: 'view.cursor.event' };
  if (typeof c.ns !== 'number') return { field: 'view.cursor.ns' };
  if (typeof v.cpu !== 'number') return { field: 'view.cpu' };
  if (typeof v.colourBy !== 'string') return { field: 'view.colourBy' };
  if (typeof v.partner !== 'string') return { field: 'view.partner' };
  const l = v.lesson;
  if (l !== null && !(isObj(l) && typeof l.id === 'string' && typeof l.step === 'number'))
    return { field: 'view.lesson' };
  return {
    scenario: p.scenario,
    view: {
      cursor: { event: c.event, ns: c.ns },
      cpu: v.cpu,
      colourBy: v.colourBy as ColourBy,
      partner: v.partner,
      lesson: l === null ? null : { id: l.id as string, step: l.step as number },
    },
  };
}

/** The value rules, shared by encode and decode: a link this build makes, it also opens. */
function checkState(s: ShareState): ShareProblem | null {
  const bad = (field: string) => ({ code: 'bad-field' as const, vars: { field } });
  let scenario: unknown;
  try {
    scenario = JSON.parse(s.scenario);
  } catch {
    return bad('scenario');
  }
  if (!isObj(scenario)) return bad('scenario');
  const v = s.view;
  if (!isInt(v.cursor.event, 0, Number.MAX_SAFE_INTEGER)) return bad('view.cursor.event');
  if (!isInt(v.cursor.ns, 0, Number.MAX_SAFE_INTEGER)) return bad('view.cursor.ns');
  if (!isInt(v.cpu, 0, MAX_CPU)) return bad('view.cpu');
  if (v.colourBy !== 'nr_running' && v.colourBy !== 'load') return bad('view.colourBy');
  if (v.partner !== '' && parsePartner(v.partner) === null) return bad('view.partner');
  if (v.lesson !== null) {
    if (v.lesson.id.length === 0 || v.lesson.id.length > MAX_LESSON_ID) return bad('view.lesson.id');
    if (!isInt(v.lesson.step, 0, MAX_LESSON_STEP)) return bad('view.lesson.step');
  }
  return null;
}

function toBase64Url(bytes: Uint8Array): string {
  let bin = '';
  // In pieces: String.fromCharCode takes its bytes as arguments.
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(s: string): Uint8Array | null {
  // atob would skip whitespace and accept '+' and '/': the alphabet is checked first.
  if (!/^[A-Za-z0-9_-]*$/.test(s) || s.length % 4 === 1) return null;
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (s.length % 4)) % 4);
  let bin: string;
  try {
    bin = atob(b64);
  } catch {
    return null;
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}
