// Hidden characters in names (issue 35, item 9): bidirectional controls,
// zero-width and other format characters, control characters and the line
// and paragraph separators are shown as their code points on the page
// (src/views/hidden-chars.ts, src/views/shown.tsx), and the page's set is the
// engine's, which refuses them in a scenario's names (so in a share link's) and
// which the scenario schema's name pattern lists for the Basic Multilingual Plane.
import { beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { initSync, validateScenario } from '../../wasm-core/pkg/schedlab_core.js';
import { codePoint, hiddenName, hiddenParts, isHidden, shownClip, shownText } from '../../src/views/hidden-chars';
import { Shown } from '../../src/views/shown';
import { eventText } from '../../src/views/event-words';
import { translate } from '../../src/i18n/translate';

const root = join(import.meta.dirname, '..', '..');
beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core/pkg/schedlab_core_bg.wasm')) });
});

/** Every code point the page hides (surrogates are not characters). */
function hiddenCodePoints(): number[] {
  const out: number[] = [];
  for (let c = 0; c <= 0x10ffff; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    if (isHidden(String.fromCodePoint(c))) out.push(c);
  }
  return out;
}

describe('hidden characters in names', () => {
  it('are the bidirectional controls, zero-width and format characters, controls and separators', () => {
    const listed = [
      0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069, 0x200e, 0x200f, 0x061c, 0x200b, 0x200c,
      0x200d, 0x2060, 0xfeff, 0x00ad, 0x2028, 0x2029, 0x0000, 0x001b, 0x007f, 0x0085, 0xe0041,
    ];
    for (const c of listed) expect(isHidden(String.fromCodePoint(c)), codePoint(String.fromCodePoint(c))).toBe(true);
    for (const ch of ['a', ' ', '\u00a0', 'é', '\u0301', '中', 'ש', '\ufe0f', '🦀', '⟨'])
      expect(isHidden(ch), ch).toBe(false);
    expect(codePoint('\u202e')).toBe('U+202E');
    expect(codePoint('\u00ad')).toBe('U+00AD');
    expect(codePoint('\u{e0041}')).toBe('U+E0041');
    expect(hiddenName('\u202e')).toBe('right-to-left override');
    expect(hiddenName('\u{e0041}')).toBeUndefined();
  });

  it('are shown as marked code points, the rest of the name as it is', () => {
    expect(hiddenParts('plain name, 中文, עברית')).toBeNull();
    expect(shownText('plain name')).toBe('plain name');
    expect(hiddenParts('evil\u202egnp.exe')).toEqual([{ text: 'evil' }, { hidden: '\u202e' }, { text: 'gnp.exe' }]);
    expect(shownText('evil\u202egnp.exe')).toBe('evil⟨U+202E⟩gnp.exe');
    expect(shownText('\u200bwor\u200dker\ufeff')).toBe('⟨U+200B⟩wor⟨U+200D⟩ker⟨U+FEFF⟩');
    expect(shownText('tag\u{e0041}\u{e007f}')).toBe('tag⟨U+E0041⟩⟨U+E007F⟩');
    // A quoted message keeps its line breaks and tabs, and shows everything else.
    expect(shownText('line one\n\tline\u2066 two', '\n\t')).toBe('line one\n\tline⟨U+2066⟩ two');
    expect(hiddenParts('two\nlines', '\n')).toBeNull();
    expect(shownText('two\nlines')).toBe('two⟨U+000A⟩lines');
    // Clipped after showing: the mark counts as what the reader sees.
    expect(shownClip('make-job-worker-7', 14)).toBe('make-job-work…');
    expect(shownClip('a\u202eb', 14)).toBe('a⟨U+202E⟩b');
    expect(shownClip('short', 14)).toBe('short');
  });

  it('render as a small element with the code point and its name in the tooltip', () => {
    expect(renderToStaticMarkup(createElement(Shown, { text: 'plain' }))).toBe('plain');
    const html = renderToStaticMarkup(createElement(Shown, { text: 'evil\u202egnp.exe' }));
    expect(html).toBe(
      'evil<span class="hidden-char" data-testid="hidden-char" title="Hidden character U+202E (right-to-left override): ' +
        'shown as its code point instead of changing how the text around it reads">⟨U+202E⟩</span>gnp.exe',
    );
    expect(html).not.toContain('\u202e');
    // Markup in a name stays text beside the marks.
    const markup = renderToStaticMarkup(createElement(Shown, { text: '<b>\u200b</b>' }));
    expect(markup).toContain('&lt;b&gt;<span');
    expect(markup).not.toContain('\u200b');
  });

  it('are shown in the event log’s words of a trace’s records', () => {
    const t = (key: string, vars?: Record<string, string | number>) => translate('en', key, vars);
    const line = eventText({ t_ns: 0, cpu: 1, kind: 'sched_wakeup', text: '', args: { task: 'a\u202eb[7]' } }, t);
    expect(line).toBe('a⟨U+202E⟩b[7] woke up');
  });

  it('are the characters the scenario schema’s name pattern refuses in the Basic Multilingual Plane', () => {
    const schema = JSON.parse(readFileSync(join(root, 'wasm-core/schema/scenario.v1.schema.json'), 'utf8'));
    const pattern = (JSON.stringify(schema).match(/"pattern":"(\^\[\^\/\\\\u0000[^"]*)"/) ?? [])[1];
    expect(pattern, 'the process name pattern').toBeDefined();
    const re = new RegExp(JSON.parse(`"${pattern}"`) as string, 'u');
    const differ: string[] = [];
    for (let c = 0; c <= 0xffff; c++) {
      if (c >= 0xd800 && c <= 0xdfff) continue;
      const ch = String.fromCodePoint(c);
      if (ch !== '/' && re.test(`p${ch}`) === isHidden(ch)) differ.push(codePoint(ch));
    }
    expect(differ).toEqual([]);
  });

  it('are each refused by the engine in a process’s name, named by its code point', () => {
    const hidden = hiddenCodePoints();
    // Unicode 17's Cc (65) and Cf (170), the line and paragraph separators: a browser of a later Unicode with
    // more format characters fails here until wasm-core/src/api/text.rs's `is_format` lists them too.
    expect(hidden.length).toBe(65 + 170 + 2);
    const scenario = (name: string) =>
      JSON.stringify({
        version: 1,
        name: 't',
        duration_ms: 10,
        machine: { preset: 'uniprocessor' },
        processes: [{ name, program: [{ run_us: 100 }] }],
      });
    for (const c of hidden) {
      const ch = String.fromCodePoint(c);
      const problems = validateScenario(scenario(`hog${ch}0`));
      expect(
        problems.map((p) => p.path),
        codePoint(ch),
      ).toEqual(['processes[0].name']);
      expect(problems[0].message, codePoint(ch)).toContain(`(${codePoint(ch)})`);
    }
    for (const ok of ['hog', 'café', '中文', 'עברית', '🦀', 'a\u00a0b', 'x\ufe0f']) {
      expect(validateScenario(scenario(ok)), ok).toEqual([]);
    }
  });
});
