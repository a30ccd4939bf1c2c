// npm run bench: engine throughput natively and in wasm (Node), per preset,
// with the wasm/native ratio, and the built bundle sizes gzipped. Prints
// figures; it asserts nothing (budgets are judged by people, not timed tests).
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { initSync, Simulator, presetList, presetScenario } from '../wasm-core/pkg/schedlab_core.js';

const root = join(import.meta.dirname, '..');
const repeat = 3;
const native = execFileSync(join(root, 'wasm-core/target/release/bench'), ['--json', '--repeat', String(repeat)], { encoding: 'utf8' })
  .trim()
  .split('\n')
  .map((l) => JSON.parse(l));

initSync({ module: readFileSync(join(root, 'wasm-core/pkg/schedlab_core_bg.wasm')) });
const rows = [];
for (const { name } of JSON.parse(presetList())) {
  const json = presetScenario(name);
  let best = Infinity;
  let events = 0;
  let simS = 0;
  for (let i = 0; i < repeat; i++) {
    const sim = new Simulator(json);
    const t = performance.now();
    sim.run_until(sim.duration_ns());
    best = Math.min(best, (performance.now() - t) / 1e3);
    events = JSON.parse(sim.metrics_json()).events;
    simS = sim.duration_ns() / 1e9;
    sim.free();
  }
  const n = native.find((r) => r.scenario === name);
  rows.push({
    scenario: name,
    cpus: n.cpus,
    'sim s': simS,
    events,
    'native events/s': Math.round(n.events / n.wall_s),
    'native sim/wall': `${(n.sim_s / n.wall_s).toFixed(1)}x`,
    'wasm events/s': Math.round(events / best),
    'wasm/native time': (best / n.wall_s).toFixed(2),
  });
}
console.table(rows);

const gi = rows.find((r) => r.scenario === 'group-imbalance-make');
if (gi) {
  const nativeMsPer10s = (10 / Number(gi['native sim/wall'].replace('x', ''))) * 1e3;
  console.log(
    `budget: 10 simulated s of group-imbalance-make (64 CPUs, HZ 250) natively ≤ 100 ms: ${nativeMsPer10s.toFixed(1)} ms ` +
      `(${nativeMsPer10s <= 100 ? 'holds' : 'NOT met'}); wasm within 1.5x of native in Node: ${gi['wasm/native time']}x`,
  );
}

const gz = (f) => gzipSync(readFileSync(f)).length;
const assets = join(root, 'dist/assets');
try {
  const files = readdirSync(assets).map((f) => join(assets, f)).filter((f) => statSync(f).isFile());
  const sum = (ext) => files.filter((f) => f.endsWith(ext)).reduce((a, f) => a + gz(f), 0);
  const wasm = sum('.wasm');
  const js = sum('.js');
  console.log(`bundle (gzipped): wasm ${(wasm / 1024).toFixed(1)} KB (budget 300 KB: ${wasm <= 300 * 1024 ? 'holds' : 'NOT met'}), JS ${(js / 1024).toFixed(1)} KB (budget 400 KB: ${js <= 400 * 1024 ? 'holds' : 'NOT met'})`);
} catch {
  console.log('bundle sizes: run `npm run build` first');
}
