// Exports in Chromium: every view panel's PNG and SVG download (PNG
// signature and a decodable image; SVG parses and has shapes), the run's
// Perfetto trace JSON and metrics CSV downloads, matching the engine.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hook, loadPreset, openLab, shots, type Lab } from './harness';

let lab: Lab;
beforeAll(async () => {
  lab = await openLab({ width: 1400, height: 1000 });
});
afterAll(async () => lab?.close());

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

async function save(testId: string, name: string): Promise<{ path: string; file: string }> {
  const [download] = await Promise.all([
    lab.page.waitForEvent('download'),
    lab.page.getByTestId(testId).first().click(),
  ]);
  const path = join(shots, `export-${name}`);
  await download.saveAs(path);
  return { path, file: download.suggestedFilename() };
}

/** Parses an SVG in the page and counts its drawn shapes, text and embedded images. */
async function svgStats(text: string) {
  return lab.page.evaluate((t) => {
    const doc = new DOMParser().parseFromString(t, 'image/svg+xml');
    const err = doc.querySelector('parsererror');
    return {
      error: err ? err.textContent : null,
      root: doc.documentElement.nodeName,
      shapes: doc.querySelectorAll('rect, circle, line, path, polygon').length,
      texts: Array.from(doc.querySelectorAll('text')).map((e) => e.textContent ?? ''),
      images: doc.querySelectorAll('image').length,
      width: Number(doc.documentElement.getAttribute('width')),
    };
  }, text);
}

/** Decodes a PNG in the page: its size in pixels (0 when it does not decode). */
async function pngSize(bytes: Buffer): Promise<{ w: number; h: number }> {
  return lab.page.evaluate(async (b64) => {
    const img = new Image();
    img.src = `data:image/png;base64,${b64}`;
    try {
      await img.decode();
      return { w: img.naturalWidth, h: img.naturalHeight };
    } catch {
      return { w: 0, h: 0 };
    }
  }, bytes.toString('base64'));
}

describe('exports', () => {
  it('saves every view as PNG and SVG', async () => {
    await loadPreset(lab.page, 'group-imbalance-make');
    await hook(lab.page, 'runUntil', 400e6);
    await lab.page.getByTestId('btn-step').click();
    const views: { name: string; canvas: boolean; minShapes: number }[] = [
      { name: 'topology', canvas: false, minShapes: 64 },
      { name: 'runqueue', canvas: false, minShapes: 1 },
      { name: 'lanes', canvas: true, minShapes: 0 },
      { name: 'heatmaps', canvas: true, minShapes: 0 },
      { name: 'metrics', canvas: false, minShapes: 10 },
    ];
    for (const v of views) {
      const png = await save(`export-png-${v.name}`, `${v.name}.png`);
      expect(png.file).toBe(`schedlab-${v.name}.png`);
      const bytes = readFileSync(png.path);
      expect(Array.from(bytes.subarray(0, 8)), v.name).toEqual(PNG_SIGNATURE);
      const size = await pngSize(bytes);
      expect(size.w, v.name).toBeGreaterThan(200);
      expect(size.h, v.name).toBeGreaterThan(40);

      const svg = await save(`export-svg-${v.name}`, `${v.name}.svg`);
      const stats = await svgStats(readFileSync(svg.path, 'utf8'));
      expect(stats.error, v.name).toBeNull();
      expect(stats.root).toBe('svg');
      expect(stats.shapes, v.name).toBeGreaterThanOrEqual(v.minShapes);
      // Canvas views embed their canvases as pictures; SVG views are shapes only.
      if (v.canvas) expect(stats.images, v.name).toBeGreaterThan(0);
      else expect(stats.images, v.name).toBe(0);
      expect(stats.texts.length, v.name).toBeGreaterThan(0);
    }
    // The topology's cells carry the engine's CPU numbers as text.
    const topo = await svgStats(readFileSync(join(shots, 'export-topology.svg'), 'utf8'));
    expect(topo.texts.some((t) => t.startsWith('63 ·'))).toBe(true);
    // Inlined styles: a standalone SVG keeps the colours (no stylesheet in the file).
    expect(readFileSync(join(shots, 'export-runqueue.svg'), 'utf8')).toMatch(/fill:\s*rgb\(/);
    await lab.page.screenshot({ path: join(shots, 'exports-page.png') });
  });

  it('saves the trace as Perfetto JSON and the metrics as CSV, both from the engine at the cursor', async () => {
    // A fresh page: headless Chromium's download limiter starts refusing a
    // page's downloads after a burst of them (the test above makes ten).
    await lab.page.goto(lab.url);
    await lab.page.getByTestId('btn-step').waitFor();
    await loadPreset(lab.page, 'group-imbalance-make');
    await hook(lab.page, 'runUntil', 400e6);
    const hash = await hook<string>(lab.page, 'traceHash');
    const trace = await save('export-trace', 'trace.json');
    expect(trace.file).toBe('schedlab-group-imbalance-make.trace.json');
    const t = JSON.parse(readFileSync(trace.path, 'utf8')) as {
      traceEvents: { ph: string; name: string }[];
      otherData: Record<string, string>;
    };
    expect(t.otherData.trace_hash).toBe(hash);
    expect(t.traceEvents.filter((e) => e.ph === 'X').length).toBeGreaterThan(100);
    expect(t.traceEvents.some((e) => e.ph === 'i' && e.name === 'sched_migrate_task')).toBe(true);
    await lab.page.getByTestId('export-note').waitFor();
    expect(await lab.page.getByTestId('export-note').textContent()).toContain('trace.json');

    const report = await hook<{ trace_hash: string; processes: unknown[] }>(lab.page, 'report');
    const csv = await save('export-csv', 'metrics.csv');
    expect(csv.file).toBe('schedlab-group-imbalance-make.metrics.csv');
    const text = readFileSync(csv.path, 'utf8');
    expect(text.startsWith('metric,value\n')).toBe(true);
    expect(text).toContain(`trace_hash,${report.trace_hash}`);
    const procs = text.trim().split('\n\n')[1].split('\n');
    expect(procs).toHaveLength(1 + report.processes.length);
    await lab.page.getByTestId('run-exports').screenshot({ path: join(shots, 'run-exports.png') });
  });
});
