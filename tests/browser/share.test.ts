// Share links in Chromium: the sender runs, steps, selects a CPU, colours by
// load, compares with the fixed kernel and takes a link; a fresh browser
// (its own profile and server) opens it and shows the same engine state, the
// same partner and the same topology pixels. Damaged and hostile links open
// an explanation (translated) and the default scenario. The library lists
// every preset, searches in the current language and loads what is clicked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { hook, loadPreset, openLab, settled, shots, type Lab } from './harness';
import { encodeShare } from '../../src/share/share-link';

interface View {
  now_ns: number;
  events: number;
  cpus: { cpu: number }[];
}
interface Partner {
  nowNs: number;
  traceHash: string;
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

const description = async (page: Page) => (await page.locator('.description').textContent()) ?? '';
/** The topology's pixels once its transitions have finished. */
async function topologyShot(page: Page, file: string): Promise<Buffer> {
  await page.waitForTimeout(600);
  await page.getByTestId('topology').screenshot({ path: join(shots, file), animations: 'disabled' });
  return readFileSync(join(shots, file));
}
/** The fraction of pixels that differ between two PNGs of the same size (decoded by the browser). */
async function differingPixels(page: Page, a: Buffer, b: Buffer): Promise<number> {
  return page.evaluate(
    async ([x, y]) => {
      // Decoded from bytes, not fetched from a data: URL: the app's connect-src allows only its own origin.
      const decode = (b64: string) =>
        createImageBitmap(new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], { type: 'image/png' }));
      const [ia, ib] = await Promise.all([decode(x), decode(y)]);
      if (ia.width !== ib.width || ia.height !== ib.height) return 1;
      const pixels = (img: ImageBitmap) => {
        const c = new OffscreenCanvas(img.width, img.height);
        const g = c.getContext('2d') as OffscreenCanvasRenderingContext2D;
        g.drawImage(img, 0, 0);
        return g.getImageData(0, 0, img.width, img.height).data;
      };
      const [da, db] = [pixels(ia), pixels(ib)];
      let n = 0;
      for (let i = 0; i < da.length; i += 4)
        if (da[i] !== db[i] || da[i + 1] !== db[i + 1] || da[i + 2] !== db[i + 2]) n++;
      return n / (ia.width * ia.height);
    },
    [a.toString('base64'), b.toString('base64')],
  );
}

/** Opens a URL as a new document (not a hash change) in the receiver's browser. */
async function openFresh(page: Page, url: string): Promise<void> {
  await page.goto('about:blank');
  await page.goto(url);
  await page.getByTestId('btn-step').waitFor();
}

