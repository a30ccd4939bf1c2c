// A real trace opened in the lab (issue 15, item 5): a committed fixture
// through the "Open trace…" file input draws its CPUs in the lanes and the
// heatmaps, shows the sanity checker's count, says which views exist only for
// simulations, sits beside a simulation in compare mode on one clock, and a
// file past the stated limit is refused by its size, unread. Screenshots at
// 1280×900 and 1280×720 go to test-results/.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeSync, ftruncateSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hook, openLab, root, settled, shots, type Lab } from './harness';

const FIXTURE = join(root, 'wasm-core', 'tests', 'fixtures', 'real', 'two-hogs.txt');

interface RealReport {
  format: string;
  report: { scenario: string; cpus: { cpu: number }[] };
}
interface Report {
  sanity_violations: unknown[];
  cpus: { cpu: number }[];
}

let lab: Lab;
beforeAll(async () => {
  lab = await openLab();
});
afterAll(async () => lab?.close());

async function openTrace(path: string) {
  await lab.page.getByTestId('open-trace').setInputFiles(path);
}

describe('a real trace in the lab', () => {
  it('draws its CPUs in the lanes and heatmaps, runs the checker, and says what only simulations have', async () => {
    await openTrace(FIXTURE);
    await lab.page.getByTestId('trace-banner').waitFor();
    const real = JSON.parse(await hook<string>(lab.page, 'realReport')) as RealReport;
    expect(real.format).toBe('ftrace text');
    expect(real.report.scenario).toBe('two-hogs');
    const nrCpus = real.report.cpus.length;
    expect(nrCpus).toBe(2);
    await expect.poll(() => lab.page.getByTestId('trace-banner').textContent()).toContain('two-hogs.txt');

    // Lanes: one per CPU of the trace, with its run slices.
    const gantt = lab.page.getByTestId('gantt');
    const slices = await settled(
      async () => Number(await gantt.getAttribute('data-slices')),
      (n) => n > 0,
    );
    expect(slices).toBeGreaterThan(0);
    expect(await lab.page.getByTestId('gantt-legend').locator('li').count()).toBeGreaterThan(1);
    // Heatmaps: a row per CPU.
    expect(Number(await lab.page.getByTestId('heatmap-nr_running').getAttribute('data-rows'))).toBe(nrCpus);
    // The checker ran over the trace: its count is the report's.
    const report = await hook<Report>(lab.page, 'report');
    expect(report.cpus.length).toBe(nrCpus);
    const n = report.sanity_violations.length;
    await expect
      .poll(() => lab.page.getByTestId('violations').textContent())
      .toBe(n === 0 ? 'no violation' : `${n} violation(s)`);
    expect(Number(await lab.page.getByTestId('heatmap-marks').getAttribute('data-violations'))).toBe(n);
    // The event log words the trace's records; names are text.
    expect(await lab.page.getByTestId('events').locator('li').count()).toBeGreaterThan(0);
    // Views of the model's state say they are only for simulations; the controls are off, with the reason.
    expect(await lab.page.getByTestId('only-sim').count()).toBeGreaterThanOrEqual(3);
    expect(await lab.page.getByTestId('btn-step').isDisabled()).toBe(true);
    expect(await lab.page.getByTestId('btn-play').isDisabled()).toBe(true);
    // A share link cannot carry it: the file is offered instead.
    await expect.poll(() => lab.page.getByTestId('trace-share').textContent()).toContain('cannot carry a trace');
    expect(await lab.page.getByTestId('trace-download').getAttribute('download')).toBe('two-hogs.txt');
    // A click on the lanes moves the cursor back in the recording.
    const end = (await hook<{ now_ns: number }>(lab.page, 'cursor')).now_ns;
    await hook(lab.page, 'seekTime', Math.round(end / 2));
    const mid = await settled(
      () => hook<{ now_ns: number }>(lab.page, 'cursor'),
      (c) => c.now_ns < end,
    );
    expect(mid.now_ns).toBe(Math.round(end / 2));
    await hook(lab.page, 'seekTime', end);
    await settled(
      () => hook<{ now_ns: number }>(lab.page, 'cursor'),
      (c) => c.now_ns === end,
    );
    await lab.page.screenshot({ path: join(shots, 'real-trace-900.png'), fullPage: false });
    await gantt.scrollIntoViewIfNeeded();
    await lab.page.screenshot({ path: join(shots, 'real-trace-lanes-900.png'), fullPage: false });
    await lab.page.getByTestId('heatmaps').screenshot({ path: join(shots, 'real-trace-heatmaps.png') });
    // In Chinese too.
    await lab.page.getByTestId('lang-pick').selectOption('zh');
    await expect.poll(() => lab.page.getByTestId('trace-banner').textContent()).toContain('真实跟踪 two-hogs.txt');
    await lab.page.evaluate(() => window.scrollTo(0, 0));
    await lab.page.screenshot({ path: join(shots, 'real-trace-zh-900.png'), fullPage: false });
    await lab.page.getByTestId('lang-pick').selectOption('en');
    await expect.poll(() => lab.page.getByTestId('trace-banner').textContent()).toContain('Real trace two-hogs.txt');
  });

  it('sits beside a simulation in compare mode, on one clock, with metric deltas', async () => {
    await lab.page.getByTestId('compare-pick').selectOption('preset:greedy-threads');
    await lab.page.getByTestId('compare').waitFor();
    const now = (await hook<{ now_ns: number }>(lab.page, 'cursor')).now_ns;
    const p = await settled(
      () => hook<{ nowNs: number } | null>(lab.page, 'partner'),
      (x) => x !== null && x.nowNs === now,
    );
    expect(p?.nowNs).toBe(now);
    const rows = await settled(
      () => lab.page.getByTestId('compare-row').count(),
      (c) => c > 0,
    );
    expect(rows).toBeGreaterThan(0);
    expect(await lab.page.getByTestId('compare-b').locator('canvas[data-testid=heatmap-nr_running]').count()).toBe(1);
    expect(await lab.page.getByTestId('compare').textContent()).toContain('two-hogs.txt');
    await lab.page.getByTestId('compare').screenshot({ path: join(shots, 'real-trace-compare.png') });
    await lab.page.setViewportSize({ width: 1280, height: 720 });
    await lab.page.evaluate(() => window.scrollTo(0, 0));
    await lab.page.screenshot({ path: join(shots, 'real-trace-720.png'), fullPage: false });
    await lab.page.getByTestId('compare-table').scrollIntoViewIfNeeded();
    await lab.page.screenshot({ path: join(shots, 'real-trace-compare-720.png'), fullPage: false });
    await lab.page.setViewportSize({ width: 1280, height: 900 });
    await lab.page.getByTestId('compare-pick').selectOption('');
  });

  it('puts the scenario the trace recorded, simulated, beside it with per-process deltas', async () => {
    // The fixture's workload (README, "The real kernel"): two hogs at nice 0 and 5 on one CPU for 100 ms.
    const hog = (name: string, nice: number) => ({ name, nice, program: [{ body: [{ run_us: 100000 }] }] });
    const scenario = {
      version: 1,
      name: 'two-hogs',
      duration_ms: 100,
      hz: 1000,
      machine: { preset: 'uniprocessor' },
      policy: { kind: 'cfs' },
      processes: [hog('hog0', 0), hog('hog5', 5)],
    };
    expect(await hook<boolean>(lab.page, 'loadScenarioJson', JSON.stringify(scenario))).toBe(true);
    expect(await lab.page.getByTestId('trace-banner').count()).toBe(0);
    await openTrace(FIXTURE);
    await lab.page.getByTestId('trace-banner').waitFor();
    await lab.page.getByTestId('compare-pick').selectOption('scenario');
    await lab.page.getByTestId('compare').waitFor();
    const share = lab.page.getByTestId('compare-row').filter({ hasText: 'hog0: CPU share' });
    const cells = await settled(
      () => share.locator('td').allTextContents(),
      (c) => c.length === 4 && c[2] !== '—',
    );
    expect(cells[1]).toMatch(/%$/);
    expect(cells[2]).toMatch(/%$/);
    expect(cells[3]).toMatch(/^[+−]/);
    await lab.page.getByTestId('compare-table').scrollIntoViewIfNeeded();
    await lab.page.screenshot({ path: join(shots, 'real-trace-same-scenario-900.png'), fullPage: false });
    // Closing the trace puts the scenario back in the lab, and this partner goes with the trace.
    await lab.page.getByTestId('trace-close').click();
    await expect.poll(() => lab.page.getByTestId('trace-banner').count()).toBe(0);
    await expect.poll(() => lab.page.getByTestId('compare').count()).toBe(0);
  });

  it('refuses a file past the stated limit by its size, unread, and a damaged trace with its line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'schedlab-trace-'));
    const big = join(dir, 'huge.txt');
    // Sparse: 64 MiB and one byte on disk costs nothing.
    const fd = openSync(big, 'w');
    ftruncateSync(fd, 64 * 2 ** 20 + 1);
    closeSync(fd);
    await openTrace(FIXTURE);
    await lab.page.getByTestId('trace-banner').waitFor();
    await openTrace(big);
    const error = lab.page.getByTestId('error');
    await expect
      .poll(() => error.textContent())
      .toContain('huge.txt was not read: it is 64.0 MiB, and the page opens traces of at most 64.0 MiB');
    // The open trace stays.
    expect(await lab.page.getByTestId('trace-banner').count()).toBe(1);

    const bad = join(dir, 'bad.txt');
    const text = readFileSync(FIXTURE, 'utf8').split('\n');
    const at = text.findIndex((l, i) => i > 12 && l.includes('sched_switch'));
    text[at] = text[at].replace(/prev_pid=\d+/, 'prev_pid=x');
    writeFileSync(bad, text.join('\n'));
    await openTrace(bad);
    await expect.poll(() => error.textContent()).toContain(`line ${at + 1}`);

    // Names in a trace are text: markup in a comm is shown, never run.
    const hostile = '<img src=x onerror="window.__pwned=1">';
    const named = join(dir, 'names.txt');
    writeFileSync(
      named,
      '# entries-in-buffer/entries-written: 2/2   #P:1\n' +
        `x-1 [000] d..2. 1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=${hostile} next_pid=7 next_prio=120\n` +
        'x-7 [000] d..2. 1.002000: sched_switch: prev_comm=x prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n',
    );
    await openTrace(named);
    await expect.poll(() => lab.page.getByTestId('gantt-legend').textContent()).toContain(hostile);
    expect(await lab.page.evaluate(() => document.querySelectorAll('img').length)).toBe(0);
    expect(await lab.page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

    // A file dropped on the page opens as a trace too.
    await lab.page.evaluate(
      (text) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], 'dropped.txt', { type: 'text/plain' }));
        window.dispatchEvent(new DragEvent('dragover', { dataTransfer: dt, cancelable: true }));
        window.dispatchEvent(new DragEvent('drop', { dataTransfer: dt, cancelable: true }));
      },
      readFileSync(FIXTURE, 'utf8'),
    );
    await expect.poll(() => lab.page.getByTestId('trace-banner').textContent()).toContain('Real trace dropped.txt');
    expect(await lab.page.getByTestId('trace-drop').count()).toBe(0);
  });

  it('shows the hidden characters of a trace’s names as their code points, and a scenario holding one is refused', async () => {
    // Issue 35, item 9: a right-to-left override that would show "evilexe.png", a zero-width space inside "worker".
    const evil = 'evil\u202egnp.exe';
    const hidden = 'wor\u200bker';
    const dir = mkdtempSync(join(tmpdir(), 'schedlab-trace-'));
    const named = join(dir, 'bidi.txt');
    writeFileSync(
      named,
      '# entries-in-buffer/entries-written: 3/3   #P:1\n' +
        `x-1 [000] d..2. 1.000000: sched_switch: prev_comm=swapper/0 prev_pid=0 prev_prio=120 prev_state=R ==> next_comm=${evil} next_pid=7 next_prio=120\n` +
        `x-7 [000] d..2. 1.002000: sched_switch: prev_comm=${evil} prev_pid=7 prev_prio=120 prev_state=S ==> next_comm=${hidden} next_pid=8 next_prio=120\n` +
        `x-8 [000] d..2. 1.004000: sched_switch: prev_comm=${hidden} prev_pid=8 prev_prio=120 prev_state=S ==> next_comm=swapper/0 next_pid=0 next_prio=120\n`,
    );
    await openTrace(named);
    const legend = lab.page.getByTestId('gantt-legend');
    await expect.poll(() => legend.textContent()).toContain('evil⟨U+202E⟩gnp.exe');
    expect(await legend.textContent()).toContain('wor⟨U+200B⟩ker');
    const marks = legend.getByTestId('hidden-char');
    expect(await marks.count()).toBe(2);
    expect(await marks.first().getAttribute('title')).toContain('U+202E (right-to-left override)');
    // No view of the page holds the characters themselves: the lanes' text alternative, the event log, the tables.
    const raw = await lab.page.evaluate(() => {
      const texts = [document.body.innerText];
      for (const el of document.querySelectorAll('[aria-label], [title]'))
        texts.push(`${el.getAttribute('aria-label') ?? ''} ${el.getAttribute('title') ?? ''}`);
      for (const el of document.querySelectorAll('svg title, svg text')) texts.push(el.textContent ?? '');
      return texts.filter((t) => /[\u202e\u200b]/.test(t)).length;
    });
    expect(raw).toBe(0);
    expect(await lab.page.getByTestId('gantt').getAttribute('aria-label')).toContain('evil⟨U+202E⟩gnp.exe');
    await lab.page.getByTestId('gantt-legend').screenshot({ path: join(shots, 'real-trace-hidden-chars.png') });

    // A scenario (a share link's too) is refused with the character named, before anything shows its name.
    const scenario = {
      version: 1,
      name: 'bidi',
      duration_ms: 10,
      machine: { preset: 'uniprocessor' },
      processes: [{ name: evil, program: [{ run_us: 100 }] }],
    };
    expect(await hook<boolean>(lab.page, 'loadScenarioJson', JSON.stringify(scenario))).toBe(false);
    await expect.poll(() => lab.page.getByTestId('error').textContent()).toContain('processes[0].name');
    expect(await lab.page.getByTestId('error').textContent()).toContain('(U+202E)');
  });
});
