// npm run bugs: for each Wasted Cores preset, run the buggy and the fixed
// variant with the native CLI and print "preset, buggy, fixed, ratio" for
// the affected application's completion time and for wasted core time, plus
// the sanity checker's verdicts. Figures only; the tests assert directions.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cli = join(import.meta.dirname, '..', 'wasm-core', 'target', 'release', 'schedsim');
const presets = [
  ['group-imbalance-make', 'make'],
  ['group-imbalance-lu', 'lu'],
  ['group-construction-numactl', 'lu'],
  ['overload-on-wakeup-db', 'db'],
  ['missing-domains-hotplug', 'app'],
];
const dir = mkdtempSync(join(tmpdir(), 'schedlab-bugs-'));
const run = (name) => {
  const file = join(dir, `${name}.json`);
  writeFileSync(file, execFileSync(cli, ['preset', name], { encoding: 'utf8' }));
  return JSON.parse(execFileSync(cli, ['run', file, '--json'], { encoding: 'utf8' }));
};
const ms = (ns) => (ns === null || ns === undefined ? 'not done' : (ns / 1e6).toFixed(1));
const rows = [];
for (const [preset, app] of presets) {
  const bug = run(preset);
  const fix = run(`${preset}-fixed`);
  const done = (r) => r.processes.find((p) => p.name === app).completion_ns;
  const [b, f] = [done(bug), done(fix)];
  rows.push({
    preset,
    app,
    'buggy done ms': ms(b),
    'fixed done ms': ms(f),
    ratio: b && f ? (b / f).toFixed(2) : '-',
    'wasted ms buggy': ms(bug.wasted_core_ns),
    'wasted ms fixed': ms(fix.wasted_core_ns),
    'checker buggy/fixed': `${bug.sanity_violations.length}/${fix.sanity_violations.length}`,
  });
}
console.table(rows);
