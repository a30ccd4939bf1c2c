// npm run fidelity: the model beside this host's kernel on a suite sized for a
// small machine (scripts/fidelity/*.json), each through `schedsim fidelity
// FILE --json`, the model on the kernel generation nearest the host's (6.12 for
// a 5.x or 6.x host, 4.1 before: `schedsim fidelity` chooses it and notes the
// version difference) under the policy that matches the host kernel (eevdf
// from 6.6, cfs before), and one table of model vs real with relative errors. A
// benchmark that reports, not a test: nothing here passes or fails on a figure.
// Needs root and tracefs (the real runner's own needs); without them it says
// what is missing and exits 0. The suite scales to the host: one hog per CPU
// beside the sleeper, two stress and two sysbench threads per CPU.
//
// A row may run its model apart from the host (its fifth field: `set`, what
// the model's scenario changes; `why`, the reason; `note`): a scenario the
// suite's generation refuses (real-time processes on 6.12) runs `schedsim run`
// on the model's settings and `schedsim real` on the host, and every line of
// it carries the reason it is modelled so, within ±10 % or not. (No row needs it
// since 6.12's real-time and deadline classes and its fair server are modelled.)
//
// `npm run fidelity -- WORD` runs only the rows whose label or scenario name contains WORD (any case).
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, release, tmpdir } from 'node:os';
import { join } from 'node:path';
import { REASONS, reasonFor } from './fidelity-reasons.mjs';

const root = join(import.meta.dirname, '..');
const suiteDir = join(import.meta.dirname, 'fidelity');
const cli = join(root, 'wasm-core', 'target', 'release', 'schedsim');

const missing = [];
if (process.platform !== 'linux') missing.push('Linux');
if (process.getuid?.() !== 0) missing.push('root (sudo npm run fidelity)');
let filesystems = '';
try {
  filesystems = readFileSync('/proc/filesystems', 'utf8');
} catch {
  // not Linux: already noted
}
if (!filesystems.includes('tracefs')) missing.push('a kernel with tracefs');
if (missing.length > 0) {
  console.log(`npm run fidelity: this host lacks ${missing.join(', ')}; nothing was run (a report, not a test).`);
  process.exit(0);
}

const [major, minor] = release()
  .split('.')
  .map((n) => parseInt(n, 10));
const eevdf = major > 6 || (major === 6 && minor >= 6);
const policy = eevdf ? 'eevdf' : 'cfs';
const cpus = availableParallelism();

execFileSync('cargo', ['build', '--release', '--bin', 'schedsim'], { cwd: join(root, 'wasm-core'), stdio: 'inherit' });

const load = (name) => JSON.parse(readFileSync(join(suiteDir, `${name}.json`), 'utf8'));
const threads = (s, proc, n) => {
  s.processes.find((p) => p.name === proc).threads = n;
  return s;
};

// Metrics: [label, unit, of(process report, window seconds, every process's report)].
// `part` (a process's share of the scenario's CPU time) holds up on a host whose other
// tasks take CPU time the model's machine does not have; absolute times do not.
const part = ['part', '%', (p, _s, all) => (100 * p.cpu_time_ns) / all.reduce((t, q) => t + q.cpu_time_ns, 0)];
const cpuMs = ['cpu', 'ms', (p) => p.cpu_time_ns / 1e6];
const waitMs = ['wait', 'ms', (p) => p.wait_time_ns / 1e6];
const switches = ['switches', '/s', (p, s) => (p.nvcsw + p.nivcsw) / s];
const voluntary = ['nvcsw', '/s', (p, s) => p.nvcsw / s];
const involuntary = ['nivcsw', '/s', (p, s) => p.nivcsw / s];
const p50 = ['wake p50', 'us', (p) => (p.wakeup_latency_ns ? p.wakeup_latency_ns[0] / 1e3 : null)];
const p99 = ['wake p99', 'us', (p) => (p.wakeup_latency_ns ? p.wakeup_latency_ns[2] / 1e3 : null)];
// A process pinned to one CPU: its CPU time over the window, as a share of that CPU.
const ofItsCpu = ['of its CPU', '%', (p, s) => p.cpu_time_ns / 1e7 / s];
// An RR task's runs end at its slice or sooner (preempted, throttled, another class's turn), never later
// while the other waits: the longest is the slice as applied. The mean (CPU time over switches) is the
// typical turn, every cut counted, and moves with where the cuts fall in the window.
const longestRun = ['longest run', 'ms', (p) => p.longest_run_ns / 1e6];
const meanRun = ['mean run', 'ms', (p) => (p.nvcsw + p.nivcsw > 0 ? p.cpu_time_ns / 1e6 / (p.nvcsw + p.nivcsw) : null)];
// A deadline process's CPU time per period of its reservation: its CPU time over the periods the window holds
// (the measure `schedsim real` reports as a deadline process's runtime per period, for a process that lives
// through the window).
const perPeriod = (periodMs) => ['runtime/period', 'ms', (p, s) => p.cpu_time_ns / 1e6 / ((s * 1e3) / periodMs)];

