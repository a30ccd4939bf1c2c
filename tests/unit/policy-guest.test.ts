// Issue 35: a share link's policy is a guest. The red team's hostile policies,
// run by the page's engine in this process (the wasm engine and the policy
// guest, as the engine worker runs them): each ends with a message that names
// what it broke, in the words `schedsim run` prints and at the same point of
// the run, or (an interpreter stack the page cannot grow) with a message of
// its own; none takes the engine with it, and a policy after it runs as the
// CLI runs it.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { policyScenario, runInWasm, runNatively, startPolicyEngine, starter } from './policy-engine';
import { loadGuest, makePolicyHost } from '../../src/engine/guest';

beforeAll(startPolicyEngine);

/** The note of a policy that failed, if any. */
const failure = (notes: string[]) => notes.find((n) => n.includes('sched_ext policy failed')) ?? '';

/** Policies the red team wrote, each with what its failure must say. */
const HOSTILE: [string, string, RegExp][] = [
  [
    "writing the page's old loop budget",
    'function init() { __scx_budget.limit = Infinity; }\nfunction dispatch() { while (true) {} }',
    /__scx_budget is not defined/,
  ],
  [
    'a loop built with Function',
    'function init() { Function("while (true) {}")(); }',
    /cannot build code from a string/,
  ],
  [
    'the global through a constructor',
    'function init() { (function () {}).constructor("return this")().postMessage("x"); }',
    /cannot build code from a string/,
  ],
  [
    'a backtracking regular expression',
    'function init() { /(a+)+$/.test("aaaaaaaaaaaaaaaaaaaaaaaaaaaa!"); }',
    /regular expressions are not available/,
  ],
  ['RegExp by name', 'function init() { new RegExp("(a+)+$"); }', /RegExp is not available/],
  [
    'throwing a Proxy whose reads throw',
    'function init() { throw new Proxy({}, { get: function () { throw new Error("boom"); } }); }',
    /init: a thrown value that cannot be read/,
  ],
  ['a string of 2^30 characters', 'function init() { var s = "x".repeat(Math.pow(2, 30)); }', /init: .*2000000 steps/],
  ['Array(1e9).fill', 'function init() { Array(1e9).fill(0); }', /init: .*2000000 steps/],
  [
    'an allocation loop',
    'function init() { var a = []; while (true) a.push({ n: a.length, s: "aaaaaaaaaaaaaaaa" + a.length }); }',
    /init: the policy's memory went past its limit of 64 MiB/,
  ],
  ['700 nested parentheses', `function init() { return ${'('.repeat(700)}1${')'.repeat(700)}; }`, /nest 701 deep/],
  [
    'a Proxy chain a million long',
    'function init() { var p = {}; for (var i = 0; i < 1000000; i++) p = new Proxy(p, {}); }',
    /a chain of Proxy went past 1000 objects/,
  ],
  [
    'a bind chain a million long',
    'function init() { var f = function () {}; for (var i = 0; i < 1000000; i++) f = f.bind(null); }',
    /a chain of bind went past 1000 functions/,
  ],
  [
    'endless recursion',
    'function f(n) { return f(n + 1) + 1; }\nfunction init() { f(0); }',
    /maximum number of recursive calls/,
  ],
  [
    'a loop calling a looping function',
    'function spin() { for (var i = 0; i < 1000000; i++) {} }\nfunction dispatch() { for (;;) spin(); }',
    /dispatch: the policy went past 2000000 steps/,
  ],
];

describe('hostile policies in the page, as the CLI runs them', () => {
  for (const [what, source, words] of HOSTILE) {
    it(`${what}: ends with a message, the CLI's words at the CLI's point`, () => {
      const json = policyScenario(source, 50);
      const page = runInWasm(json);
      expect(failure(page.notes), what).toMatch(words);
      const cli = runNatively(json);
      expect(page.notes, what).toEqual(cli.notes);
      expect(page.sim_time_ns, what).toBe(cli.sim_time_ns);
      expect(page.trace_hash, what).toBe(cli.trace_hash);
    });
  }

  it('runs no promise job, in the page as natively: a flood of them changes nothing', () => {
    const flood =
      'function init() { function again() { return Promise.resolve().then(again); } again(); }\n' +
      starter('global-fifo');
    const json = policyScenario(flood, 100);
    const page = runInWasm(json);
    expect(failure(page.notes)).toBe('');
    expect(page.trace_hash).toBe(runNatively(json).trace_hash);
    expect(page.trace_hash).toBe(runInWasm(policyScenario(starter('global-fifo'), 100)).trace_hash);
  });

  it("stops a structure deeper than the interpreter's stack with a message, and the next policy runs as natively", () => {
    const deep = 'function init() { var o = {}; for (var i = 0; i < 100000; i++) o = Object.create(o); return o.x; }';
    const page = runInWasm(policyScenario(deep, 50));
    expect(failure(page.notes)).toMatch(/deeper than the interpreter's stack allows/);
    const json = policyScenario(starter('weighted-vtime'), 100);
    expect(runInWasm(json).trace_hash).toBe(runNatively(json).trace_hash);
  });

  it("stops a single allocation past the hard cap with the allocator's line, and drops that instance", () => {
    // Each doubling is one step: the string reaches 128 MiB of UTF-16 in a single request.
    const boot = () => makePolicyHost('function init() { var s = "x"; for (var i = 0; i < 40; i++) s = s + s; }', 4, 1);
    expect(boot).toThrow(/^init: it asked for \d+ MiB at once, past its memory limit of 64 MiB$/);
    // The trap took that instance only: the next policy boots in a fresh one.
    expect(makePolicyHost(starter('global-fifo'), 4, 1).error()).toBe('');
  });
});

describe('the guest module', () => {
  it('imports nothing but functions, each of which throws', async () => {
    const bytes = readFileSync(join(import.meta.dirname, '..', '..', 'wasm-core', 'pkg', 'schedlab_guest.wasm'));
    const module = await loadGuest(bytes);
    for (const i of WebAssembly.Module.imports(module)) expect(i.kind, i.name).toBe('function');
  });
});
