// A program's steps in one line, durations in human units: what a template
// does, or a check of hand-written steps. Step names stay the file's own
// (run, sleep, barrier, …): they are the format's vocabulary, not prose.
import type { Json } from './scenario-form';

/** µs → "250 µs", "2 ms", "1.5 s". */
export function fmtUs(us: number): string {
  if (us >= 1e6) return `${+(us / 1e6).toPrecision(4)} s`;
  if (us >= 1e3) return `${+(us / 1e3).toPrecision(4)} ms`;
  return `${us} µs`;
}

function dist(d: Json): string {
  if (typeof d === 'number') return fmtUs(d);
  if (d && typeof d === 'object' && !Array.isArray(d)) {
    const u = d.uniform;
    if (Array.isArray(u) && typeof u[0] === 'number' && typeof u[1] === 'number')
      return `${fmtUs(u[0])}–${fmtUs(u[1])}`;
    if (typeof d.exp === 'number') return `~exp ${fmtUs(d.exp)}`;
  }
  return '?';
}

/** A name in a step (a barrier, lock or thread to wake), as written. */
function word(v: Json): string {
  return typeof v === 'string' || typeof v === 'number' ? String(v) : JSON.stringify(v);
}

function step(op: Json): string {
  if (!op || typeof op !== 'object' || Array.isArray(op)) return '?';
  const o = op;
  if (o.run_us !== undefined) return `run ${dist(o.run_us)}`;
  if (o.sleep_us !== undefined) return `sleep ${dist(o.sleep_us)}`;
  if (o.body !== undefined) return `${typeof o.repeat === 'number' ? `${o.repeat}×` : '∞×'} { ${steps(o.body)} }`;
  if (o.barrier !== undefined)
    return `barrier ${word(o.barrier)}${o.spin_us !== undefined ? ` (spin ${dist(o.spin_us)})` : ''}`;
  if (o.fork !== undefined) return `fork { ${steps(o.fork)} }`;
  if (o.wake !== undefined) return `wake ${word(o.wake)}`;
  if (o.busy_us !== undefined) return `busy ${dist(o.busy_us)}`;
  if (o.timer !== undefined) return timerStep(o);
  if (o.lock !== undefined) return `lock ${word(o.lock)}`;
  if (o.unlock !== undefined) return `unlock ${word(o.unlock)}`;
  if (o.cond_wait !== undefined) return `cond_wait ${word(o.cond_wait)} (${word(o.mutex ?? '?')})`;
  if (o.cond_signal !== undefined) return `cond_signal ${word(o.cond_signal)}`;
  if (o.cond_broadcast !== undefined) return `cond_broadcast ${word(o.cond_broadcast)}`;
  if (o.sched_setattr !== undefined) return setattrStep(o);
  if (o.set_cpus !== undefined) return `set_cpus ${word(o.set_cpus)}`;
  if (o.set_cgroup !== undefined) return `set_cgroup ${word(o.set_cgroup)}`;
  if (o.post !== undefined || o.await !== undefined) return flagStep(o);
  const flag = ['exit', 'wait', 'yield', 'take_job', 'wait_child', 'exec'].find((k) => o[k] !== undefined);
  return flag ?? '?';
}

/** `timer tick every 16.67 ms (shared, absolute)`. */
function timerStep(o: { [k: string]: Json }): string {
  const period = typeof o.period_us === 'number' ? ` every ${fmtUs(o.period_us)}` : '';
  const how = [o.shared === true ? 'shared' : '', o.timer_mode !== undefined ? word(o.timer_mode) : ''].filter(Boolean);
  const head = `timer ${word(o.timer)}${period}`;
  return how.length ? `${head} (${how.join(', ')})` : head;
}

/** `sched_setattr fifo 50`, `sched_setattr deadline 10 ms / 100 ms`, `sched_setattr normal nice 5`. */
function setattrStep(o: { [k: string]: Json }): string {
  const head = `sched_setattr ${word(o.sched_setattr)}`;
  if (typeof o.rt_priority === 'number') return `${head} ${o.rt_priority}`;
  if (typeof o.dl_runtime_us === 'number' && typeof o.dl_deadline_us === 'number') {
    const period = typeof o.dl_period_us === 'number' ? o.dl_period_us : o.dl_deadline_us;
    return `${head} ${fmtUs(o.dl_runtime_us)} / ${fmtUs(period)}`;
  }
  if (typeof o.nice === 'number') return `${head} nice ${o.nice}`;
  return head;
}

/** `post isync → +1`, `await isync ← -1 (block, spin 50 µs)`. */
function flagStep(o: { [k: string]: Json }): string {
  const post = o.post !== undefined;
  const offset = post ? (o.to ?? 1) : (o.from ?? -1);
  const signed = typeof offset === 'number' && offset > 0 ? `+${offset}` : word(offset);
  const wait = [
    o.wait_policy !== undefined ? word(o.wait_policy) : '',
    o.spin_us !== undefined ? `spin ${dist(o.spin_us)}` : '',
  ].filter(Boolean);
  const head = post ? `post ${word(o.post)} → ${signed}` : `await ${word(o.await)} ← ${signed}`;
  return wait.length ? `${head} (${wait.join(', ')})` : head;
}

/** The steps in one line, e.g. `∞× { run 1 ms; sleep 9 ms }`; '' for anything but a list. */
export function steps(ops: Json): string {
  return Array.isArray(ops) ? ops.map(step).join('; ') : '';
}

/** The summary of program text, or '' if it does not parse. */
export function programSummary(text: string): string {
  try {
    return steps(JSON.parse(text) as Json);
  } catch {
    return '';
  }
}
