// The scenario editor in the built app: the engine's message appears next to
// the field it names and blocks Apply; a fixed scenario applied runs in the
// lab; export downloads a file that re-imports to the identical scenario; the
// JSON tab and the form stay in sync; a bad file's message is shown; the page
// loads the engine module only for the editor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hook, openLab, settled, shots, type Lab } from './harness';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1400, height: 950 });
});
afterAll(async () => lab?.close());

const field = (id: string) => lab.page.locator(`[data-field="${id}"]`);
const msg = (id: string) => lab.page.getByTestId(`msg-${id}`);
const applied = async () => JSON.parse(await hook<string>(lab.page, 'scenarioJson')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- the scenario's JSON, read at any depth

async function openEditor() {
  await lab.page.getByTestId('open-editor').click();
  await lab.page.getByTestId('editor').waitFor();
}

async function status(want: RegExp) {
  return settled(
    async () => (await lab.page.getByTestId('editor-status').textContent()) ?? '',
    (t) => want.test(t),
  );
}

describe('scenario editor', () => {
  it('is the only reason the page itself loads the engine module (the worker has its own)', async () => {
    // The page's own resource timings: a worker's fetches are in the worker's timeline, not here.
    const wasmFetches = () =>
      lab.page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).length);
    await lab.page.getByTestId('btn-play').waitFor();
    expect(await wasmFetches()).toBe(0);
    await openEditor();
    expect(await wasmFetches()).toBe(1);
    await lab.page.getByTestId('editor-close').click();
  });

  it('shows the engine message at the field, blocks Apply, and applies the fixed scenario', async () => {
    const page = lab.page;
    const before = await hook<string>(page, 'traceHash');
    await openEditor();
    await page.screenshot({ path: join(shots, 'editor-open.png') });
    await field('processes[0].nice').fill('99');
    await msg('processes[0].nice').waitFor();
    // The message sits in the very row and cell of the field it names.
    const cell = page.getByTestId('process-0').locator('td', { has: field('processes[0].nice') });
    expect(await cell.getByTestId('msg-processes[0].nice').textContent()).toContain(
      'must be between -20 and 19 (got 99)',
    );
    expect(await field('processes[0].nice').getAttribute('aria-invalid')).toBe('true');
    expect(await status(/problem/)).toMatch(/1 problem/);
    expect(await page.getByTestId('editor-apply').isDisabled()).toBe(true);
    await page.getByTestId('process-0').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'editor-invalid-nice.png') });
    // The lab still runs the old scenario.
    expect(await hook<string>(page, 'traceHash')).toBe(before);

    await field('processes[0].nice').fill('-5');
    await field('processes[0].threads').fill('3');
    expect(await status(/valid/)).toMatch(/valid/);
    expect(await msg('processes[0].nice').count()).toBe(0);
    await page.getByTestId('editor-apply').click();
    await page.getByTestId('editor').waitFor({ state: 'detached' });
    const s = await applied();
    expect(s.processes[0]).toMatchObject({ name: 'hog-nice0', nice: -5, threads: 3 });
    await hook(page, 'runUntil', 50e6);
    const view = await hook<{ tasks: { name: string; nice: number }[] }>(page, 'view');
    const hogs = view.tasks.filter((t) => t.name.startsWith('hog-nice0'));
    expect(hogs).toHaveLength(3);
    expect(hogs.every((t) => t.nice === -5)).toBe(true);
  });

  it('exports a file that re-imports to the identical scenario', async () => {
    const page = lab.page;
    await openEditor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('editor-export').click()]);
    expect(download.suggestedFilename()).toBe('cfs-nice-levels.json');
    const path = await download.path();
    const text = readFileSync(path, 'utf8');
    expect(JSON.parse(text)).toEqual(await applied());
    expect(text).toContain('\n  "name": "cfs-nice-levels"'); // pretty-printed

    // Change the scenario, then import the exported file: back to identical.
    await field('duration_ms').fill('777');
    await page.getByTestId('editor-import').setInputFiles(path);
    await settled(
      async () => page.getByTestId('editor').textContent(),
      (t) => (t ?? '').includes('cfs-nice-levels.json'),
    );
    expect(await field('duration_ms').inputValue()).toBe('10000');
    await status(/valid/);
    await page.getByTestId('editor-apply').click();
    await page.getByTestId('editor').waitFor({ state: 'detached' });
    expect(await hook<string>(page, 'scenarioJson')).toBe(text);
    expect(await applied()).toEqual(JSON.parse(text));
  });

  it('keeps the JSON tab and the form in sync and shows why an imported file cannot run', async () => {
    const page = lab.page;
    await openEditor();
    await field('seed').fill('42');
    await page.getByTestId('tab-json').click();
    const json = page.getByTestId('editor-json');
    expect(JSON.parse(await json.inputValue()).seed).toBe(42);
    const edited = JSON.parse(await json.inputValue());
    edited.processes[1].nice = 30;
    await json.fill(JSON.stringify(edited, null, 2));
    await page.getByTestId('editor-problems').waitFor();
    expect(await page.getByTestId('editor-problems').textContent()).toContain('processes[1].nice');
    await page.screenshot({ path: join(shots, 'editor-json.png') });
    // The problem list takes you to the field in the form.
    await page.getByTestId('editor-problems').getByRole('button').first().click();
    expect(await field('processes[1].nice').inputValue()).toBe('30');
    expect(await msg('processes[1].nice').textContent()).toContain('got 30');

    const dir = mkdtempSync(join(tmpdir(), 'schedlab-editor-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(
      bad,
      JSON.stringify({ ...edited, processes: [{ ...edited.processes[0], nice: 0, cpus: '0-9' }], duration_ms: 0 }),
    );
    await page.getByTestId('editor-import').setInputFiles(bad);
    await msg('processes[0].cpus').waitFor();
    expect(await msg('duration_ms').textContent()).toContain('must be between 1');
    expect(await page.getByTestId('editor-apply').isDisabled()).toBe(true);
    await page.screenshot({ path: join(shots, 'editor-bad-import.png') });
    await page.getByTestId('editor-close').click();
    expect((await applied()).duration_ms).toBe(10000);
  });

  it('edits a custom NUMA machine with a distance grid and a hotplug event', async () => {
    const page = lab.page;
    await openEditor();
    await page.getByTestId('machine-custom').check();
    await field('machine.nodes').fill('2');
    await field('machine.cores_per_node').fill('2');
    await page.getByTestId('distance-own').check();
    await field('machine.distance[0][1]').fill('30');
    expect(await field('machine.distance[1][0]').inputValue()).toBe('30');
    await page
      .getByTestId('ed-events')
      .getByRole('button', { name: /add|添加/i })
      .click();
    await field('events[0].at_ms').fill('5');
    await field('events[0].cpu_offline').fill('9');
    await page.getByTestId('event-0').scrollIntoViewIfNeeded();
    expect(await page.getByTestId('msg-events[0]').textContent()).toContain('CPU 9 does not exist');
    await field('events[0].cpu_offline').fill('3');
    await status(/valid/);
    await page.getByTestId('ed-machine').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'editor-machine.png') });
    await page.getByTestId('editor-apply').click();
    await page.getByTestId('editor').waitFor({ state: 'detached' });
    const s = await applied();
    expect(s.machine).toEqual({
      nodes: 2,
      cores_per_node: 2,
      threads_per_core: 1,
      distance: [
        [10, 30],
        [30, 10],
      ],
    });
    expect(s.events).toEqual([{ at_ms: 5, cpu_offline: 3 }]);
    expect((await hook<{ cpus: unknown[] }>(page, 'view')).cpus).toHaveLength(4);
  });
});

