// Weighted vtime: one shared queue ordered by virtual time, which grows more
// slowly for heavier (lower nice) tasks, as CFS's vruntime does. A task that
// slept comes back at most one slice behind the queue, so sleeping earns no
// unbounded credit.

const SHARED = 0;
let vtime_now = 0;

function init() {
  scx.create_dsq(SHARED);
}

function select_cpu(p, prev_cpu, wake_flags) {
  if (scx.test_and_clear_cpu_idle(prev_cpu)) return prev_cpu;
  const cpu = scx.pick_idle_cpu(p);
  return cpu >= 0 ? cpu : prev_cpu;
}

function enqueue(p, enq_flags) {
  const vtime = Math.max(p.dsq_vtime, vtime_now - scx.SLICE_DFL);
  scx.dsq_insert_vtime(p, SHARED, scx.SLICE_DFL, vtime, enq_flags);
}

function dispatch(cpu, prev) {
  scx.dsq_move_to_local(SHARED);
}

function running(p) {
  if (p.dsq_vtime > vtime_now) vtime_now = p.dsq_vtime;
}

function stopping(p, runnable) {
  // Charge the time used, scaled by weight (1024 = nice 0).
  const used = scx.SLICE_DFL - p.slice;
  p.dsq_vtime += Math.floor((used * 1024) / p.weight);
}
