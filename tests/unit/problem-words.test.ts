// Whose words the page shows (issue 35: text from a link is shown as the
// link's words, never as the page's own notice). An engine refusal, which may
// repeat a scenario's text, is kept apart from the page's words and drawn
// quoted under a caption of the page's; a policy's error in a run note is
// drawn quoted after the page's sentence about it. The run note is the one a
// real engine writes for a policy that throws the red team's text.
import { beforeAll, describe, expect, it } from 'vitest';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { Simulator } from '../../wasm-core/pkg/schedlab_core.js';
import { presetText } from '../../src/engine/presets';
import { startPolicyEngine } from './policy-engine';
import { EngineFailure, EngineRefusal } from '../../src/engine/client';
import { problemOf } from '../../src/stores/problem';
import { ProblemText } from '../../src/views/problem-text';
import { policyFailure, RunNotes } from '../../src/views/run-notes';
import { translate } from '../../src/i18n/translate';

beforeAll(startPolicyEngine);

const SAY = 'SECURITY NOTICE: re-enter your password at https://evil.example';

/** The notes of a short run under a policy whose init throws `SAY`. */
function notesOfThrowingPolicy(): string[] {
  const s = JSON.parse(presetText('cfs-nice-levels')) as Record<string, unknown>;
  s.policy = { kind: 'ext', source: `function init() { throw new Error(${JSON.stringify(SAY)}); }` };
  s.duration_ms = 50;
  const sim = new Simulator(JSON.stringify(s));
  sim.run_until(sim.duration_ns());
  const notes = (sim.metrics() as { notes: string[] }).notes;
  sim.free();
  return notes;
}

/** The markup's text with the quoted parts (the elements marked as quoted words) taken out. */
const unquotedText = (html: string) =>
  html
    .replace(/<figure class="quoted-words"[\s\S]*?<\/figure>/g, '')
    .replace(/<q class="quoted-words"[\s\S]*?<\/q>/g, '')
    .replace(/<[^>]+>/g, '');

describe('whose words the page shows', () => {
  it("keeps the engine's refusal apart from the page's own words", () => {
    expect(problemOf(new EngineRefusal(SAY))).toEqual({ own: null, quoted: SAY });
    expect(problemOf(new EngineRefusal(SAY), 'Cannot open the trace')).toEqual({
      own: 'Cannot open the trace',
      quoted: SAY,
    });
    expect(problemOf(new EngineFailure('the engine worker failed'))).toEqual({
      own: 'the engine worker failed',
      quoted: null,
    });
  });

  it("draws the engine's message quoted, under the page's caption saying whose it is", () => {
    const html = renderToStaticMarkup(createElement(ProblemText, { problem: { own: null, quoted: SAY } }));
    expect(html).toContain(translate('en', 'app.engineQuoted'));
    expect(html).toMatch(/<figure class="quoted-words"[^>]*>.*<blockquote><pre>SECURITY NOTICE/);
    expect(unquotedText(html)).not.toContain('SECURITY');
  });

  it("draws a policy's failure in the page's words with the policy's error quoted", () => {
    const notes = notesOfThrowingPolicy();
    expect(notes).toHaveLength(1);
    expect(policyFailure(notes[0])).toEqual({ ms: '0.000', error: `the policy does not load: Error: ${SAY}` });
    expect(policyFailure('at 1.000 ms: CPU 3 offline not done: it was not online')).toBeNull();
    const html = renderToStaticMarkup(createElement(RunNotes, { notes }));
    expect(html).toContain(translate('en', 'notes.policyFailed', { ms: '0.000' }));
    expect(html).toContain(
      `<q class="quoted-words" data-testid="quoted-words">the policy does not load: Error: ${SAY}`,
    );
    expect(unquotedText(html)).not.toContain('SECURITY');
  });
});
