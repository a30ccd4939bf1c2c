// The built-in presets the page reads as data (src/engine/presets.ts): the
// generated list names every scenario file once, in the CLI's order, and each
// text is its file's, naming itself; an unknown name is refused.
import { describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PRESETS, presetText } from '../../src/engine/presets';

const root = join(import.meta.dirname, '..', '..');
const dir = join(root, 'wasm-core', 'presets');
const cli = join(root, 'wasm-core', 'target', 'release', 'schedsim');

describe('built-in presets as data', () => {
  it('lists every scenario file once, with its own text and name', () => {
    const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
    expect(PRESETS.map((p) => `${p.name}.json`).sort()).toEqual(files.sort());
    for (const p of PRESETS) {
      const text = presetText(p.name);
      expect(text).toBe(readFileSync(join(dir, `${p.name}.json`), 'utf8'));
      expect((JSON.parse(text) as { name: string }).name).toBe(p.name);
      expect(p.title.length).toBeGreaterThan(10);
    }
  });

  it("keeps the CLI's order and titles", () => {
    const lines = execFileSync(cli, ['list'], { encoding: 'utf8' }).trim().split('\n');
    expect(lines.map((l) => l.split(/\s+/)[0])).toEqual(PRESETS.map((p) => p.name));
    for (const [i, p] of PRESETS.entries()) expect(lines[i]).toContain(p.title);
  });

  it('refuses a name that is no preset', () => {
    expect(() => presetText('nowhere')).toThrow(/unknown preset 'nowhere'/);
    expect(() => presetText('../package')).toThrow(/unknown preset/);
  });
});
