// npm run bugs: each Wasted Cores preset run four ways with the native CLI —
// stock Linux 4.1 (all four bugs), 4.1 with only that preset's fix (the
// paper's experiment: a stock kernel against one patch), all four fixes, and
// Linux 6.12 as it ships (the same workload, `kernel` 6.12, no bug switches:
// what a decade of upstream work made of it) —
// printing the affected application's completion time and wasted core time of
// each, the slowdown of stock against the one-fix kernel beside the paper's
// figure, and the sanity checker's verdicts. A preset whose slowdown its own
// fix does not remove puts its effect on the wrong mechanism: the last column
// says whether the one-fix kernel recovers (most of) what all fixes recover.
// Figures only; the tests assert directions.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const cli = join(import.meta.dirname, '..', 'wasm-core', 'target', 'release', 'schedsim');
// preset, application, its bug's switch, the paper's slowdown of the stock kernel against the fixed one
// (seed 000: make 13 % slower; lu 13x; NAS under numactl up to 27x; TPC-H query 18 22 %; lu 138x after a
// hotplug, the smallest NAS slowdown 4x).
const presets = [
  ['group-imbalance-make', 'make', 'group_imbalance', '1.13'],
  ['group-imbalance-lu', 'lu', 'group_imbalance', '13'],
  ['group-construction-numactl', 'lu', 'group_construction', 'up to 27'],
  ['overload-on-wakeup-db', 'db', 'overload_on_wakeup', '1.22 (TPC-H Q18)'],
  ['missing-domains-hotplug', 'app', 'missing_domains', '4 to 138'],
];
const dir = mkdtempSync(join(tmpdir(), 'schedlab-bugs-'));
const run = (name, bugs) => {
  const scenario = JSON.parse(execFileSync(cli, ['preset', name], { encoding: 'utf8' }));
  if (bugs === '6.12') {
    scenario.kernel = '6.12';
    delete scenario.bugs;
  } else scenario.bugs = bugs;
  const file = join(dir, `${name}-${typeof bugs === 'string' ? bugs : Object.keys(bugs)[0]}.json`);
  writeFileSync(file, JSON.stringify(scenario));
  return JSON.parse(execFileSync(cli, ['run', file, '--json'], { encoding: 'utf8' }));
};
const ms = (ns) => (ns === null || ns === undefined ? 'not done' : (ns / 1e6).toFixed(1));
const rows = [];
for (const [preset, app, bug, paper] of presets) {
  const stock = run(preset, 'linux-4.1');
  const one = run(preset, { [bug]: false });
  const all = run(preset, 'linux-4.1-fixed');
  const now = run(preset, '6.12');
  const done = (r) => r.processes.find((p) => p.name === app).completion_ns;
  const [s, o, a, n] = [done(stock), done(one), done(all), done(now)];
  // Of what all fixes recover, the share the preset's own fix recovers.
  const own = s && o && a && s !== a ? (s - o) / (s - a) : null;
  rows.push({
    preset,
    app,
    'stock ms': ms(s),
    'own fix ms': ms(o),
    'all fixes ms': ms(a),
    '6.12 ms': ms(n),
    'stock/own fix': s && o ? (s / o).toFixed(2) : '-',
    paper,
    'wasted ms stock/own/all/6.12': `${ms(stock.wasted_core_ns)} / ${ms(one.wasted_core_ns)} / ${ms(all.wasted_core_ns)} / ${ms(now.wasted_core_ns)}`,
    'checker stock/own/all/6.12': `${stock.sanity_violations.length}/${one.sanity_violations.length}/${all.sanity_violations.length}/${now.sanity_violations.length}`,
    'own fix recovers': own === null ? '-' : `${(own * 100).toFixed(0)} %`,
  });
}
console.table(rows);