describe('share links', () => {
  it('a fresh browser opening the link shows exactly what the sender saw', async () => {
    const p = sender.page;
    await loadPreset(p, 'group-imbalance-make');
    await p.getByTestId('compare-pick').selectOption('bugs:linux-4.1-fixed');
    await p.getByTestId('compare').waitFor();
    await hook(p, 'runUntil', 700e6);
    for (let i = 0; i < 3; i++) await p.getByTestId('btn-step').click();
    // The lab's machine (compare mode draws both runs' machines too).
    const machine = p.getByTestId('topology');
    await machine.locator('[data-testid=cpu-cell][data-cpu="11"]').click();
    await machine.getByTestId('colour-load').click();
    await settled(
      () => machine.locator('[data-testid=cpu-cell].selected').getAttribute('data-cpu'),
      (c) => c === '11',
    );

    await p.getByTestId('share-button').click();
    const link = await p.getByTestId('share-url').inputValue();
    expect(link).toMatch(/#s1\.[A-Za-z0-9_-]+$/);
    expect(new URL(p.url()).hash).toBe(new URL(link).hash);
    // The clipboard is not granted to this headless profile: the page says so and keeps the field.
    await p.getByTestId('share-status').waitFor();
    await p.evaluate(() => window.scrollTo(0, 0));
    await p.locator('header.top').screenshot({ path: join(shots, 'share-header.png') });
    const senderView = await hook<View>(p, 'view');
    const senderHash = await hook<string>(p, 'traceHash');
    const senderPartner = await hook<Partner>(p, 'partner');
    const senderShot = await topologyShot(p, 'share-sender.png');
    await p.screenshot({ path: join(shots, 'share-sender-page.png') });

    const r = receiver.page;
    await openFresh(r, link);
    const view = await settled(
      () => hook<View>(r, 'view'),
      (v) => v.events === senderView.events,
      10_000,
    );
    expect(view).toEqual(senderView);
    // The replay ran in slices, refreshing the views as while playing; once
    // its progress bar is gone every view shows the final state.
    await settled(
      () => r.getByTestId('progress').count(),
      (n) => n === 0,
    );
    await r.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    expect(await hook<string>(r, 'traceHash')).toBe(senderHash);
    expect(await hook<Partner>(r, 'partner')).toEqual(senderPartner);
    expect(await description(r)).toContain('group-imbalance-make');
    expect(await r.getByTestId('topology').locator('[data-testid=cpu-cell].selected').getAttribute('data-cpu')).toBe(
      '11',
    );
    expect(await r.getByTestId('topology').getByTestId('topology-svg').getAttribute('data-colour-by')).toBe('load');
    expect(await r.getByTestId('compare-pick').inputValue()).toBe('bugs:linux-4.1-fixed');
    expect(await r.getByTestId('link-problem').count()).toBe(0);
    const receiverShot = await topologyShot(r, 'share-receiver.png');
    await r.screenshot({ path: join(shots, 'share-receiver-page.png') });
    // The same drawing: the topology's DOM is identical, and so are its
    // pixels but for anti-aliasing (the header above differs by the sender's
    // link field, which can shift the view by a fraction of a pixel).
    expect(await r.getByTestId('topology').innerHTML()).toBe(await p.getByTestId('topology').innerHTML());
    expect(await differingPixels(r, senderShot, receiverShot)).toBeLessThan(0.01);
  });

  it('a link made at a lesson step opens that step at its anchor, whatever cursor it carries', async () => {
    const r = receiver.page;
    const scenario = await (async () => {
      await openFresh(r, receiver.url);
      await loadPreset(r, 'group-imbalance-make');
      return hook<string>(r, 'scenarioJson');
    })();
    const link = encodeShare({
      scenario,
      view: {
        cursor: { event: 40, ns: 1e6 },
        cpu: 0,
        colourBy: 'load',
        partner: '',
        lesson: { id: 'group-imbalance', step: 1 },
      },
    });
    if (!link.ok) throw new Error('could not make the test link');
    await openFresh(r, `${receiver.url}#${link.fragment}`);
    await settled(
      async () => (await r.getByTestId('lesson-step').count()) > 0,
      (x) => x,
      10_000,
    );
    expect(await r.getByTestId('lesson-step').textContent()).toBe('Step 2 of 7');
    // Step 2's anchor is 300 ms (the link's own cursor, 1 ms, loses to it).
    expect(
      await settled(
        async () => Number(await r.getByTestId('sim-time').textContent()),
        (t) => t === 300,
        10_000,
      ),
    ).toBe(300);
  });

  it('damaged and hostile links open an explanation and the default scenario', async () => {
    const r = receiver.page;
    const bad = encodeShare({
      scenario: JSON.stringify({
        version: 1,
        name: 'bad-nice',
        duration_ms: 100,
        machine: { preset: 'uniprocessor' },
        processes: [{ name: 'x', nice: 99, program: [{ run_us: 10 }] }],
      }),
      view: { cursor: { event: 0, ns: 0 }, cpu: 0, colourBy: 'load', partner: '', lesson: null },
    });
    if (!bad.ok) throw new Error('could not make the test link');
    const cases: [string, string, string | null][] = [
      ['garbage', '#garbage<script>alert(1)</script>', 'not-a-link'],
      ['oversized', `#s1.${'A'.repeat(40_000)}`, 'too-long'],
      ['prefix-garbage', '#s1.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'bad-compression'],
      ['future-version', '#s9.AAAA', 'unknown-version'],
      ['engine-refuses', `#${bad.fragment}`, null],
    ];
    for (const [name, hash, code] of cases) {
      await openFresh(r, receiver.url + hash);
      const banner = r.getByTestId('link-problem');
      await banner.waitFor();
      if (code) expect(await r.getByTestId('link-problem-reason').getAttribute('data-code'), name).toBe(code);
      else expect(await banner.textContent()).toContain('processes[0].nice');
      expect(await banner.textContent()).toContain('default scenario');
      await settled(
        () => description(r),
        (t) => t.includes('cfs-nice-levels'),
      );
      expect(await description(r), name).toContain('cfs-nice-levels');
      expect((await hook<View>(r, 'view')).events).toBe(0);
      // The broken fragment is dropped, so a reload does not meet it again.
      expect(new URL(r.url()).hash).toBe('');
      await banner.screenshot({ path: join(shots, `share-hostile-${name}.png`) });
    }
    // Dismissable.
    await r.getByTestId('link-problem').getByRole('button').click();
    expect(await r.getByTestId('link-problem').count()).toBe(0);
  });

  it('refuses to make a link over the size limit, saying so', async () => {
    const p = sender.page;
    let x = 2463534242;
    const rnd = () => ((x ^= x << 13), (x ^= x >>> 17), (x ^= x << 5), (x >>> 0).toString(36));
    // Names that do not compress: 200 processes with 190 random characters each.
    const processes = Array.from({ length: 200 }, () => ({
      name: Array.from({ length: 30 }, rnd).join('').slice(0, 190),
      program: [{ run_us: 1000 }],
    }));
    const json = JSON.stringify({
      version: 1,
      name: 'random-names',
      duration_ms: 10,
      machine: { preset: 'uniprocessor' },
      processes,
    });
    expect(await hook<boolean>(p, 'loadScenarioJson', json)).toBe(true);
    await p.getByTestId('share-button').click();
    const refused = p.getByTestId('share-refused');
    await refused.waitFor();
    expect(await refused.textContent()).toMatch(/link of \d+ characters, more than the 32000/);
    expect(await p.getByTestId('share-url').count()).toBe(0);
    await p.evaluate(() => window.scrollTo(0, 0));
    await p.locator('header.top').screenshot({ path: join(shots, 'share-refused.png') });
  });

  it('a hash change to a broken link in Chinese explains it in Chinese', async () => {
    const r = receiver.page;
    await r.getByTestId('lang-pick').selectOption('zh');
    await r.evaluate(() => {
      location.hash = '#s1.@@@';
    });
    const banner = r.getByTestId('link-problem');
    await banner.waitFor();
    expect(await banner.textContent()).toContain('无法打开此链接');
    expect(await banner.textContent()).toContain('已改为加载默认场景');
    await r.screenshot({ path: join(shots, 'share-hostile-zh.png') });
    await r.getByTestId('lang-pick').selectOption('en');
  });
});

describe('scenario library', () => {
  it('lists every preset, searches in the current language and loads the clicked one', async () => {
    const p = receiver.page;
    const presets = await p
      .locator('[data-testid=preset-pick] option')
      .evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value).filter((v) => v));
    await p.getByTestId('library-button').click();
    const lib = p.getByTestId('library');
    await lib.waitFor();
    expect(
      await lib.getByTestId('library-card').evaluateAll((cs) => cs.map((c) => c.getAttribute('data-preset'))),
    ).toEqual(presets);
    await p.screenshot({ path: join(shots, 'library.png') });
    await lib.getByTestId('library-search').fill('hotplug');
    await settled(
      () => lib.getByTestId('library-card').count(),
      (n) => n === 2,
    );
    expect(
      await lib.getByTestId('library-card').evaluateAll((cs) => cs.map((c) => c.getAttribute('data-preset'))),
    ).toEqual(['missing-domains-hotplug', 'missing-domains-hotplug-fixed']);
    await lib.getByTestId('library-search').fill('no such words anywhere');
    expect(
      await settled(
        () => lib.getByTestId('library-card').count(),
        (n) => n === 0,
      ),
    ).toBe(0);

    await p.getByTestId('lang-pick').selectOption('zh');
    await lib.getByTestId('library-search').fill('热插拔');
    expect(
      await settled(
        () => lib.getByTestId('library-card').count(),
        (n) => n === 2,
      ),
    ).toBe(2);
    await lib.getByTestId('library-search').fill('公平');
    const fair = await settled(
      () => lib.getByTestId('library-card').count(),
      (n) => n > 0 && n < presets.length,
    );
    expect(fair).toBeGreaterThan(0);
    await p.screenshot({ path: join(shots, 'library-zh.png') });
    await lib.getByTestId('library-search').fill('');
    await lib.locator('[data-preset="o1-vs-cfs"]').getByTestId('library-open').click();
    await settled(
      () => description(p),
      (t) => t.includes('o1-vs-cfs'),
    );
    expect(await description(p)).toContain('o1-vs-cfs');
    expect(await p.getByTestId('library').count()).toBe(0);
    await p.getByTestId('lang-pick').selectOption('en');
  });
});
