// The field checks both directions of the engine worker's protocol share
// (request-check.ts: what the worker receives; reply-check.ts: what the page
// receives). A refusal says where and what was expected, and keeps apart what
// was found: the worker may quote a bad request back to the page, but the page
// must never show text a misbehaving worker chose.

/** Why a message does not fit the protocol. `where` names the place and the rule only, never the value found. */
export class ProtocolError extends Error {
  constructor(
    message: string,
    readonly where: string,
  ) {
    super(message);
  }
}

export type Obj = Record<string, unknown>;

export function fail(path: string, what: string, got: unknown): never {
  const shown = typeof got === 'string' ? JSON.stringify(got.slice(0, 40)) : String(got);
  const where = `${path}: must be ${what}`;
  throw new ProtocolError(`${where} (got ${Array.isArray(got) ? 'an array' : shown})`, where);
}

/** `v` as a plain object with only the keys `allowed`. */
export function object(v: unknown, path: string, allowed: readonly string[]): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(path, 'an object', v);
  for (const k of Object.keys(v)) {
    if (!allowed.includes(k))
      throw new ProtocolError(
        `${path}: has no field ${JSON.stringify(k.slice(0, 40))}`,
        `${path}: has a field too many`,
      );
  }
  return v as Obj;
}

export const number = (v: unknown, path: string): number =>
  typeof v === 'number' && Number.isFinite(v) ? v : fail(path, 'a finite number', v);
export const integer = (v: unknown, path: string, min: number): number =>
  Number.isSafeInteger(v) && (v as number) >= min ? (v as number) : fail(path, `an integer from ${min}`, v);
export const string = (v: unknown, path: string): string => (typeof v === 'string' ? v : fail(path, 'a string', v));
export const boolean = (v: unknown, path: string): boolean =>
  typeof v === 'boolean' ? v : fail(path, 'true or false', v);
export function oneOf<T extends string>(v: unknown, path: string, options: readonly T[]): T {
  return options.includes(v as T) ? (v as T) : fail(path, `one of ${options.join(', ')}`, v);
}
