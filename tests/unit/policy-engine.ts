// The wasm engine in this process with sched_ext policies on, as the engine
// worker starts it: the module, then the policy guest (its module read from
// the build, as the worker fetches it) and the host that boots policies in it;
// and the same scenario run by `schedsim run`, to compare.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { initSync, Simulator } from '../../wasm-core/pkg/schedlab_core.js';
import { presetText } from '../../src/engine/presets';
import { loadGuest } from '../../src/engine/guest';
import { installPolicyHost } from '../../src/engine/policy-host';

const root = join(import.meta.dirname, '..', '..');
const pkg = join(root, 'wasm-core', 'pkg');
const cli = join(root, 'wasm-core', 'target', 'release', 'schedsim');

export async function startPolicyEngine(): Promise<void> {
  initSync({ module: readFileSync(join(pkg, 'schedlab_core_bg.wasm')) });
  await loadGuest(readFileSync(join(pkg, 'schedlab_guest.wasm')));
  installPolicyHost();
}

export interface Report {
  trace_hash: string;
  events: number;
  sim_time_ns: number;
  notes: string[];
}

/** A starter policy's text (wasm-core/policies). */
export const starter = (name: string) => readFileSync(join(root, 'wasm-core', 'policies', `${name}.js`), 'utf8');

/** The 64-CPU Group Imbalance preset for `ms` under a policy. */
export function policyScenario(source: string, ms: number, extra: Record<string, unknown> = {}): string {
  const s = JSON.parse(presetText('group-imbalance-make')) as Record<string, unknown>;
  s.policy = { kind: 'ext', source, ...extra };
  s.duration_ms = ms;
  return JSON.stringify(s);
}

/** `schedsim run --json`: a run whose policy failed still prints its report, and exits 3 (0 otherwise). */
export function runNatively(json: string): Report {
  const file = join(mkdtempSync(join(tmpdir(), 'schedlab-ext-')), 'scenario.json');
  writeFileSync(file, json);
  const r = spawnSync(cli, ['run', file, '--json'], { encoding: 'utf8' });
  if (r.status !== 0 && r.status !== 3) throw new Error(`schedsim exited ${String(r.status)}: ${r.stderr}`);
  return JSON.parse(r.stdout) as Report;
}

/** The scenario run to its end in the wasm engine of this process. */
export function runInWasm(json: string): Report {
  const sim = new Simulator(json);
  sim.run_until(sim.duration_ns());
  const r = sim.metrics() as Report;
  sim.free();
  return r;
}
