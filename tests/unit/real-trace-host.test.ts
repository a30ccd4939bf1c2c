// A real trace in the engine worker's host, joined in-process (every request
// checked as the worker checks it): opened from its
// text it answers as a load with its topology, its frames carry the trace's
// CPUs in every view the page draws, its report is `schedsim real-trace`'s,
// the cursor moves through the recording, what needs the model's state is
// refused with a reason, and the file reader refuses an oversized blob by
// its size and a binary one as not text.
import { beforeAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { initSync } from '../../wasm-core/pkg/schedlab_core.js';
import { EngineHost } from '../../src/engine/host';
import { checkRequest } from '../../src/engine/request-check';
import { EngineClient, type Port } from '../../src/engine/client';
import type { Frame, FrameQuery } from '../../src/engine/frame';
import type { FromWorker, Loaded } from '../../src/engine/protocol';
import { readTraceText, TraceTooBig } from '../../src/engine/trace-file';
import { RealRun } from '../../src/engine/real-run';
import { forEachSlice } from '../../src/engine/run-slices';
import { execFileSync } from 'node:child_process';

const root = join(import.meta.dirname, '..', '..');
const cli = join(root, 'wasm-core', 'target', 'release', 'schedsim');
const fixturePath = (name: string) => join(root, 'wasm-core', 'tests', 'fixtures', 'real', name);
const fixture = (name: string) => readFileSync(join(root, 'wasm-core', 'tests', 'fixtures', 'real', name), 'utf8');
beforeAll(() => {
  initSync({ module: readFileSync(join(root, 'wasm-core', 'pkg', 'schedlab_core_bg.wasm')) });
});

function connect(): EngineClient {
  const later = (f: () => void) => setTimeout(f, 0);
  let toPage: ((m: FromWorker) => void) | null = null;
  const host = new EngineHost((m) => later(() => toPage?.(m)), later);
  const port: Port = { postMessage: (m) => later(() => host.handle(checkRequest(m))), onmessage: null };
  const client = new EngineClient(port);
  toPage = (m) => port.onmessage?.({ data: m });
  return client;
}

const query: FrameQuery = {
  cpu: 0,
  gantt: { spanNs: 1e9, endNs: null },
  report: true,
  rows: 50,
  history: true,
  held: { gen: -1, names: 0, historyKey: null },
  partner: null,
};

describe('a real trace in the engine host', () => {
  it('reports every fixture in wasm exactly as `schedsim real-trace --json` does', () => {
    // Every trace among the fixtures (the scripts beside them made some of them).
    const names = readdirSync(fixturePath('')).filter((f) => f.endsWith('.txt'));
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) {
      const native = JSON.parse(
        execFileSync(cli, ['real-trace', fixturePath(name), '--json'], { encoding: 'utf8' }),
      ) as unknown;
      const run = new RealRun(fixture(name), name);
      expect(JSON.parse(run.realReportJson())).toEqual(native);
      run.dispose();
    }
  });

  for (const name of ['two-hogs.txt', 'trace-cmd-report.txt', 'perf-script.txt']) {
    it(`draws ${name} as the page draws a simulation`, async () => {
      const c = connect();
      const a = await c.request<Loaded>({ op: 'open-trace', name, text: fixture(name) }, query);
      const f = a.frame as Frame;
      const n = a.value.topology.cpus.length;
      expect(a.value.trace?.cpus).toBe(n);
      expect(f.view.cpus.length).toBe(n);
      expect(f.finished).toBe(true);
      expect(f.nowNs).toBe(f.durationNs);
      const slices: { cpu: number; pid: number; endNs: number }[] = [];
      forEachSlice(f.slices, (cpu, pid, _s, endNs) => slices.push({ cpu, pid, endNs }));
      expect(new Set(slices.map((s) => s.cpu)).size).toBe(n);
      expect(f.history?.nrRunning.length).toBe((f.history?.buckets ?? 0) * n);
      expect(f.report?.cpus.length).toBe(n);
      expect(f.recentEvents.length).toBeGreaterThan(0);
      expect(f.tasks?.rows.length).toBeGreaterThan(0);
      // The workload's wakeup latency, as the report's quantiles say.
      for (const cdf of f.cdfs ?? []) {
        const p = f.report?.processes.find((x) => x.tgid === cdf.tgid);
        expect(p?.wakeup_latency_ns?.[3]).toBe(cdf.quantiles[cdf.quantiles.length - 1]);
      }
      expect((f.cdfs ?? []).length).toBe(f.report?.processes.filter((p) => p.wakeup_latency_ns !== null).length);
      // Every slice's task has a name.
      for (const s of slices) expect(f.newNames[s.pid]).toBeTruthy();
      const real = JSON.parse((await c.request<string>({ op: 'read', read: { kind: 'real-report' } })).value) as {
        report: { cpus: unknown[] };
      };
      expect(real.report.cpus.length).toBe(n);

      // The cursor moves through the recording, back and forward.
      const half = Math.round(f.durationNs / 2);
      const back = (await c.request({ op: 'command', command: { kind: 'seek-time', ns: half } }, query)).frame as Frame;
      expect(back.nowNs).toBe(half);
      expect(back.events).toBeLessThan(f.events);
      forEachSlice(back.slices, (_c, _p, _s, endNs) => expect(endNs).toBeLessThanOrEqual(half));
      // What needs the model is refused with the reason.
      await expect(c.request({ op: 'job', job: { kind: 'next-mark', mark: 'decision' } })).rejects.toThrow(
        'only for simulations',
      );
      await expect(c.request({ op: 'read', read: { kind: 'chrome-trace' } })).rejects.toThrow('only for simulations');
    });
  }

  it('keeps the run it had when a trace is damaged, naming the line', async () => {
    const c = connect();
    await c.request<Loaded>({ op: 'open-trace', name: 'a', text: fixture('two-hogs.txt') }, query);
    await expect(
      c.request(
        { op: 'open-trace', name: 'b', text: fixture('two-hogs.txt').replace('prev_pid=13348', 'prev_pid=x') },
        query,
      ),
    ).rejects.toThrow(/^line \d+/);
    const f = (await c.request({ op: 'frame' }, query)).frame as Frame;
    expect(f.view.cpus.length).toBe(2);
  });

  it('reads a file refused by its size unread, and a binary one as not text', async () => {
    await expect(readTraceText(new Blob(['x'.repeat(11)]), 10)).rejects.toBeInstanceOf(TraceTooBig);
    await expect(readTraceText(new Blob([new Uint8Array([0x50, 0xff, 0xfe, 0x00])]), 10)).rejects.toThrow('not text');
    expect(await readTraceText(new Blob(['# tracer: nop\n']), 100)).toBe('# tracer: nop\n');
  });
});
