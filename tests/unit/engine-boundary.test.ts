// src/engine/ knows no feature: every module under it imports only other
// engine modules, the wasm package (and the engine crate's sched_ext runtime
// and built-in scenario files, as text) and npm packages. Features (classroom,
// share, views, …) register what they need in the worker through
// engine/extensions.ts instead, so a new feature never edits engine/.
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const engineDir = join(root, 'src', 'engine');
const wasmPkg = join(root, 'wasm-core', 'pkg');
/** The sched_ext runtime, JavaScript the engine crate keeps and the worker's policy host boots (imported as text). */
const runtimeJs = join(root, 'wasm-core', 'src', 'sched', 'ext', 'runtime.js');
/** The built-in scenario files, which `engine/presets.ts` bundles as text. */
const presetFiles = join(root, 'wasm-core', 'presets', '*.json');

/** Every .ts / .tsx file under `dir`. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** The module specifiers of a file: static and dynamic imports, re-exports, `new URL(…, import.meta.url)`. */
function specifiers(text: string): string[] {
  const found: string[] = [];
  const patterns = [
    /\bimport\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s+)?['"]([^'"]+)['"]/g,
    /\bexport\s+(?:type\s+)?(?:\*|\{[^}]*\})(?:\s+as\s+\w+)?\s+from\s+['"]([^'"]+)['"]/g,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\bnew\s+URL\(\s*['"]([^'"]+)['"]\s*,\s*import\.meta\.url/g,
    /\bimport\.meta\.glob(?:<[^>]*>)?\(\s*['"]([^'"]+)['"]/g,
  ];
  for (const re of patterns) for (const m of text.matchAll(re)) found.push(m[1]);
  return found;
}

/** Where a relative specifier of `file` leads, or null for a package. */
function target(file: string, spec: string): string | null {
  return spec.startsWith('.') ? resolve(dirname(file), spec) : null;
}

const inside = (dir: string, p: string) => !relative(dir, p).startsWith('..');

describe('src/engine/', () => {
  it('reads every kind of import the scan must see', () => {
    const text = `import a from './a';\nimport type { B } from "../b";\nimport './c.css';\nexport { d } from '../d';\nexport * from './e';\nconst f = import('../f');\nnew URL('../g.ts', import.meta.url);\nimport.meta.glob<string>('../h/*.json');`;
    expect(specifiers(text)).toEqual(['./a', '../b', './c.css', '../d', './e', '../f', '../g.ts', '../h/*.json']);
  });

  it('imports nothing outside itself but the wasm package and npm packages', () => {
    const files = sources(engineDir);
    expect(files.length).toBeGreaterThan(10);
    const reaching = files.flatMap((file) =>
      specifiers(readFileSync(file, 'utf8'))
        .filter((spec) => {
          const t = target(file, spec);
          const allowed = t === presetFiles || t?.replace(/\?raw$/, '') === runtimeJs;
          return t !== null && !inside(engineDir, t) && !inside(wasmPkg, t) && !allowed;
        })
        .map((spec) => `${relative(root, file)} imports ${spec}`),
    );
    expect(reaching).toEqual([]);
  });
});
