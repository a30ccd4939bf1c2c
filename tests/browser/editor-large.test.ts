// The scenario editor on large inputs (issue 19): a 10,000-process scenario
// opens with only a screenful of rows in the DOM, scrolls to its last
// process, its problem list reaches a row not drawn, and an edit re-renders
// one row and reaches the JSON and the lab;
// a file larger than a scenario may be is refused by its size, unread; a
// multi-megabyte description is shown clipped, with "show all", in the editor
// and in the lab's description line. Timings are logged and bounded only
// generously (the machine may be loaded); the assertions are about the DOM.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hook, openLab, settled, shots, type Lab } from './harness';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1280, height: 720 });
});
afterAll(async () => lab?.close());

const N = 10_000;
const dir = mkdtempSync(join(tmpdir(), 'schedlab-editor-large-'));
const field = (id: string) => lab.page.locator(`[data-field="${id}"]`);
const rowCount = () => lab.page.locator('tr[data-testid^="process-"]').count();
const textLength = () => lab.page.evaluate(() => document.body.textContent?.length ?? 0);
const status = (want: RegExp, timeoutMs = 60_000) =>
  settled(
    async () => (await lab.page.getByTestId('editor-status').textContent()) ?? '',
    (t) => want.test(t),
    timeoutMs,
  );

function bigScenario(): string {
  const processes = Array.from({ length: N }, (_, i) =>
    i % 2 === 0
      ? { name: `p${i}`, nice: (i % 40) - 20, template: 'cpu-hog' }
      : { name: `p${i}`, program: [{ run_us: 1000 + i }, { sleep_us: 500 }] },
  );
  return JSON.stringify(
    { version: 1, name: 'ten-thousand', duration_ms: 100, machine: { preset: 'xeon-gold-5218-2s' }, processes },
    null,
    2,
  );
}

/** Scrolls the process table to its end (rows are measured as drawn, so the end may move) until the last row is in view. */
const scrollToEnd = () =>
  lab.page.getByTestId('process-scroll').evaluate(async (box, last) => {
    for (let i = 0; i < 20; i++) {
      box.scrollTop = box.scrollHeight;
      await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
      const row = box.querySelector(`[data-testid="process-${last}"]`);
      const b = box.getBoundingClientRect();
      const r = row?.getBoundingClientRect();
      if (r && r.top >= b.top && r.bottom <= b.bottom + 1) return true;
    }
    return false;
  }, N - 1);

/** Each drawn process row's React props object, by test id: a row React re-rendered gets a new one. */
const recordRowProps = () =>
  lab.page.evaluate(() => {
    const rows = [...document.querySelectorAll('tr[data-testid^="process-"]')] as unknown as Record<string, unknown>[];
    const key = (r: object) => Object.keys(r).find((k) => k.startsWith('__reactProps$')) as string;
    (window as unknown as { __rowProps: Map<string, unknown> }).__rowProps = new Map(
      rows.map((r) => [(r as unknown as Element).getAttribute('data-testid') as string, r[key(r)]]),
    );
    return rows.length;
  });
const rerenderedRows = () =>
  lab.page.evaluate(() => {
    const before = (window as unknown as { __rowProps: Map<string, unknown> }).__rowProps;
    const rows = [...document.querySelectorAll('tr[data-testid^="process-"]')] as unknown as Record<string, unknown>[];
    const key = (r: object) => Object.keys(r).find((k) => k.startsWith('__reactProps$')) as string;
    const id = (r: object) => (r as unknown as Element).getAttribute('data-testid') as string;
    const kept = rows.filter((r) => before.has(id(r)));
    return { compared: kept.length, changed: kept.filter((r) => before.get(id(r)) !== r[key(r)]).map(id) };
  });

