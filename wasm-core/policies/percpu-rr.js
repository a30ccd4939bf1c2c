// Per-CPU round robin: each CPU keeps its own queue and runs it in turn with
// a 5 ms slice. Tasks never move once queued: watch what that does when the
// work is uneven.

const SLICE = 5000000; // 5 ms

function select_cpu(p, prev_cpu, wake_flags) {
  if (scx.test_and_clear_cpu_idle(prev_cpu)) return prev_cpu;
  const cpu = scx.pick_idle_cpu(p);
  return cpu >= 0 ? cpu : prev_cpu;
}

function enqueue(p, enq_flags) {
  // DSQ_LOCAL: the queue of the CPU the task was placed on.
  scx.dsq_insert(p, scx.DSQ_LOCAL, SLICE, enq_flags);
}
