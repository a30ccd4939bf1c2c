// Writing a JavaScript policy in the scenario editor of the built app: kind
// 'ext' is offered and starts from the global FIFO in CodeMirror (fetched
// only then, in its own chunk; axe finds nothing), a syntax error typed and
// the engine's message are marked in the code, a starter replaces typed code
// only once asked, the file written carries the source and the watchdog, and
// without the chunk a plain textarea does the job. Screenshots at 1280×720
// and 1920×1080.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { hook, openLab, settled, shots, type Lab } from './harness';
import { axeViolations } from './axe';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1280, height: 720 });
});
afterAll(async () => lab?.close());

const starter = (id: string) =>
  readFileSync(join(import.meta.dirname, '..', '..', 'wasm-core', 'policies', `${id}.js`), 'utf8');

/** The scenario the editor would apply, read from its JSON tab (then back to the form). */
async function draftPolicy(): Promise<Record<string, unknown>> {
  const page = lab.page;
  await page.getByTestId('tab-json').click();
  const text = await page.locator('.ed-json textarea').inputValue();
  await page.getByTestId('tab-form').click();
  return (JSON.parse(text) as { policy: Record<string, unknown> }).policy;
}

describe('a JavaScript policy in the editor', () => {
  it('loads CodeMirror only when kind ext is chosen, starting from the global FIFO', async () => {
    const page = lab.page;
    const chunks = () =>
      page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name.replace(/.*\//, '')));
    expect((await chunks()).some((n) => n.startsWith('policy-code'))).toBe(false);
    await page.getByTestId('open-editor').click();
    await page.getByTestId('editor').waitFor();
    expect(await page.getByTestId('policy-source').count()).toBe(0);
    await page.locator('[data-field="policy.kind"]').selectOption('ext');
    await page.locator('[data-testid=policy-code] .cm-editor').waitFor();
    expect((await chunks()).some((n) => n.startsWith('policy-code'))).toBe(true);
    // The starter is in the code (CodeMirror draws its lines), highlighted, with line numbers.
    const content = page.locator('[data-testid=policy-code] .cm-content');
    await settled(
      async () => (await content.textContent()) ?? '',
      (t) => t.includes('function select_cpu'),
    );
    expect(await page.locator('[data-testid=policy-code] .cm-lineNumbers .cm-gutterElement').count()).toBeGreaterThan(
      10,
    );
    expect(await page.getByTestId('starter-global-fifo').getAttribute('aria-pressed')).toBe('true');
    expect(await content.getAttribute('data-field')).toBe('policy.source');
    const policy = await draftPolicy();
    expect(policy).toEqual({ kind: 'ext', source: starter('global-fifo') });
    await page.locator('[data-testid=policy-code] .cm-editor').waitFor();
    await page.getByTestId('policy-source').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'policy-editor-1280.png') });
    expect(await axeViolations(page)).toEqual([]);
  });

  it('marks a syntax error at its line, inline', async () => {
    const page = lab.page;
    const content = page.locator('[data-testid=policy-code] .cm-content');
    await content.click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nfunction dispatch(cpu, prev) {\n  scx.dsq_move_to_local(;\n}\n');
    const mark = page.locator('[data-testid=policy-code] .cm-lintRange-error');
    await mark.first().waitFor();
    // The underline sits on the line typed, under the token acorn stopped at.
    const marked = page.locator('[data-testid=policy-code] .cm-line', { has: page.locator('.cm-lintRange-error') });
    expect((await marked.textContent())?.trim()).toBe('scx.dsq_move_to_local(;'); // indented by the editor as typed
    expect(await mark.textContent()).toBe(';');
    expect(await page.locator('[data-testid=policy-code] .cm-lint-marker-error').count()).toBe(1);
    // Hovering the gutter's marker shows acorn's message.
    await page.locator('[data-testid=policy-code] .cm-lint-marker-error').hover();
    await page.locator('.cm-tooltip-lint').waitFor();
    expect(await page.locator('.cm-tooltip-lint').textContent()).toContain('Unexpected token');
    await page.screenshot({ path: join(shots, 'policy-editor-syntax.png') });
    // And the scenario is not called valid: the draft counts the syntax error, and Apply waits for a fix.
    await settled(
      async () => (await page.getByTestId('editor-apply').isDisabled()) === true,
      (off) => off,
      10000,
    );
    expect(await page.getByTestId('editor-problems').textContent()).toContain(
      'SyntaxError: Unexpected token (line 17)',
    );
    await page.mouse.move(0, 0);
    // Escape in the code stays in the code: the dialog (and what was typed) stays open.
    await page.keyboard.press('Escape');
    expect(await page.getByTestId('editor').count()).toBe(1);
  });

  it('asks before a starter replaces typed code, then replaces it', async () => {
    const page = lab.page;
    await page.getByTestId('starter-weighted-vtime').click();
    const confirm = page.getByTestId('starter-confirm');
    await confirm.waitFor();
    expect(await confirm.textContent()).toContain('Weighted vtime');
    await page.screenshot({ path: join(shots, 'policy-editor-confirm.png') });
    await page.getByTestId('starter-keep').click();
    expect(await confirm.count()).toBe(0);
    expect((await draftPolicy()).source).toContain('scx.dsq_move_to_local(;');

    await page.getByTestId('starter-weighted-vtime').click();
    await page.getByTestId('starter-replace').click();
    expect(await page.locator('[data-testid=policy-code] .cm-lintRange-error').count()).toBe(0);
    expect(await page.getByTestId('starter-weighted-vtime').getAttribute('aria-pressed')).toBe('true');
    await page.locator('[data-field="policy.watchdog_ms"]').fill('500');
    expect(await draftPolicy()).toEqual({ kind: 'ext', source: starter('weighted-vtime'), watchdog_ms: 500 });
    // An untouched starter is swapped for another without a question.
    await page.getByTestId('starter-percpu-rr').click();
    expect(await page.getByTestId('starter-confirm').count()).toBe(0);
    await settled(
      async () => (await page.locator('[data-testid=policy-code] .cm-content').textContent()) ?? '',
      (t) => t.includes('Per-CPU round robin'),
    );
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.getByTestId('policy-source').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'policy-editor-1920.png') });
  });

  it("shows the engine's message about the source in the code", async () => {
    const page = lab.page;
    await page.locator('[data-testid=policy-code] .cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Delete');
    // No source at all: the engine's check says so, at the field and on the code's first line.
    await page.getByTestId('msg-policy.source').waitFor();
    expect(await page.getByTestId('msg-policy.source').textContent()).toContain('needs the policy');
    const marker = page.locator('[data-testid=policy-code] .cm-lint-marker-error');
    await marker.waitFor();
    await marker.hover();
    await page.locator('.cm-tooltip-lint').waitFor();
    expect(await page.locator('.cm-tooltip-lint').textContent()).toContain(
      "kind 'ext' needs the policy's JavaScript source",
    );
    await page.mouse.move(0, 0);
    // Empty, so a starter fills it without asking.
    await page.getByTestId('starter-global-fifo').click();
    expect(await page.getByTestId('starter-confirm').count()).toBe(0);
    await page.getByTestId('msg-policy.source').waitFor({ state: 'detached' });
    expect(await marker.count()).toBe(0);
  });

  it('leaving kind ext drops an untouched starter', async () => {
    const page = lab.page;
    await page.locator('[data-field="policy.kind"]').selectOption('cfs');
    await page.getByTestId('policy-source').waitFor({ state: 'detached' });
    expect(await draftPolicy()).toEqual({ kind: 'cfs' });
    await page.getByTestId('editor-close').click();
  });

  it('speaks Chinese too', async () => {
    const page = lab.page;
    await page.getByTestId('lang-pick').selectOption('zh');
    await page.getByTestId('open-editor').click();
    await page.locator('[data-field="policy.kind"]').selectOption('ext');
    await page.locator('[data-testid=policy-code] .cm-editor').waitFor();
    expect(await page.getByTestId('starter-global-fifo').textContent()).toContain('全局 FIFO');
    await page.getByTestId('policy-source').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'policy-editor-zh.png') });
    await page.getByTestId('editor-close').click();
    await page.getByTestId('lang-pick').selectOption('en');
  });

  it('applies the policy written, and the lab runs it', async () => {
    const page = lab.page;
    await page.getByTestId('open-editor').click();
    await page.locator('[data-field="policy.kind"]').selectOption('ext');
    await page.locator('[data-testid=policy-code] .cm-editor').waitFor();
    await page.getByTestId('starter-percpu-rr').click();
    await settled(
      async () => (await page.getByTestId('editor-status').textContent()) ?? '',
      (t) => /valid/.test(t),
      10000,
    );
    await page.getByTestId('editor-apply').click();
    await page.getByTestId('editor').waitFor({ state: 'detached', timeout: 20000 });
    const applied = JSON.parse(await hook<string>(page, 'scenarioJson')) as { policy: unknown };
    expect(applied.policy).toEqual({ kind: 'ext', source: starter('percpu-rr') });
    await hook(page, 'runUntil', 50e6);
    const view = await hook<{ now_ns: number; tasks: { name: string; sum_exec_ns: number }[] }>(page, 'view');
    expect(view.now_ns).toBe(50e6);
    expect(view.tasks.filter((t) => t.sum_exec_ns > 0).length).toBeGreaterThan(1);
  });
});

