// Why a row of `npm run fidelity` may stay beyond ±10 %: each reason names a
// mechanism, checked in the model (and, where it is the host's, in what the
// rows themselves measure), never a figure tuned to the answer. The suite
// marks the rows each reason covers; a row beyond ±10 % that none covers is
// printed as unexplained.

export const REASONS = {
  start:
    "the start differs: the real runner creates every thread first and holds it at a gate, so all start together by a wakeup (select_task_rq's wakeup path); the model forks each thread from its process's first at t = 0, where 6.12's fork placement keeps a tie on the forking CPU (sched_balance_find_dst_group, fair.c 11019: group_has_spare with idle CPUs equal stays local), so each process's threads stay on one CPU; with equal loads neither balancer moves them after",
  costs:
    'the model charges a context switch 1.5 µs (CostModel::defaults, a bare-metal figure) and nothing for the wake and wait system calls; on this host the pinned rows imply about 10 µs per half round trip (a virtual machine)',
  floor:
    "the model's wakeup costs nothing beyond its cost model (a switch, and an IPI for a remote wakeup); a real wakeup on this host also pays the futex call and the tracer's sched_waking-to-sched_switch path, a few µs",
  rrcuts:
    "an RR task's mean run (CPU time over switches) counts every cut of its turns, and the host cuts more of them than the model: built with RT_GROUP_SCHED, it throttles its root group's real-time tasks past 950 ms of each period, from whenever its period timer started, which ends a turn early; the model runs 6.12 as Debian builds it (no RT_GROUP_SCHED), which neither counts nor throttles real-time time, so each of its turns is a whole slice. On the host other tasks waiting on the CPU (per-CPU kworkers) also run through the fair server at any point of a slice, and per-CPU kernel threads above the RR priority (migration/N) preempt it; the turn still going at the window's end adds time without a switch. The longest run stays the slice on both sides",
  dltick:
    "the model charges a deadline task's runtime at the tick, as 4.1 and 6.12 do with HRTICK_DL off (4.1's features.h 44, 6.12's 67: update_curr_dl from task_tick_dl, every 4 ms at HZ 250): a hog with 10 ms of runtime runs on to the first tick after its runtime is spent, 12 ms, is throttled then, and pays the overrun from its next period; the host throttles it within tens of µs of its runtime's end, off its 4 ms tick grid (this host is built with HZ 250), as a high-resolution tick set for the runtime's end does (start_hrtick_dl, 6.12's deadline.c 2563–2567, under the HRTICK_DL feature: off in 6.12's defaults, evidently on in this host's build, whose debugfs is not mounted to say), so its longest run is the runtime, 10.0 to 10.1 ms. The share and the runtime per period agree: the model's overrun is paid back",
};

/** The reason keys a suite row may carry, by "process metric" (or "process *"). */
export function reasonFor(reasons, proc, metric) {
  return reasons?.[`${proc} ${metric}`] ?? reasons?.[`${proc} *`] ?? null;
}
