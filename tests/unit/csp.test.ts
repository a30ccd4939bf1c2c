// The site's Content-Security-Policy (src/csp.ts): no variant lets script,
// connections, fonts or workers come from anywhere but the site (so a share
// link's policy reaches no network, whatever code it builds); the page's own
// variant allows no eval; the dev and preview servers send it; the README's
// deployment header is the one defined.
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CSP_DEV_HEADER, CSP_DEV_PAGE, CSP_HEADER, CSP_PAGE } from '../../src/csp';
import config from '../../vite.config';

const root = join(import.meta.dirname, '..', '..');

function directives(policy: string): Map<string, string[]> {
  return new Map(
    policy.split(';').map((d) => {
      const [name, ...sources] = d.trim().split(/\s+/);
      return [name, sources];
    }),
  );
}

describe('the Content-Security-Policy', () => {
  it('keeps script, connections, fonts and workers to the site in every variant', () => {
    for (const policy of [CSP_HEADER, CSP_PAGE, CSP_DEV_PAGE, CSP_DEV_HEADER]) {
      const d = directives(policy);
      for (const name of ['default-src', 'script-src', 'connect-src', 'font-src', 'worker-src']) {
        const hosts = (d.get(name) ?? []).filter((s) => !/^'[a-z-]+'$/.test(s));
        expect(hosts, `${name} in ${policy}`).toEqual([]);
        expect(d.get(name), name).toContain("'self'");
      }
      expect(d.get('object-src')).toEqual(["'none'"]);
    }
  });

  it('evaluates no text as code anywhere, the engine worker included (policies run in the wasm guest)', () => {
    for (const policy of [CSP_HEADER, CSP_PAGE, CSP_DEV_PAGE, CSP_DEV_HEADER]) {
      expect(directives(policy).get('script-src'), policy).not.toContain("'unsafe-eval'");
    }
    expect(directives(CSP_HEADER).get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(CSP_PAGE).toBe(CSP_HEADER);
  });

  it('is what the dev and preview servers send', () => {
    expect(config.server?.headers).toEqual({ 'Content-Security-Policy': CSP_DEV_HEADER });
    expect(config.preview?.headers).toEqual({ 'Content-Security-Policy': CSP_HEADER });
  });

  it('is written in the source index.html, and a build or dev start with another one is refused', () => {
    const html = readFileSync(join(root, 'index.html'), 'utf8');
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${CSP_PAGE}" />`);
    const plugin = config.plugins
      ?.flat()
      .find((p) => p && typeof p === 'object' && 'name' in p && p.name === 'schedlab-csp-meta');
    const hook = (plugin as { transformIndexHtml: { handler: (h: string, c: object) => string } }).transformIndexHtml;
    // Built: the page's policy as it is; served in dev: loosened for the inline React Refresh preamble only.
    expect(hook.handler(html, {})).toBe(html);
    expect(hook.handler(html, { server: {} })).toContain(`content="${CSP_DEV_PAGE}"`);
    expect(() => hook.handler(html.replace("connect-src 'self'", 'connect-src *'), {})).toThrow(/CSP_PAGE/);
    expect(() => hook.handler(html.replace(/<meta http-equiv[^>]*>/, ''), {})).toThrow(/CSP_PAGE/);
  });

  it("is the README's deployment header", () => {
    expect(readFileSync(join(root, 'README.md'), 'utf8')).toContain(`\nContent-Security-Policy: ${CSP_HEADER}\n`);
  });
});