describe('scenario editor on large inputs', () => {
  it('opens 10,000 processes with a screenful of rows, scrolls to the last, finds a far problem, and an edit re-renders one row', async () => {
    const page = lab.page;
    expect(await hook<boolean>(page, 'loadScenarioJson', bigScenario())).toBe(true);
    const t0 = Date.now();
    await page.getByTestId('open-editor').click();
    await page.getByTestId('process-0').waitFor({ timeout: 60_000 });
    const openMs = Date.now() - t0;
    expect(await status(/valid/)).toMatch(/valid/);
    console.log(`editor-large: opened ${N} processes in ${openMs} ms (valid after ${Date.now() - t0} ms)`);
    const drawn = await rowCount();
    expect(drawn).toBeGreaterThan(3);
    expect(drawn).toBeLessThan(200);
    await page.getByTestId('ed-processes').scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(shots, 'editor-large-open.png') });

    // Scroll the table to its end: the last process is drawn, still a screenful.
    await page.getByTestId('ed-processes').scrollIntoViewIfNeeded();
    expect(await scrollToEnd()).toBe(true);
    await settled(rowCount, (n) => n > 3 && n < 200);
    expect(await rowCount()).toBeLessThan(200);
    expect(await field(`processes[${N - 1}].name`).inputValue()).toBe(`p${N - 1}`);
    await page.screenshot({ path: join(shots, 'editor-large-last.png') });

    // A problem far down the table: its entry in the problem list scrolls the table back to the field.
    await field(`processes[${N - 2}].nice`).fill('99');
    await page.getByTestId('editor-problems').waitFor();
    expect(await page.getByTestId('editor-problems').textContent()).toContain(`processes[${N - 2}].nice`);
    await page.getByTestId('process-scroll').evaluate((el) => (el.scrollTop = 0));
    await page.getByTestId(`process-${N - 2}`).waitFor({ state: 'detached' });
    await page.getByTestId('editor-problems').getByRole('button').first().click();
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-field') ?? '');
    expect(await settled(focused, (f) => f === `processes[${N - 2}].nice`)).toBe(`processes[${N - 2}].nice`);
    await page.screenshot({ path: join(shots, 'editor-large-problem.png') });

    // One edit: only its row re-renders; the form, the JSON and the lab get it.
    expect(await recordRowProps()).toBeGreaterThan(3);
    const t1 = Date.now();
    await field(`processes[${N - 2}].nice`).fill('7');
    expect(await field(`processes[${N - 2}].nice`).inputValue()).toBe('7');
    const editMs = Date.now() - t1;
    expect(await status(/valid/)).toMatch(/valid/);
    console.log(`editor-large: a field edit in ${editMs} ms (valid after ${Date.now() - t1} ms)`);
    const { compared, changed } = await rerenderedRows();
    expect(compared).toBeGreaterThan(3);
    expect(changed).toEqual([`process-${N - 2}`]);

    await page.getByTestId('tab-json').click();
    const json = JSON.parse(await page.getByTestId('editor-json').inputValue());
    expect(json.processes).toHaveLength(N);
    expect(json.processes[N - 2]).toMatchObject({ name: `p${N - 2}`, nice: 7 });
    await page.getByTestId('editor-apply').click();
    await page.getByTestId('editor').waitFor({ state: 'detached', timeout: 60_000 });
    const applied = JSON.parse(await hook<string>(page, 'scenarioJson'));
    expect(applied.processes[N - 2].nice).toBe(7);
  });

  it('refuses a 50 MB file by its size, unread, in the editor and the header', async () => {
    const page = lab.page;
    const huge = join(dir, 'huge.json');
    writeFileSync(
      huge,
      JSON.stringify({
        version: 1,
        name: 'huge',
        duration_ms: 100,
        description: 'x'.repeat(50_000_000),
        processes: [{ name: 'a', template: 'cpu-hog' }],
      }),
    );
    await page.getByTestId('open-editor').click();
    await page.getByTestId('editor').waitFor();
    await status(/valid/);
    await page.getByTestId('editor-import').setInputFiles(huge);
    const notice = await settled(
      async () => (await page.getByTestId('editor').textContent()) ?? '',
      (t) => t.includes('was not read'),
    );
    expect(notice).toMatch(/huge\.json was not read: it is 47\.7 MiB, and a scenario file may be at most 8\.0 MiB/);
    expect(await textLength()).toBeLessThan(200_000);
    await page.screenshot({ path: join(shots, 'editor-large-refused.png') });
    await page.getByTestId('editor-close').click();

    await page.getByTestId('open-scenario').setInputFiles(huge);
    await page.getByTestId('error').waitFor();
    expect(await page.getByTestId('error').textContent()).toContain('huge.json was not read');
    expect(JSON.parse(await hook<string>(page, 'scenarioJson')).name).toBe('ten-thousand');
    expect(await textLength()).toBeLessThan(200_000);
  });

  it('shows a 6 MB description clipped, with show all, in the editor and the lab', async () => {
    const page = lab.page;
    const chars = 6_000_000;
    const long = join(dir, 'long-description.json');
    const description = `START ${'lorem ipsum '.repeat(chars / 12)}`.slice(0, chars - 4) + ' END';
    writeFileSync(
      long,
      JSON.stringify(
        {
          version: 1,
          name: 'long-description',
          duration_ms: 100,
          machine: { preset: 'uniprocessor' },
          description,
          processes: [{ name: 'a', template: 'cpu-hog' }],
        },
        null,
        2,
      ),
    );
    await page.getByTestId('open-editor').click();
    await page.getByTestId('editor').waitFor();
    const t0 = Date.now();
    await page.getByTestId('editor-import').setInputFiles(long);
    await settled(
      async () => (await page.getByTestId('editor').textContent()) ?? '',
      (t) => t.includes('Imported long-description.json'),
      60_000,
    );
    console.log(`editor-large: imported a ${chars}-character description in ${Date.now() - t0} ms`);
    const clipped = page.getByTestId('long-description');
    await clipped.waitFor();
    expect(((await clipped.textContent()) ?? '').length).toBeLessThan(5_000);
    expect(await page.getByTestId('long-description-show-all').textContent()).toBe('show all (6,000,000 characters)');
    expect(await textLength()).toBeLessThan(100_000);
    await page.screenshot({ path: join(shots, 'editor-large-description.png') });

    // Show all: the whole text in a box drawn a screenful at a time; its end is reached by scrolling.
    await page.getByTestId('long-description-show-all').click();
    const all = page.getByTestId('long-description-all');
    await all.waitFor();
    expect(((await all.textContent()) ?? '').length).toBeLessThan(100_000);
    expect(await textLength()).toBeLessThan(100_000);
    await all.evaluate((el) => (el.scrollTop = el.scrollHeight));
    expect(
      await settled(
        async () => (await all.textContent()) ?? '',
        (t) => t.endsWith(' END'),
      ),
    ).toMatch(/ END$/);
    await page.screenshot({ path: join(shots, 'editor-large-description-all.png') });
    // Edit all: the whole text as a textarea's value (not DOM text).
    await page.getByTestId('long-description-edit').click();
    const full = page.getByTestId('long-description').locator('textarea');
    expect(await full.evaluate((el) => (el as HTMLTextAreaElement).value.length, undefined, { timeout: 60_000 })).toBe(
      chars,
    );
    expect(await textLength()).toBeLessThan(100_000);
    // The JSON tab holds the file as its value too.
    await page.getByTestId('tab-json').click();
    expect(
      await page.getByTestId('editor-json').evaluate((el) => (el as HTMLTextAreaElement).value.length),
    ).toBeGreaterThan(chars);
    expect(await textLength()).toBeLessThan(100_000);

    expect(await status(/valid/)).toMatch(/valid/);
    await page.getByTestId('editor-apply').click();
    await page.getByTestId('editor').waitFor({ state: 'detached', timeout: 60_000 });
    const line = page.getByTestId('description-text');
    expect(((await line.textContent()) ?? '').length).toBeLessThan(1_000);
    expect(await page.getByTestId('description-text-show-all').textContent()).toBe('show all (6,000,000 characters)');
    expect(await textLength()).toBeLessThan(100_000);
    await page.screenshot({ path: join(shots, 'lab-long-description.png') });
    await page.getByTestId('description-text-show-all').click();
    const lineAll = page.getByTestId('description-text-all');
    await lineAll.evaluate((el) => (el.scrollTop = el.scrollHeight));
    expect(
      await settled(
        async () => (await lineAll.textContent()) ?? '',
        (t) => t.endsWith(' END'),
      ),
    ).toMatch(/ END$/);
    expect(await textLength()).toBeLessThan(100_000);
    await page.screenshot({ path: join(shots, 'lab-long-description-all.png') });
  });
});