describe('scenario editor on a richer preset', () => {
  it('shows cgroups with identities, template steps and row actions, in Chinese too', async () => {
    const page = lab.page;
    await page.locator('[data-testid=preset-pick]').selectOption('gi-colocation');
    await settled(
      async () => (await page.locator('.description').textContent()) ?? '',
      (t) => t.includes('gi-colocation'),
    );
    await openEditor();
    expect(await page.getByTestId('steps-0').textContent()).toBe('∞× { sleep ~exp 1 ms; run 100 µs }');
    expect(await page.getByTestId('process-0').textContent()).toContain('identity: highclass');
    await page.getByTestId('duplicate-0').click();
    expect(await field('processes[1].name').inputValue()).toBe('online-0-17');
    await page.getByTestId('remove-1').click();
    expect(await field('processes[1].name').inputValue()).toBe('online-1');
    await status(/valid/);
    await page.getByTestId('ed-cgroups').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'editor-gi-colocation.png') });
    await page.getByTestId('editor-close').click();
    await page.getByTestId('lang-pick').selectOption('zh');
    await openEditor();
    await field('processes[0].nice').fill('-30');
    await msg('processes[0].nice').waitFor();
    expect(await page.getByTestId('editor-status').textContent()).toContain('处问题');
    await page.getByTestId('ed-processes').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'editor-zh.png') });
    await page.getByTestId('editor-close').click();
    await page.getByTestId('lang-pick').selectOption('en');
  });
});
