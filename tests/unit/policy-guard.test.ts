// The page's loop bound for sched_ext policies: every loop body counts its
// rounds, the policy means what it meant (labels, nesting, bodies without
// braces), its line numbers stay its own, and a syntax error names its line.
import { describe, expect, it } from 'vitest';
import { guardLoops, PolicySyntaxError } from '../../src/engine/policy-guard';

/** Runs a guarded body with a budget; answers what it returns and the rounds counted. */
function run(source: string, limit = 1e6): { value: unknown; rounds: number } {
  const budget = {
    n: 0,
    limit,
    fail: () => {
      throw new Error('bound');
    },
  };
  // The runtime evaluates guarded policy text the same way.
  const value = (new Function('__scx_budget', guardLoops(source)) as (b: typeof budget) => unknown)(budget);
  return { value, rounds: budget.n };
}

describe('guardLoops', () => {
  it('counts every round of every kind of loop', () => {
    const src = `
      let s = 0;
      for (let i = 0; i < 3; i++) s += i;
      let j = 0;
      while (j < 4) j++;
      do { j--; } while (j > 0);
      for (const k of [1, 2]) s += k;
      for (const k in { a: 1 }) s += k.length;
      return s;`;
    const { value, rounds } = run(src);
    expect(value).toBe(3 + 3 + 1);
    expect(rounds).toBe(3 + 4 + 4 + 2 + 1);
  });

  it('keeps labels, nesting and early exits meaning what they meant', () => {
    const src = `
      let hits = 0;
      outer: for (let i = 0; i < 5; i++)
        for (let j = 0; j < 5; j++) {
          if (j === 2) continue outer;
          if (i === 3) break outer;
          hits++;
        }
      return hits;`;
    expect(run(src).value).toBe(6);
  });

  it('stops a loop that never ends', () => {
    expect(() => run('while (true) {}', 1000)).toThrow('bound');
    expect(() => run('for (;;);', 1000)).toThrow('bound');
  });

  it('leaves line numbers where they were', () => {
    const src = 'function f() {\n  for (;;) {\n    x();\n  }\n}\nwhile (a)\n  b();\n';
    const out = guardLoops(src);
    expect(out.split('\n').length).toBe(src.split('\n').length);
    expect(out.split('\n')[2]).toBe('    x();');
  });

  it('names a syntax error with its line and column', () => {
    let caught: unknown;
    try {
      guardLoops('function enqueue(p) {\n  scx.dsq_insert(p,, 1);\n}');
    } catch (e) {
      caught = e;
    }
    expect(caught).toBeInstanceOf(PolicySyntaxError);
    const e = caught as PolicySyntaxError;
    expect(e.line).toBe(2);
    expect(e.column).toBeGreaterThan(0);
    expect(e.message).toMatch(/\(line 2\)$/);
  });
});

describe('what a policy may not do', () => {
  it('import code', () => {
    expect(() => guardLoops('function init() {\n  import("https://example.org/x.js");\n}')).toThrow(
      /cannot import code \(line 2\)/,
    );
  });
});
