// Bounds a sched_ext policy's loops in the page. Natively boa stops a loop
// past its iteration limit; V8 has no such limit, and a policy that never
// returns would hold the engine worker for good. So before the page runs a
// policy, every loop body is wrapped to count its rounds through the
// runtime's `__scx_budget` (reset at each call from the engine: the bound is
// per callback) and to throw once the count passes the limit. The inserted
// text holds no newline, so the policy's line numbers stay its own; a syntax
// error is reported with its line, as the editor shows it. A policy may not
// import code (`import()` would reach the network from the engine worker).
import { parse, type Node } from 'acorn';
import { simple } from 'acorn-walk';

interface Loop extends Node {
  body: Node;
}

/** What goes in front of a loop body (inside the braces it gets). */
const COUNT = '{if(++__scx_budget.n>__scx_budget.limit)__scx_budget.fail();';

/** A policy's source that does not parse: the parser's words and where. */
export class PolicySyntaxError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} (line ${line})`);
  }
}

/** Parses a policy as the runtime runs it: the body of a function. */
export function parsePolicy(source: string): Node {
  try {
    return parse(source, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true });
  } catch (e) {
    const err = e as { message?: string; loc?: { line: number; column: number } };
    const reason = (err.message ?? String(e)).replace(/\s*\(\d+:\d+\)$/, '');
    throw new PolicySyntaxError(reason, err.loc?.line ?? 1, err.loc?.column ?? 0);
  }
}

function lineOf(source: string, offset: number): { line: number; column: number } {
  const before = source.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length };
}

/** The source with every loop body counting its rounds; throws `PolicySyntaxError`. */
export function guardLoops(source: string): string {
  const ast = parsePolicy(source);
  const inserts: [number, string][] = [];
  const wrap = (n: Node): void => {
    const body = (n as Loop).body;
    inserts.push([body.start, COUNT], [body.end, '}']);
  };
  const refuse = (n: Node): void => {
    const at = lineOf(source, n.start);
    throw new PolicySyntaxError('a policy cannot import code', at.line, at.column);
  };
  simple(ast, {
    ImportExpression: refuse,
    MetaProperty: refuse,
    ForStatement: wrap,
    ForInStatement: wrap,
    ForOfStatement: wrap,
    WhileStatement: wrap,
    DoWhileStatement: wrap,
  });
  // From the end backwards, so earlier positions stay valid. Two inserts never
  // share a start (a body starts after its loop's head); closing braces may
  // share an end, and are alike.
  inserts.sort((a, b) => b[0] - a[0]);
  let out = source;
  for (const [at, text] of inserts) out = out.slice(0, at) + text + out.slice(at);
  return out;
}
