// axe-core in the page under test: its source (the npm package) evaluated in
// the page, then a full run (every rule axe enables by default: WCAG 2.0–2.2 A
// and AA, and its best practices). No rule is turned off. The source goes in
// through the DevTools protocol, as every `page.evaluate` does, not as an
// inline <script>: the app's Content-Security-Policy (src/csp.ts) refuses
// inline script, and the test must not loosen what the user's page gets.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  help: string;
  nodes: string[];
}

/** The violations axe finds in the page as it is now, each with up to 8 of its elements and why. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  return page.evaluate(async () => {
    type Node = { target: string[]; failureSummary?: string };
    type Result = { id: string; help: string; nodes: Node[] };
    const axe = (
      window as unknown as { axe: { run: (ctx: Document, opts: object) => Promise<{ violations: Result[] }> } }
    ).axe;
    // The lab animates (tree fades, 250 ms moves); axe reads colours as drawn, so it runs on the settled page.
    const res = await axe.run(document, { resultTypes: ['violations'] });
    return res.violations.map((v) => ({
      id: v.id,
      help: v.help,
      nodes: v.nodes.slice(0, 8).map((n) => `${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`),
    }));
  });
}
