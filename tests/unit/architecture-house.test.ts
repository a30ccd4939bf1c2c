// ARCHITECTURE.md's drawing of the house is what a newcomer learns the code
// from: every box it names must be a file or folder that exists, and every
// arrow drawn between two TypeScript files on one line an import that exists.
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative, resolve } from 'node:path';

const root = join(import.meta.dirname, '..', '..');
const doc = readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8');

/** The house's drawing: the fenced block after its heading. */
function drawing(): string[] {
  const from = doc.indexOf('## The house');
  const start = doc.indexOf('```', from);
  const end = doc.indexOf('```', start + 3);
  return doc.slice(start + 3, end).split('\n');
}

/** A name the drawing gives a file or folder: a path with a slash or a source file's name. */
const PATH = /[\w*-]+(?:\/[\w*.-]*)+|[\w-]+\.(?:tsx?|rs|js)\b/g;
/** Where the drawing's names are read from (a Rust file by its path in the crate). */
const BASES = ['', 'src', 'wasm-core/src', 'wasm-core/src/sim'];

/** The files a name stands for (a `*` stands for any name in its folder). */
function filesOf(name: string): string[] {
  for (const base of BASES) {
    const full = join(root, base, name.replace(/\/$/, ''));
    if (name.includes('*')) {
      const dir = dirname(full);
      if (!existsSync(dir)) continue;
      const re = new RegExp(`^${basename(full).replace(/\./g, '\\.').replace(/\*/g, '.*')}$`);
      const found = readdirSync(dir).filter((f) => re.test(f));
      if (found.length > 0) return found.map((f) => join(dir, f));
    } else if (existsSync(full)) {
      return [full];
    }
  }
  return [];
}

/** The drawing split into its columns (the worker's starts under "ENGINE WORKER"), names joined across a `-` break. */
function columns(): string[] {
  const lines = drawing();
  const cut = lines.find((l) => l.includes('ENGINE WORKER'))?.indexOf('ENGINE WORKER') ?? 0;
  const left = lines.map((l) => l.slice(0, cut)).join('\n');
  const right = lines.map((l) => l.slice(cut)).join('\n');
  return [left, right].map((c) => c.replace(/-\n[\s│├└─►]*/g, '-'));
}

/** Whether `from` imports `to` (a relative import resolved to the file). */
function imports(from: string, to: string): boolean {
  const text = readFileSync(from, 'utf8');
  for (const m of text.matchAll(/from\s+'(\.[^']+)'/g)) {
    const target = resolve(dirname(from), m[1]);
    if ([target, `${target}.ts`, `${target}.tsx`].includes(to)) return true;
  }
  return false;
}

describe("ARCHITECTURE.md's house", () => {
  it('names only files and folders that exist', () => {
    const missing: string[] = [];
    let named = 0;
    for (const col of columns()) {
      for (const m of col.matchAll(PATH)) {
        named++;
        if (filesOf(m[0]).length === 0) missing.push(m[0]);
      }
    }
    expect(named).toBeGreaterThan(25);
    expect(missing).toEqual([]);
  });

  it('draws as an arrow only an import that exists', () => {
    const wrong: string[] = [];
    let arrows = 0;
    for (const col of columns()) {
      for (const line of col.split('\n')) {
        // "a ──► b" (a imports b) and "b ◄── a", between two TypeScript files on one line.
        for (const m of line.matchAll(/([\w*./-]+\.tsx?)\s*(──►|◄──)\s*([\w*./-]+\.tsx?)/g)) {
          const [from, to] = m[2] === '──►' ? [m[1], m[3]] : [m[3], m[1]];
          arrows++;
          const ok = filesOf(from).some((f) => filesOf(to).some((t) => imports(f, t)));
          if (!ok) wrong.push(`${from} ──► ${to}`);
        }
      }
    }
    expect(arrows).toBeGreaterThan(3);
    expect(wrong.map((w) => relative(root, w))).toEqual([]);
  });
});
