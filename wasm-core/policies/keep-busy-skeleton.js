// Exercise: keep every core busy on the Group Imbalance machine.
//
// As given, each CPU only ever runs what was queued on it (per-CPU queues,
// no stealing), so a CPU whose queue empties sits idle while others have
// work waiting. Make an idle CPU find work: in dispatch(), look at the
// other CPUs' waiting tasks, or keep waiting tasks in shared queues
// (scx.create_dsq, one per NUMA node?) that any CPU can take from with
// scx.dsq_move_to_local(id). Run the exercise to see whether you pass.

function select_cpu(p, prev_cpu, wake_flags) {
  return prev_cpu;
}

function enqueue(p, enq_flags) {
  scx.dsq_insert(p, scx.DSQ_LOCAL, scx.SLICE_DFL, enq_flags);
}

function dispatch(cpu, prev) {
  // TODO: this CPU has nothing queued. Find it some work.
}
