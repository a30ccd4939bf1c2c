// Every way the cursor moves leaves the headline figures of the new cursor:
// a share link opened in a fresh browser, a jump to the next violation or
// migration (jobs run in slices that read the slow parts in turn), and Pause
// after playing. The metrics strip is compared with the engine's own report,
// read straight from the worker at the same cursor.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { hook, loadPreset, openLab, settled, type Lab } from './harness';

interface Report {
  wasted_core_ns: number;
  migrations: number;
  sanity_violations: unknown[];
}

let sender: Lab;
let receiver: Lab;
beforeAll(async () => {
  sender = await openLab();
  receiver = await openLab();
});
afterAll(async () => {
  await sender?.close();
  await receiver?.close();
});

/**
 * What the strip shows and what the engine reports at the shown cursor. A job's last frame brings its figures
 * with it, so once the progress bar is gone (and the page has painted) the strip must already be right: it is
 * read once, not waited for. After Pause the figures come in a request of their own: `wait` polls for them.
 */
async function strip(page: Page, wait = false) {
  await settled(
    () => page.getByTestId('progress').count(),
    (n) => n === 0,
    20_000,
  );
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  const read = async () => ({
    wasted: (await page.getByTestId('wasted').textContent()) ?? '',
    violations: (await page.getByTestId('violations').textContent()) ?? '',
    migrations: Number(await page.getByTestId('migrations').textContent()),
  });
  const r = await hook<Report>(page, 'report');
  const want = (s: { wasted: string; violations: string; migrations: number }) =>
    s.migrations === r.migrations &&
    s.wasted === `${(r.wasted_core_ns / 1e6).toFixed(3)} ms` &&
    (r.sanity_violations.length === 0) === /no violation/.test(s.violations);
  return { shown: wait ? await settled(read, want) : await read(), report: r };
}

const expectFresh = (s: Awaited<ReturnType<typeof strip>>) => {
  expect(s.shown.migrations).toBe(s.report.migrations);
  expect(s.shown.wasted).toBe(`${(s.report.wasted_core_ns / 1e6).toFixed(3)} ms`);
  expect(s.shown.violations).toContain(
    s.report.sanity_violations.length === 0 ? 'no violation' : String(s.report.sanity_violations.length),
  );
};

describe('the figures follow the cursor', () => {
  it('a share link opened in a fresh browser shows the sender figures, not zeros', async () => {
    const p = sender.page;
    await loadPreset(p, 'group-imbalance-make');
    await hook(p, 'runUntil', 2e9);
    const sent = await strip(p);
    expectFresh(sent);
    expect(sent.report.wasted_core_ns).toBeGreaterThan(0);
    expect(sent.report.migrations).toBeGreaterThan(0);
    await p.getByTestId('share-button').click();
    const link = await p.getByTestId('share-url').inputValue();

    const r = receiver.page;
    await r.goto('about:blank');
    await r.goto(link);
    await r.getByTestId('btn-step').waitFor();
    const at = await hook<{ events: number }>(p, 'view');
    await settled(
      () => hook<{ events: number }>(r, 'view'),
      (v) => v.events === at.events,
      20_000,
    );
    const got = await strip(r);
    expect(got.report).toEqual(sent.report);
    expectFresh(got);
    expect(got.shown).toEqual(sent.shown);
  });

  it('jumping to the next violation and the next migration updates the strip', async () => {
    const p = sender.page;
    await loadPreset(p, 'group-imbalance-make');
    await p.getByTestId('btn-next-violation').click();
    const v = await strip(p);
    expect(v.report.sanity_violations.length).toBeGreaterThan(0);
    expectFresh(v);
    await p.getByTestId('btn-next-migration').click();
    const m = await strip(p);
    expect(m.report.migrations).toBeGreaterThan(v.report.migrations);
    expectFresh(m);
  });

  it('Pause leaves the figures of where playing stopped', async () => {
    const p = sender.page;
    await loadPreset(p, 'group-imbalance-make');
    await p.getByTestId('btn-play').click();
    await settled(
      () => hook<{ now_ns: number }>(p, 'view'),
      (v) => v.now_ns > 300e6,
      20_000,
    );
    await p.getByTestId('btn-play').click();
    expectFresh(await strip(p, true));
  });
});