/** One CPU hog per process: `free` unpinned ones, and `pinned` ones on CPU 0. */
const hogs = (name, free, pinned) => ({
  name,
  version: 1,
  seed: 1,
  machine: { preset: 'host' },
  autogroup: false,
  policy: { kind: 'eevdf' },
  duration_ms: 4000,
  processes: [
    ...Array.from({ length: pinned }, (_, i) => ({ name: `pinned${i}`, cpus: '0', template: 'cpu-hog' })),
    ...Array.from({ length: free }, (_, i) => ({ name: `hog${i}`, template: 'cpu-hog' })),
  ],
});
const eachPart = (names) => Object.fromEntries(names.map((n) => [n, [part]]));

// [label, scenario, { process: metrics }, { "process metric" or "process *": reason key }]
const suite = [
  ['nice shares, 1 CPU', load('nice-one-cpu'), { nice0: [part], nice5: [part], nice10: [part] }],
  ...[1, 2, 4, 8, 16, 32].map((m) => [
    `greedy threads m=${m}`,
    threads(load('greedy-threads'), 'B', m),
    { A: [part, cpuMs], B: [cpuMs] },
  ]),
  [
    'sleeper beside hogs',
    threads(load('sleeper-beside-hogs'), 'hogs', cpus),
    { sleeper: [p50, p99, waitMs] },
    { 'sleeper wake p50': 'floor' },
  ],
  [
    'pipe ping-pong, pinned',
    load('pingpong-pinned'),
    { ping: [voluntary], pong: [voluntary] },
    { 'ping *': 'costs', 'pong *': 'costs' },
  ],
  [
    'pipe ping-pong, across',
    load('pingpong-across'),
    { ping: [voluntary, p50], pong: [voluntary] },
    { 'ping nvcsw': 'costs', 'pong nvcsw': 'costs', 'ping wake p50': 'floor' },
  ],
  [
    'stress vs sysbench',
    threads(threads(load('stress-vs-sysbench'), 'stress', 2 * cpus), 'sysbench', 2 * cpus),
    { stress: [involuntary, part], sysbench: [switches, part] },
    { 'stress *': 'start', 'sysbench *': 'start' },
  ],
  // Balancing on the host's CPUs: one more hog than CPUs, each its own process, share the CPUs only if
  // the balancer keeps moving one (each pass finds one CPU with two); a hog pinned to CPU 0 beside free
  // ones leaves them the other CPUs only if the balancer moves them off CPU 0.
  [`balance: ${cpus + 1} hogs on ${cpus} CPUs`, hogs('balance-hogs', cpus + 1, 0), eachPart(hogNames(cpus + 1))],
  [
    `balance: a pinned hog beside ${cpus} free`,
    hogs('balance-pinned', cpus, 1),
    eachPart(['pinned0', ...hogNames(cpus)]),
  ],
  // Real-time beside the host (issue 38): what a FIFO hog leaves a fair hog on its CPU, and the RR slice.
  ['FIFO hog beside a fair hog', load('fifo-beside-fair'), { fair: [ofItsCpu] }],
  [
    'two RR hogs, one priority',
    load('rr-pair'),
    { rr0: [longestRun, meanRun], rr1: [longestRun, meanRun] },
    { 'rr0 mean run': 'rrcuts', 'rr1 mean run': 'rrcuts' },
  ],
  // Deadline beside the host (issue 38): a deadline hog's share, its runtime per period and its longest run,
  // beside a fair hog on every CPU (a deadline task may not be pinned, on the host as in the model).
  [
    'deadline hog beside fair hogs',
    threads(load('dl-runtime-per-period'), 'fair', cpus),
    { dl: [ofItsCpu, perPeriod(100), longestRun] },
    { 'dl longest run': 'dltick' },
  ],
  ...(eevdf
    ? [
        [
          'EEVDF short slice',
          load('eevdf-short-slice'),
          { latency: [p50, p99, part], hog: [part] },
          { 'latency wake p50': 'floor' },
        ],
      ]
    : []),
];

const word = process.argv[2]?.toLowerCase();
const chosen = word
  ? suite.filter(([label, scenario]) => `${label} ${scenario.name}`.toLowerCase().includes(word))
  : suite;
if (chosen.length === 0) {
  console.log(`npm run fidelity -- ${word}: no row's label or scenario name contains it; nothing was run.`);
  process.exit(0);
}

function hogNames(n) {
  return Array.from({ length: n }, (_, i) => `hog${i}`);
}

