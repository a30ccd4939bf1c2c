/** `x`, which the test has reason to expect here; fails the test, naming `what`, if it is null or undefined. */
export function defined<T>(x: T | null | undefined, what = 'a value'): T {
  if (x === null || x === undefined) throw new Error(`expected ${what}, got ${String(x)}`);
  return x;
}