describe('without the code editor', () => {
  it('keeps a plain text area when its chunk cannot be fetched', async () => {
    // A browser of its own with no service worker (which would serve the chunk from its copy) and the
    // chunk's fetch failing: as offline before the code editor was ever loaded.
    const browser = await chromium.launch({
      executablePath: '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
    });
    try {
      const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1280, height: 720 } });
      await context.route(/\/policy-code-[^/]*\.js$/, (r) => r.abort());
      const page = await context.newPage();
      await page.goto(lab.url);
      await page.getByTestId('btn-step').waitFor();
      await page.getByTestId('open-editor').click();
      await page.locator('[data-field="policy.kind"]').selectOption('ext');
      const plain = page.getByTestId('policy-code-plain');
      await settled(
        () => plain.inputValue(),
        (v) => v === starter('global-fifo'),
      );
      await page.getByText('The code editor did not load').waitFor();
      expect(await page.locator('.cm-editor').count()).toBe(0);
      await plain.fill('function enqueue(p, f) { scx.dsq_insert(p, scx.DSQ_GLOBAL); }');
      expect(await plain.inputValue()).toContain('DSQ_GLOBAL);');
      expect(await page.getByTestId('starter-percpu-rr').count()).toBe(1);
    } finally {
      await browser.close();
    }
  });
});