const dir = mkdtempSync(join(tmpdir(), 'schedlab-fidelity-'));
const fmt = (v) => (v === null || v === undefined ? '-' : Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(2));
const relErr = (m, r) => {
  if (m === null || r === null) return '-';
  if (m === 0) return r === 0 ? '0%' : '-';
  const e = ((r - m) / m) * 100;
  return `${e >= 0 ? '+' : ''}${e.toFixed(0)}%`;
};
const rows = [['scenario', 'process', 'metric', 'model', 'real', 'rel err', 'why']];
// The reasons the rows beyond ±10 % carry, lettered in the order met.
const lettered = new Map();
const within = { in: 0, named: 0, unexplained: 0 };
const letter = (key) => {
  if (!lettered.has(key)) lettered.set(key, String.fromCharCode(97 + lettered.size));
  return `[${lettered.get(key)}]`;
};
/**
 * The row's mark: '' within ±10 %, the reason's letter beyond it, '?' where no reason is named. A row whose
 * model runs apart (`modelWhy`) always carries that reason's letter, and it names the gap beyond ±10 %
 * when the row has no reason of its own.
 */
const mark = (m, r, key, modelWhy) => {
  const always = modelWhy ? letter(modelWhy) : '';
  if (m === null || r === null || m === undefined || r === undefined) return always;
  const e = m === 0 ? (r === 0 ? 0 : Infinity) : Math.abs((r - m) / m);
  if (e <= 0.1) return (within.in++, always);
  if (!key && !modelWhy) return (within.unexplained++, '?');
  within.named++;
  return key ? `${always}${letter(key)}` : always;
};
/** A command's JSON output, or why there is none (its message). */
const runJson = (args) => {
  const run = spawnSync(cli, args, { encoding: 'utf8' });
  if (run.status !== 0) return { error: (run.stderr || run.stdout).trim().split('\n').join(' ') };
  return { value: JSON.parse(run.stdout) };
};
// Each note with the scenarios that gave it (printed once, labelled unless every scenario gave it).
const notes = new Map();
const note = (text, label) => notes.set(text, [...(notes.get(text) ?? []), label]);
const started = Date.now();
// CPU time the host's other tasks took during the real runs, against the CPUs' time.
let othersNs = 0;
let capacityNs = 0;
let kernel = release();
for (const [label, scenario, wanted, reasons, apart] of chosen) {
  scenario.policy = { ...scenario.policy, kind: policy };
  const file = join(dir, `${scenario.name}.json`);
  writeFileSync(file, JSON.stringify(scenario));
  let run;
  if (apart) {
    // The model on its own settings, then the host on the scenario as written.
    const modelFile = join(dir, `${scenario.name}.model.json`);
    writeFileSync(modelFile, JSON.stringify({ ...scenario, ...apart.set }));
    const model = runJson(['run', modelFile, '--json']);
    const real = model.error ? model : runJson(['real', file, '--json']);
    run = real.error
      ? real
      : { value: { model: model.value, real: real.value.report, notes: [apart.note, ...real.value.notes] } };
  } else {
    run = runJson(['fidelity', file, '--json']);
  }
  if (run.error) {
    rows.push([label, '-', 'not run', '-', '-', '-', '']);
    note(run.error, label);
    continue;
  }
  const { model, real, notes: runNotes } = run.value;
  kernel = real.kernel;
  othersNs += real.cpus.reduce((sum, c) => sum + c.busy_ns - c.workload_ns, 0);
  capacityNs += real.window_ns * real.cpus.length;
  for (const n of runNotes) note(n, label);
  const modelS = scenario.duration_ms / 1e3;
  const realS = real.window_ns / 1e9;
  for (const [proc, metrics] of Object.entries(wanted)) {
    const mp = model.processes.find((p) => p.name === proc);
    const rp = real.processes.find((p) => p.name === proc);
    for (const [name, unit, of] of metrics) {
      const [m, r] = [of(mp, modelS, model.processes), of(rp, realS, real.processes)];
      rows.push([
        label,
        proc,
        `${name} ${unit}`,
        fmt(m),
        fmt(r),
        relErr(m, r),
        mark(m, r, reasonFor(reasons, proc, name), apart?.why),
      ]);
    }
  }
}
rmSync(dir, { recursive: true, force: true });

const widths = rows[0].map((_, c) => Math.max(...rows.map((r) => r[c].length)));
const line = (r) => r.map((cell, c) => (c < 3 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ');
const generation = major >= 5 ? '6.12' : '4.1';
console.log(
  `schedlab fidelity: the model (Linux ${generation}, policy ${policy}) beside Linux ${kernel} on this host, ${cpus} CPUs`,
);
console.log(line(rows[0]));
console.log(widths.map((w) => '-'.repeat(w)).join('  '));
for (const r of rows.slice(1)) console.log(line(r));
for (const [key, letter] of lettered) console.log(`[${letter}] ${REASONS[key]}`);
console.log(
  `${within.in} rows within ±10 %, ${within.named} beyond with a named reason, ${within.unexplained} beyond unexplained (?)`,
);
for (const [text, labels] of notes) {
  console.log(labels.length === chosen.length ? `note: ${text}` : `note (${labels.join('; ')}): ${text}`);
}
if (capacityNs > 0) {
  const pct = ((othersNs / capacityNs) * 100).toFixed(0);
  console.log(
    `note: other tasks of the host took ${pct} % of the CPUs' time during the real runs (the model's machine runs only the scenario)`,
  );
}
console.log(`(${((Date.now() - started) / 1e3).toFixed(0)} s; rel err = (real - model) / model)`);
