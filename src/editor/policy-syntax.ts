// A policy's syntax as a problem of the draft, so the editor never calls a
// scenario whose JavaScript does not parse "valid" (the engine's validation
// does not parse JavaScript: the run would only say so once applied). The
// parser (acorn, in policy-lint.ts) comes with the code editor's chunk,
// loaded on demand; it hands its check over here when it arrives
// (`provideSyntaxCheck`), and the draft checks again.
import type { Problem } from './field-paths';

export type SyntaxCheck = (source: string) => Problem | null;

let check: SyntaxCheck | null = null;
const waiting = new Set<() => void>();

/** The code editor's chunk arrived with its parser. */
export function provideSyntaxCheck(c: SyntaxCheck): void {
  if (check) return;
  check = c;
  for (const w of waiting) w();
}

/** Calls `f` when the parser arrives; answers the unsubscribe. */
export function onSyntaxCheck(f: () => void): () => void {
  waiting.add(f);
  return () => waiting.delete(f);
}

/** The syntax problem of a policy's source (kind 'ext' only); none while the parser has not arrived. */
export function policySyntaxProblems(policy: { kind?: unknown; source?: unknown } | undefined): Problem[] {
  if (!check || policy?.kind !== 'ext' || typeof policy.source !== 'string' || policy.source === '') return [];
  const p = check(policy.source);
  return p ? [p] : [];
}
