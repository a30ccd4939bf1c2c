// What is wrong with a policy's JavaScript, as spans of its text: the syntax
// error acorn finds, and the engine's own messages about `policy.source`.
// Pure (no CodeMirror): a span has the fields of a CodeMirror diagnostic, so
// the code editor shows these as they are, and the unit tests read them.
import { parse } from 'acorn';
import type { Problem } from './field-paths';

export interface SourceDiagnostic {
  /** Offsets into the source, from ≤ to (equal: a point, e.g. the end of the text). */
  from: number;
  to: number;
  severity: 'error';
  message: string;
  /** Who says so: shown before the message. */
  source: 'syntax' | 'engine';
}

interface AcornError {
  message: string;
  pos: number;
  raisedAt?: number;
}

function isAcornError(e: unknown): e is AcornError {
  return e instanceof SyntaxError && typeof (e as Partial<AcornError>).pos === 'number';
}

/** The offset where a line ends (before its newline). */
function lineEnd(text: string, at: number): number {
  const nl = text.indexOf('\n', at);
  return nl < 0 ? text.length : nl;
}

/**
 * The first syntax error of a policy's source, or none. The engine runs the
 * source as the body of a function (`new Function('scx', source + ...)` in
 * runtime.js), so it is parsed as one: a top-level `return` is fine. A
 * script (no imports), at the latest language level: the engine's own parse
 * (boa, in the policy guest) names what it refuses beside this one.
 */
export function syntaxDiagnostics(source: string): SourceDiagnostic[] {
  try {
    parse(source, { ecmaVersion: 'latest', sourceType: 'script', allowReturnOutsideFunction: true });
    return [];
  } catch (e) {
    if (!isAcornError(e)) throw e;
    const from = Math.min(e.pos, source.length);
    // Underline up to where acorn gave up, within the line (at least one character when there is one).
    const end = lineEnd(source, from);
    const to = Math.min(Math.max(e.raisedAt ?? from, from + 1), end);
    // acorn ends its message with "(line:column)"; the underline says where.
    const message = e.message.replace(/\s*\(\d+:\d+\)$/, '');
    return [{ from, to: Math.max(from, to), severity: 'error', message, source: 'syntax' }];
  }
}

/** The offset of a 1-based line and column, clamped into the text. */
export function offsetOf(text: string, line: number, column = 1): number {
  let at = 0;
  for (let l = 1; l < line; l++) {
    const nl = text.indexOf('\n', at);
    if (nl < 0) return text.length;
    at = nl + 1;
  }
  return Math.min(at + Math.max(0, column - 1), lineEnd(text, at));
}

/** 1-based line and column of an offset (for messages and tests). */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

/**
 * The engine's messages about the source. One that names a line ("line 4",
 * "line 4, column 2", "4:2") is put there; any other (too long, missing)
 * marks the first line, so it is seen beside the code and not only under it.
 */
export function engineDiagnostics(problems: Problem[], source: string): SourceDiagnostic[] {
  return problems
    .filter((p) => p.path === 'policy.source' && !p.message.startsWith(SYNTAX_PREFIX))
    .map((p) => {
      const m = /\bline (\d+)(?:,? col(?:umn)? (\d+))?|\b(\d+):(\d+)\b/i.exec(p.message);
      const line = m ? Number(m[1] ?? m[3]) : 1;
      const column = m ? Number(m[2] ?? m[4] ?? 1) : 1;
      const from = offsetOf(source, line, column);
      const to = m && (m[2] ?? m[4]) !== undefined ? Math.min(from + 1, lineEnd(source, from)) : lineEnd(source, from);
      return { from, to: Math.max(from, to), severity: 'error', message: p.message, source: 'engine' };
    });
}

/** How the draft words a syntax error (`syntaxProblem`): the code shows it as its own marker, not again. */
export const SYNTAX_PREFIX = 'SyntaxError: ';

/** The source's syntax error as a problem of the draft, naming its line; null when it parses. */
export function syntaxProblem(source: string): Problem | null {
  const [d] = syntaxDiagnostics(source);
  if (!d) return null;
  return { path: 'policy.source', message: `${SYNTAX_PREFIX}${d.message} (line ${lineColumn(source, d.from).line})` };
}

/** Everything to show on the source: its syntax error, then the engine's messages. */
export function sourceDiagnostics(source: string, problems: Problem[]): SourceDiagnostic[] {
  return [...syntaxDiagnostics(source), ...engineDiagnostics(problems, source)];
}
