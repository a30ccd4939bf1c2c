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
  rt41: "model 4.1: 6.12's fair server not yet modelled. 6.12 refuses real-time processes, so the model runs 4.1's real-time class, which bounds real-time tasks by throttling (950 ms of each 1 s period, per CPU); the host's kernel (6.12 and later) gives fair tasks 50 ms of each second through the fair server, a deadline server, and throttles only under RT_GROUP_SCHED (its root group, 950 ms a period, when built with it); either leaves a pinned fair hog about 50 ms a second, in the last 50 ms of each second after the FIFO hog's start. 4.1 also lends a CPU's unused real-time runtime to another (RT_RUNTIME_SHARE, on in 4.1, off by default from 4.18): pinned to one CPU of several, its FIFO hog would borrow up to a whole period and never throttle, starving the fair hog, which a host that borrows nothing never does; so the model runs on one CPU, where 4.1 cannot borrow (on the host's machine if the host borrows too)",
  rrcuts:
    "an RR task's mean run (CPU time over switches) moves with where its turns are cut, and the host cuts them elsewhere than the model: its real-time period runs from whenever its timer started, not from the run's start as 4.1's does in the model, so its throttle (RT_GROUP_SCHED's root group here) falls in other turns, or once fewer in the window, and the turn still going at the window's end adds time without a switch; other tasks waiting on the CPU (per-CPU kworkers) also run there through the fair server at any point of a slice, and per-CPU kernel threads above the RR priority (migration/N) preempt it. On a 3 s window that moves the mean by a tenth or more either way, while the longest run stays the slice",
  dltick:
    "the model charges a deadline task's runtime at the tick, as 4.1 does with HRTICK off (its features.h 44: update_curr_dl from task_tick_dl, deadline.c 1150–1162, every 4 ms at HZ 250): a hog with 10 ms of runtime runs on to the first tick after its runtime is spent, 12 ms, is throttled then, and pays the overrun from its next period; the host throttles it within tens of µs of its runtime's end, off its 4 ms tick grid (this host is built with HZ 250), as a high-resolution tick set for the runtime's end does (start_hrtick_dl, 6.12's deadline.c 2563–2567, under the HRTICK_DL feature: off in 6.12's defaults, evidently on in this host's build, whose debugfs is not mounted to say), so its longest run is the runtime, 10.0 to 10.1 ms. The share and the runtime per period agree: the model's overrun is paid back",
};

/** The reason keys a suite row may carry, by "process metric" (or "process *"). */
export function reasonFor(reasons, proc, metric) {
  return reasons?.[`${proc} ${metric}`] ?? reasons?.[`${proc} *`] ?? null;
}
