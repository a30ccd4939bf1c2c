// Global FIFO: one queue for the whole machine; a CPU that needs work takes
// the task that has waited longest. Simple and fair in order, blind to caches
// and to NUMA.

function select_cpu(p, prev_cpu, wake_flags) {
  // Stay where the task last ran if that CPU is idle, else wake any idle CPU.
  if (scx.test_and_clear_cpu_idle(prev_cpu)) return prev_cpu;
  const cpu = scx.pick_idle_cpu(p);
  return cpu >= 0 ? cpu : prev_cpu;
}

function enqueue(p, enq_flags) {
  scx.dsq_insert(p, scx.DSQ_GLOBAL, scx.SLICE_DFL, enq_flags);
}
