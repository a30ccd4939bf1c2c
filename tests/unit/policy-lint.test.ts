// What the code editor marks in a policy's JavaScript: acorn's syntax error at
// its line and column, parsed as the function body the engine runs, and the
// engine's own messages about `policy.source` at the line they name.
import { describe, expect, it } from 'vitest';
import {
  syntaxProblem,
  engineDiagnostics,
  lineColumn,
  offsetOf,
  sourceDiagnostics,
  syntaxDiagnostics,
} from '../../src/editor/policy-lint';
import { STARTERS } from '../../src/editor/policy-starters';

const at = (source: string, offset: number) => lineColumn(source, offset);

describe('syntax errors', () => {
  it('finds none in the starters, nor in a top-level return (the source is a function body)', () => {
    for (const s of STARTERS) expect(syntaxDiagnostics(s.source), s.id).toEqual([]);
    expect(syntaxDiagnostics('return { enqueue: function (p) {} };')).toEqual([]);
    expect(syntaxDiagnostics('')).toEqual([]);
  });

  it('marks the token where parsing stopped, at its line and column', () => {
    const source = 'function enqueue(p, f) {\n  scx.dsq_insert(p,, f);\n}\n';
    const [d, ...rest] = syntaxDiagnostics(source);
    expect(rest).toEqual([]);
    expect(d).toMatchObject({ severity: 'error', source: 'syntax', message: 'Unexpected token' });
    expect(at(source, d.from)).toEqual({ line: 2, column: 20 });
    expect(source.slice(d.from, d.to)).toBe(',');
  });

  it('keeps the underline within the line and the text', () => {
    const open = 'function dispatch(cpu) {\n  scx.dsq_move_to_local(0);\n';
    const [end] = syntaxDiagnostics(open);
    expect(end.from).toBe(open.length);
    expect(end.to).toBe(open.length);
    const comment = 'let x = 1;\n/* never closed\nmore';
    const [c] = syntaxDiagnostics(comment);
    expect(c.message).toBe('Unterminated comment');
    expect(at(comment, c.from)).toEqual({ line: 2, column: 1 });
    expect(c.to).toBeLessThanOrEqual(comment.indexOf('\nmore'));
  });

  it('parses scripts at the level the page runs them', () => {
    expect(syntaxDiagnostics('let a = null; a ??= 1;')).toHaveLength(0); // ES2021: the page runs it
    expect(syntaxDiagnostics("import { x } from 'y';")).toHaveLength(1); // a module
    expect(syntaxDiagnostics('const v = p?.weight ?? 1024;')).toEqual([]); // ES2020 is fine
  });
});

describe("the engine's messages", () => {
  const source = 'function init() {\n  scx.create_dsq(0);\n}\nfunction enqueue(p) {\n  oops(p);\n}\n';

  it('go to the line they name, else to the first line', () => {
    const [named] = engineDiagnostics([{ path: 'policy.source', message: 'oops is not defined (line 5)' }], source);
    expect(named.source).toBe('engine');
    expect(at(source, named.from)).toEqual({ line: 5, column: 1 });
    expect(source.slice(named.from, named.to)).toBe('  oops(p);');
    const [col] = engineDiagnostics([{ path: 'policy.source', message: 'bad thing at line 2, column 3' }], source);
    expect(at(source, col.from)).toEqual({ line: 2, column: 3 });
    expect(col.to - col.from).toBe(1);
    const [whole] = engineDiagnostics([{ path: 'policy.source', message: 'is 70000 bytes; at most 65536' }], source);
    expect(whole.from).toBe(0);
    expect(source.slice(whole.from, whole.to)).toBe('function init() {');
  });

  it('only those about the source, clamped to the text', () => {
    const problems = [
      { path: 'policy.kind', message: 'unknown policy' },
      { path: 'policy.watchdog_ms', message: 'must be from 1 to 600000 ms (got 0)' },
      { path: 'policy.source', message: 'trouble (line 99)' },
    ];
    const ds = engineDiagnostics(problems, source);
    expect(ds).toHaveLength(1);
    expect(ds[0].from).toBe(source.length);
    expect(engineDiagnostics([{ path: 'policy.source', message: 'needs a source' }], '')).toEqual([
      { from: 0, to: 0, severity: 'error', message: 'needs a source', source: 'engine' },
    ]);
  });

  it('come after the syntax error', () => {
    const broken = `${source}}`;
    const ds = sourceDiagnostics(broken, [{ path: 'policy.source', message: 'refused' }]);
    expect(ds.map((d) => d.source)).toEqual(['syntax', 'engine']);
  });
});

describe('offsets', () => {
  it('turn lines and columns into offsets and back', () => {
    const text = 'ab\ncde\n\nf';
    for (let o = 0; o <= text.length; o++) {
      const { line, column } = lineColumn(text, o);
      expect(offsetOf(text, line, column)).toBe(o);
    }
    expect(offsetOf(text, 2, 99)).toBe(6); // end of "cde"
  });
});

describe('the draft’s syntax problem', () => {
  it('names the error and its line, and is not marked twice in the code', () => {
    const source = 'function enqueue(p) {\n  scx.dsq_insert(p,, 1);\n}';
    const p = syntaxProblem(source);
    expect(p).toEqual({ path: 'policy.source', message: 'SyntaxError: Unexpected token (line 2)' });
    expect(syntaxProblem('function init() {}')).toBeNull();
    // The code shows acorn's own marker; the draft's copy of it is not shown again as an engine message.
    expect(sourceDiagnostics(source, p ? [p] : []).map((d) => d.source)).toEqual(['syntax']);
  });
});
