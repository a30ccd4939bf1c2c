// The classroom lessons' words: titles, narration per step and question
// prompts (keys lesson.<lesson id>.<step id>[.q]; the steps are in
// src/classroom/lessons/*.ts). Every claim was checked against the run.
import type { Catalog } from '../translate';

const lessons: Catalog = {
  en: {
    'lesson.cfs-basics.title': 'CFS basics: vruntime, weights, the red-black tree',
    'lesson.cfs-basics.tree':
      'One CPU, four tasks: three CPU hogs at nice 0, 5 and 10, and a sleeper that runs 1 ms every 10 ms. CFS keeps the waiting tasks in a red-black tree ordered by vruntime; the running task (curr) is taken out of the tree while it runs.',
    'lesson.cfs-basics.weights':
      'vruntime grows by the time actually run × 1024 / weight. Nice 0 weighs 1024, nice 5 weighs 335 and nice 10 weighs 110, so the nice 10 hog’s vruntime crawls and it must run far longer for the same advance. Step with → and watch the keys in the tree.',
    'lesson.cfs-basics.next':
      'When curr stops (its slice is used up, or a woken task preempts it), CFS picks the leftmost entity of the tree: the smallest vruntime.',
    'lesson.cfs-basics.next.q': 'Which task will CPU 0 run next?',
    'lesson.cfs-basics.shares':
      'After one second the shares follow the weights: the hogs split their time about 1024 : 335 : 110 (roughly 70% / 23% / 7%), while the sleeper, waking with a little sleeper credit, still gets its 10%.',
    'lesson.rt-classes.title': 'Real-time classes: FIFO, RR and throttling',
    'lesson.rt-classes.alone':
      'One CPU, Linux 4.1. A fair hog runs alone: the fair class’s red-black tree holds it, nothing else is queued. Three real-time tasks are about to be made at 100 ms.',
    'lesson.rt-classes.fifo':
      'At 100 ms a SCHED_FIFO task at rt_priority 50 and two SCHED_RR tasks at rt_priority 20 arrived. The real-time class comes before the fair class, so the FIFO task preempted the hog at once, whatever its vruntime. The real-time runqueue keeps one list per priority (kernel prio 99 − rt_priority) and a bitmap of the non-empty ones; the pick takes the head of the first set bit. The RR tasks wait behind the more urgent FIFO task.',
    'lesson.rt-classes.rr':
      'The FIFO task ran its 1.2 s of work and exited at 1300 ms. A FIFO task keeps the CPU until it blocks or something more urgent comes; an RR task gets 100 ms, then goes to the back of its priority’s list if another task shares it. Watch the two RR tasks take turns.',
    'lesson.rt-classes.throttled':
      'Real-time tasks may use 950 ms of each 1 s period (sched_rt_runtime_us). Past that, at the tick of 1950 ms, the runqueue was throttled: its tasks leave the pick and the fair hog runs until the period timer at 2000 ms pays the time back. On a machine with more CPUs, 4.1 would first borrow spare runtime from the others (RT_RUNTIME_SHARE) — a pinned FIFO hog can then starve its CPU.',
    'lesson.rt-classes.shares':
      'After three seconds the fair hog had its 100 ms alone plus about 50 ms at the end of each of the last two periods: 200 ms, under 7 %. The real-time tasks had the rest.',
    'lesson.priority-inheritance.title': 'Priority inversion and inheritance',
    'lesson.priority-inheritance.held':
      'One CPU, Linux 4.1. “low”, a fair task, took mutex m at 0 and works 20 ms holding it. It is alone in the fair class’s tree. At 5 ms “high” (SCHED_FIFO 90) will want m; at 6 ms “medium” (SCHED_FIFO 50), which needs no mutex, will arrive.',
    'lesson.priority-inheritance.inverted':
      'high found m held and sleeps on it. medium, a real-time task, preempted low at 6 ms: the real-time class comes before the fair class. Now medium runs, low waits in the fair tree with its section unfinished, and high waits for low. The most urgent task waits for a less urgent one that holds no lock it wants: a priority inversion. Nothing bounds it but medium’s own work.',
    'lesson.priority-inheritance.unbounded':
      'medium ran its 200 ms, low then finished its section at about 221 ms, and only then did high take m. high waited about 215 ms for a 20 ms critical section. Next: the same tasks, with mutexes that inherit priority.',
    'lesson.priority-inheritance.lent':
      'The same tasks with PTHREAD_PRIO_INHERIT mutexes (rt-app’s pi_enabled), which the kernel backs with an rt_mutex. When high slept on m, low was lent high’s prio: rt_mutex_setprio moved it into the real-time class, at prio 9 — see it in the priority array, marked inherited. medium, at prio 49, waits behind it and cannot preempt it. The event log shows the sched_pi_setprio.',
    'lesson.priority-inheritance.bounded':
      'low unlocked at about 20 ms and fell back to its own prio and the fair class; the mutex went to high, which ran at once and ended at about 21 ms. Its wait was bounded by what was left of low’s critical section. medium ran after it. Compare the completion times with the first run.',
    'lesson.edf-vs-fixed.title': 'EDF against fixed priorities',
    'lesson.edf-vs-fixed.set':
      'One CPU, Linux 4.1. Two periodic tasks as rt-app writes them: t6 runs 3 ms every 6 ms, t9 runs 4 ms every 9 ms, each job due when its next period begins. Together they need 3/6 + 4/9 = 94.4 % of the CPU. Here they are SCHED_FIFO tasks with rate-monotonic priorities, the shorter period the higher: t6 at rt_priority 20, t9 at 10. Both were released at 0: t6 runs, t9 waits a level below.',
    'lesson.edf-vs-fixed.preempted':
      't6 ran 0–3 ms, then t9. At 6 ms t6’s second job arrived and, at the higher priority, preempted t9 at once, with 1 ms of t9’s job left and its deadline at 9 ms. t6 holds the CPU until 9. Fixed priorities ignore deadlines: the job due soonest waits.',
    'lesson.edf-vs-fixed.miss':
      't9 got the CPU back at 9 ms, its deadline, and ended its job at 10. When it reached its timer step, its next period had begun 1 ms earlier: a timer overrun, a missed deadline. The lanes mark it at the deadline (9 ms) with a line to where the job ended; point at the mark to read it. In absolute timer mode the next job, released at 9, starts at once.',
    'lesson.edf-vs-fixed.bound':
      'Why: Liu and Layland’s bound for rate-monotonic priorities with two tasks is 2(√2 − 1) ≈ 0.828; 0.944 is above it, so nothing is promised. Response-time analysis decides: t9 needs R = 4 + ⌈R/6⌉ · 3, which settles at 10 ms > 9. The worst case, both released together, comes every lcm(6, 9) = 18 ms: one miss each time, 100 in the 1.8 s run (here at 9 and 27 ms).',
    'lesson.edf-vs-fixed.edf':
      'The same set as SCHED_DEADLINE tasks: each a constant bandwidth server reserving its work per period (3 of 6 ms, 4 of 9; admission control accepts 0.944 ≤ 0.95). The earliest deadline runs first. At 6 ms t6’s new job came due at 12 ms, but t9’s deadline is 9: t9 stays leftmost in the deadline tree, keeps the CPU and ends at 7 ms. (Servers are charged at ticks: t9 had 1 ms of 4 left at 6 ms.)',
    'lesson.edf-vs-fixed.met':
      'No marks: every job ends by its deadline. On one CPU, EDF meets every deadline of any periodic set that needs at most the whole CPU: it always runs the job due soonest, and t6’s jobs wait when they can afford to (6–7 ms, 12–14 ms). The deadline panel’s “missed” column stays at 0.',
    'lesson.edf-vs-fixed.price':
      'After 1.8 s each run did 300 jobs of t6 and 200 of t9, the CPU idle 1 ms in 18. Under fixed priorities t9 was late 100 times, under EDF never. t6 pays: under FIFO it never waited, under EDF it waits up to 2 ms (its wakeup latency in the charts). Linux 4.1 counts no misses itself: the marks are the model’s record of jobs that ended late.',
    'lesson.group-imbalance.title': 'Wasted cores 1: Group Imbalance',
    'lesson.group-imbalance.start':
      'A 64-core, 8-node Opteron. Two single-threaded R processes, each in its own session (autogroup), already run on CPUs 11 and 27. Each session’s group gets 1024 shares, so each R thread carries a load of about 1024.',
    'lesson.group-imbalance.avoid':
      'make -j64 started at 50 ms in a third session. Its group’s 1024 shares are spread over dozens of jobs, a few units of load each. Placement and balancing compare groups by average load: nodes 1 and 3, each holding an R thread, look busy, so 7 of their 8 cores sit idle while other nodes queue two jobs on a core.',
    'lesson.group-imbalance.balance':
      'The inspector shows each load_balance decision with the groups it compared. An idle CPU on node 1 should pull a waiting make job — but it compares average loads.',
    'lesson.group-imbalance.balance.q':
      'Will the next load-balancing decision by a CPU of node 1 or node 3 move a thread?',
    'lesson.group-imbalance.violation':
      'The sanity checker confirms it: for a whole window, cores stayed idle while threads they were allowed to run waited elsewhere. The wasted core time keeps growing.',
    'lesson.group-imbalance.fixed':
      'The same run with the paper’s fix: balancing also compares the groups’ minimum loads, so a node with an idle core is no longer “busy”. Every core now runs a job.',
    'lesson.group-imbalance.end':
      'At the end: compare the wasted core time and make’s completion time with the buggy run — the fixed kernel finishes make much sooner.',
    'lesson.group-imbalance.lu':
      'The paper’s other run, on stock 4.1 again: four R processes, started one by one from four sessions, sit on nodes 1 to 4; NAS lu’s 60 threads started at 400 ms. Each R node averages 1024 over 8 cores, above a node of 15 lu threads at about 17 each, so the 28 marked cores beside the R threads pull nothing for the whole run while lu threads crowd nodes 0, 5, 6 and 7, up to four to a core. lu takes about 22 s here; with the paper’s fix, about 2.5 s.',
    'lesson.group-construction.title': 'Wasted cores 2: Scheduling Group Construction',
    'lesson.group-construction.crowd':
      'lu’s 16 threads are bound with numactl to nodes 1 and 2, which are two hops apart, and are created on node 1. They crowd node 1 — two per core — while node 2 idles.',
    'lesson.group-construction.balance':
      'The top-level scheduling groups were built from CPU 0’s point of view, so nodes 1 and 2 sit in the same groups: their average loads look equal and node 2 sees nothing worth stealing.',
    'lesson.group-construction.balance.q': 'Will the next load-balancing decision by a CPU of node 2 move a thread?',
    'lesson.group-construction.violation':
      'The sanity checker reports node 2’s cores idle while lu threads wait on node 1.',
    'lesson.group-construction.fixed':
      'With the fix, each CPU builds the groups from its own point of view: node 2 takes its share of the threads from the start and lu finishes several times sooner.',
    'lesson.overload-on-wakeup.title': 'Wasted cores 3: Overload on Wakeup',
    'lesson.overload-on-wakeup.workers':
      '64 database workers, one per core, run a query in steps of about 2 ms and meet at a blocking barrier after each: they sleep and wake all the time. Eight kernel threads wake every few milliseconds.',
    'lesson.overload-on-wakeup.wakeup':
      'When a kernel thread crowds a node, the balancer moves a worker away, and that node now holds more workers than cores. A waking thread is placed by select_idle_sibling, which only searches the waker’s node (the CPUs it considered are outlined).',
    'lesson.overload-on-wakeup.wakeup.q': 'A db worker is about to wake. Which CPU will it be placed on?',
    'lesson.overload-on-wakeup.violation':
      'The sanity checker confirms an idle core while db workers wait: the extra worker keeps waking next to a busy one, and the whole query step waits for the pair sharing a core.',
    'lesson.overload-on-wakeup.fixed':
      'With the fix, a waking thread takes its previous core if that core is idle, otherwise the core that has been idle longest anywhere on the machine: the heat map stays even and the query completes sooner.',
    'lesson.decade-later.title': 'A decade later: the four bugs on Linux 4.1 and 6.12',
    'lesson.decade-later.intro':
      'Each scenario of the paper runs twice on one clock: on stock Linux 4.1 (A, with its four bugs) and on Linux 6.12 as it ships (B, the same workload with "kernel": "6.12"). The compare table below the metrics gives both runs’ figures and their difference.',
    'lesson.decade-later.imbalance':
      'Group Imbalance with make: on 4.1 the R sessions’ nodes look loaded by average load, and their idle cores do not pull make’s jobs. 6.12 first sorts groups by type (a node with idle cores has spare capacity) and pulls by utilisation, so the load average no longer hides them. Over the whole run make finishes within a few percent of the all-fixes 4.1 kernel (npm run bugs).',
    'lesson.decade-later.lu':
      'Group Imbalance with lu, the case the paper measured at 13 times slower: on 6.12 most of it is gone, but not all (about 6 times the all-fixes 4.1 kernel over the run, against 100 times on stock 4.1): where a node has no spare capacity left, 6.12 still compares average loads.',
    'lesson.decade-later.construction':
      'Scheduling Group Construction: 6.12 builds each CPU’s NUMA groups from its own point of view (the repair merged in 2017), so node 2 sees node 1’s threads as another group’s. lu now spreads over both nodes, though it still runs about 2.5 times the paper’s fixed kernel over the run.',
    'lesson.decade-later.wakeup':
      'Overload on Wakeup remains: a waking thread still looks for an idle CPU only within its last-level cache (its node here), and 6.12 adds a scan budget that shrinks as the node gets busier. The db query takes about as long on 6.12 as on stock 4.1.',
    'lesson.decade-later.domains':
      'Missing Scheduling Domains: 6.12 builds its topology table once at boot, and a CPU coming back online no longer drops the NUMA levels. The application can spread across the machine again: it finishes far sooner than on stock 4.1, though not as soon as on the fixed 4.1 kernel.',
    'lesson.decade-later.end':
      'Three of the four mechanisms were rewritten or repaired upstream, by other changes than the paper’s patches; one remains. docs/decade-later.md reads each bug in the 6.12 source. The 6.12 model is still being built: it has no delayed dequeue and no NOHZ idle balancer yet.',
    'lesson.missing-domains.title': 'Wasted cores 4: Missing Scheduling Domains',
    'lesson.missing-domains.hotplug':
      'CPU 5 goes offline at 10 ms and comes back at 20 ms. The scheduling domains are rebuilt — and the rebuild drops the NUMA levels: every CPU’s domains now stop at its own node.',
    'lesson.missing-domains.fork':
      'At 50 ms a 64-thread application starts on CPU 0 and forks its threads. Fork placement walks the domains looking for the idlest group.',
    'lesson.missing-domains.fork.q': 'Which CPU will the next thread be placed on?',
    'lesson.missing-domains.crowd':
      'All 64 threads share node 0’s eight cores while 56 cores idle. The inspector shows why nothing fixes it: the balancer’s levels end at the node, so no CPU ever compares node 0 with the others.',
    'lesson.missing-domains.fixed':
      'With the fix the NUMA levels are rebuilt too: the threads spread over all 64 cores and the application finishes many times sooner.',
    'lesson.greedy-threads.title': 'Greedy threads: fairness per thread',
    'lesson.greedy-threads.setup':
      'A laptop with 4 hardware threads. Process A computes with 1 thread; process B runs 8 CPU-bound threads. Nine threads share four CPUs.',
    'lesson.greedy-threads.next':
      'CFS is fair to threads, not to processes: every thread of equal nice gets the same weight, whichever process it belongs to.',
    'lesson.greedy-threads.next.q': 'Which thread will CPU 0 run next?',
    'lesson.greedy-threads.shares':
      'So A gets about one ninth of the machine and B about eight ninths: B’s share grows with its thread count.',
    'lesson.greedy-threads.late':
      'A needed one second of CPU but finishes only after about two seconds. Policies that split the weight per process (PFS, DW-CFS) protect A; try them by editing policy.kind.',
    'lesson.group-identity.title': 'Group Identity: online and offline on one node',
    'lesson.group-identity.online':
      'Node 0 of a Xeon Gold 5218 (16 cores, 32 hardware threads). Eight latency-sensitive online services, 10 workers each, wake about every millisecond and run 100 µs. Their cgroup is highclass and an SMT expeller.',
    'lesson.group-identity.offline':
      'At 100 ms eight offline batch jobs join, 3 CPU-bound threads each, in an underclass cgroup. Underclass entities wait in their own tree (drawn beside the normal tree in the runqueue panel) and never preempt; a waking online (highclass) task preempts them, and counts a CPU running only offline work as idle when it picks a CPU.',
    'lesson.group-identity.next':
      'Online workers wake about every millisecond and run for 100 µs; in between, a CPU runs offline work or sits idle. Watch CPU 3’s runqueue.',
    'lesson.group-identity.next.q': 'Which task will CPU 3 run next?',
    'lesson.group-identity.latency':
      'The offline jobs soak up the idle time, yet the online wakeup latency stays short: compare the online and offline curves in the latency chart.',
    'lesson.write-a-scheduler.title': 'Write a scheduler: sched_ext in JavaScript',
    'lesson.write-a-scheduler.start':
      'The Group Imbalance machine again (64 cores, 8 nodes; make -j64 beside two R threads), but this run’s scheduler is not CFS: it is a policy written in JavaScript in sched_ext’s model, the exercise’s skeleton. The kernel calls the policy’s functions (callbacks) at each scheduling event; the policy answers by putting threads into dispatch queues (DSQs).',
    'lesson.write-a-scheduler.select':
      'When a thread wakes up or is forked, the kernel first asks select_cpu(p, prev_cpu) which CPU should take it. The skeleton answers prev_cpu, the CPU the thread ran on last. Every thread of this run starts on CPU 0, so every one stays there.',
    'lesson.write-a-scheduler.enqueue':
      'Then enqueue(p) queues the thread. The skeleton inserts it into its CPU’s local queue (scx.DSQ_LOCAL) with the default slice, 20 ms: CPU 0’s queue holds every thread of the run (make, its jobs and both R threads), and the machine view shows how long it is.',
    'lesson.write-a-scheduler.dispatch':
      'A CPU whose local queue is empty calls dispatch(cpu, prev) to fetch work, usually with scx.dsq_move_to_local(id) from a queue of the policy’s own. The skeleton’s dispatch does nothing, so the other 63 CPUs stay idle for the whole run: one busy row in the heatmap.',
    'lesson.write-a-scheduler.idle':
      'The metrics count it: the wasted core time (idle CPU time while a thread that could run there waited, summed) has grown by 63 ms every millisecond since 20 ms, when R2 became the second thread on CPU 0; the longest stretch one CPU idled while work waited lasts from then on.',
    'lesson.write-a-scheduler.fifo':
      'The global FIFO starter changes two callbacks: select_cpu takes an idle CPU (scx.pick_idle_cpu) when the previous one is busy, and enqueue puts every thread into one global queue (scx.DSQ_GLOBAL) that any CPU with an empty local queue takes from. All 64 cores run, and no CPU idles while work waits.',
    'lesson.write-a-scheduler.exercise':
      'Your turn: this is the exercise “Keep every core busy” (also in the Exercise menu), the skeleton again with a goal: no CPU may idle longer than one tick (4 ms) while a thread it could run waits. The exercise panel judges the run: the skeleton fails. Change the policy in Edit scenario (policy.source): make dispatch() find work, for example in a shared queue, then run to the end for PASS or FAIL with the figures.',
  },
  zh: {
    'lesson.cfs-basics.title': 'CFS 基础：vruntime、权重与红黑树',
    'lesson.cfs-basics.tree':
      '一个 CPU，四个任务：nice 值分别为 0、5、10 的三个 CPU 密集型任务，以及每 10 ms 运行 1 ms 的睡眠型任务。CFS 把等待的任务放在按 vruntime 排序的红黑树中；正在运行的任务（curr）运行期间不在树中。',
    'lesson.cfs-basics.weights':
      'vruntime 按实际运行时间 × 1024 / 权重增长。nice 0 的权重是 1024，nice 5 是 335，nice 10 是 110，所以 nice 10 任务的 vruntime 增长得很慢，同样的 vruntime 增量需要运行更久。按 → 单步前进，观察树中各节点的键值。',
    'lesson.cfs-basics.next':
      '当 curr 停止运行（时间片用完，或被唤醒的任务抢占）时，CFS 选择树中最左边的调度实体，即 vruntime 最小的那个。',
    'lesson.cfs-basics.next.q': 'CPU 0 接下来会运行哪个任务？',
    'lesson.cfs-basics.shares':
      '一秒之后，各任务的占比与权重一致：三个 CPU 密集型任务大致按 1024 : 335 : 110（约 70% / 23% / 7%）分配时间，而睡眠型任务唤醒时带有少量睡眠补偿，仍能得到它的 10%。',
    'lesson.rt-classes.title': '实时调度类：FIFO、RR 与限流',
    'lesson.rt-classes.alone':
      '单个 CPU，Linux 4.1。一个公平调度类的 CPU 密集任务独自运行：公平调度类的红黑树中只有它。100 ms 时将创建三个实时任务。',
    'lesson.rt-classes.fifo':
      '100 ms 时到来了一个 rt_priority 50 的 SCHED_FIFO 任务和两个 rt_priority 20 的 SCHED_RR 任务。实时调度类排在公平调度类之前，所以 FIFO 任务立即抢占了该任务，与其 vruntime 无关。实时运行队列为每个优先级（内核优先级 = 99 − rt_priority）保留一个链表，并用位图记录哪些链表非空；选取时取第一个置位的链表的队首。两个 RR 任务排在更紧迫的 FIFO 任务之后等待。',
    'lesson.rt-classes.rr':
      'FIFO 任务完成 1.2 s 的工作后于 1300 ms 退出。FIFO 任务会一直占用 CPU，直到它阻塞或有更紧迫的任务到来；RR 任务每次得到 100 ms，若同一优先级还有其他任务，就排到该链表末尾。观察两个 RR 任务轮流运行。',
    'lesson.rt-classes.throttled':
      '实时任务在每个 1 s 周期内最多使用 950 ms（sched_rt_runtime_us）。超过后，在 1950 ms 的时钟中断处运行队列被限流：其任务退出选取，公平调度类的任务一直运行到 2000 ms 的周期定时器归还时间。若机器有更多 CPU，4.1 会先向其他 CPU 借用空闲的运行时间（RT_RUNTIME_SHARE）——被绑定的 FIFO 任务因此可能让它所在的 CPU 上的其他任务饿死。',
    'lesson.rt-classes.shares':
      '三秒之后，公平调度类的任务得到的是开头独自运行的 100 ms，加上最后两个周期末尾各约 50 ms：共 200 ms，不到 7%。其余时间归实时任务。',
    'lesson.priority-inheritance.title': '优先级反转与优先级继承',
    'lesson.priority-inheritance.held':
      '单个 CPU，Linux 4.1。公平调度类任务 “low” 在 0 时刻拿到互斥锁 m，持锁工作 20 ms。它独自位于公平调度类的红黑树中。5 ms 时 “high”（SCHED_FIFO 90）将请求 m；6 ms 时不需要锁的 “medium”（SCHED_FIFO 50）将到来。',
    'lesson.priority-inheritance.inverted':
      'high 发现 m 已被持有，于是睡在它上面。实时任务 medium 在 6 ms 时抢占了 low：实时调度类排在公平调度类之前。现在 medium 在运行，low 带着未完成的临界区在公平调度类的树中等待，而 high 在等待 low。最紧迫的任务在等待一个并不持有它所需锁的、较不紧迫的任务：这就是优先级反转。除了 medium 自身的工作量，没有什么能限制它。',
    'lesson.priority-inheritance.unbounded':
      'medium 运行完 200 ms，low 随后在约 221 ms 时完成临界区，high 这时才拿到 m。为了一个 20 ms 的临界区，high 等了约 215 ms。接下来：同样的任务，改用继承优先级的互斥锁。',
    'lesson.priority-inheritance.lent':
      '同样的任务，互斥锁使用 PTHREAD_PRIO_INHERIT（rt-app 的 pi_enabled），内核以 rt_mutex 实现。high 睡在 m 上时，low 借得了 high 的优先级：rt_mutex_setprio 把它移入实时调度类，优先级为 9——在优先级数组中可以看到它，标注为“继承”。优先级为 49 的 medium 排在它后面，无法抢占它。事件日志中可以看到 sched_pi_setprio。',
    'lesson.priority-inheritance.bounded':
      'low 在约 20 ms 时解锁，回到自己的优先级和公平调度类；互斥锁交给 high，它立即运行，并在约 21 ms 时结束。它的等待以 low 剩余的临界区为上限。medium 在它之后运行。请与第一次运行比较各任务的完成时间。',
    'lesson.edf-vs-fixed.title': 'EDF 与固定优先级',
    'lesson.edf-vs-fixed.set':
      '单个 CPU，Linux 4.1。两个周期任务，写法与 rt-app 相同：t6 每 6 ms 运行 3 ms，t9 每 9 ms 运行 4 ms，每个作业的截止期是下一个周期开始之时。两者合计需要 3/6 + 4/9 = 94.4% 的 CPU。这里它们是按速率单调原则设置优先级的 SCHED_FIFO 任务，周期越短优先级越高：t6 的 rt_priority 为 20，t9 为 10。两者都在 0 时刻释放：t6 运行，t9 在低一级的链表中等待。',
    'lesson.edf-vs-fixed.preempted':
      't6 在 0–3 ms 运行，之后是 t9。6 ms 时 t6 的第二个作业到来，凭更高的优先级立即抢占了 t9；此时 t9 的作业还差 1 ms，截止期是 9 ms。t6 会占用 CPU 直到 9 ms。固定优先级不看截止期：最快到期的作业反而在等待。',
    'lesson.edf-vs-fixed.miss':
      't9 在 9 ms（正是它的截止期）才重新得到 CPU，作业到 10 ms 才结束。它到达定时器步骤时，下一个周期已在 1 ms 前开始：这是一次定时器超限，即错过了截止期。泳道在截止期处（9 ms）画出标记，并连一条线到作业结束的时刻；把指针移到标记上即可读到说明。在绝对定时器模式下，9 ms 释放的下一个作业立即开始。',
    'lesson.edf-vs-fixed.bound':
      '原因：Liu 与 Layland 给出的两个任务的速率单调可调度界限是 2(√2 − 1) ≈ 0.828；0.944 高于它，所以没有任何保证。由响应时间分析决定：t9 需要 R = 4 + ⌈R/6⌉ · 3，迭代收敛于 10 ms > 9 ms。最坏情况（两者同时释放）每 lcm(6, 9) = 18 ms 出现一次：每次错过一个截止期，整个 1.8 s 的运行中共 100 次（这里在 9 ms 和 27 ms）。',
    'lesson.edf-vs-fixed.edf':
      '同一组任务改为 SCHED_DEADLINE：每个任务是一个恒定带宽服务器，每个周期预留其工作量（6 ms 中的 3 ms，9 ms 中的 4 ms；准入控制接受 0.944 ≤ 0.95）。截止期最早的先运行。6 ms 时 t6 的新作业截止于 12 ms，但 t9 的截止期是 9 ms：t9 仍位于截止期红黑树的最左侧，继续占用 CPU，到 7 ms 结束。（服务器在时钟中断时扣费：6 ms 时 t9 的 4 ms 还剩 1 ms。）',
    'lesson.edf-vs-fixed.met':
      '没有标记：每个作业都在截止期前完成。在单个 CPU 上，只要周期任务集合所需不超过整个 CPU，EDF 就能满足其全部截止期：它总是运行最快到期的作业，t6 的作业在等得起的时候等待（6–7 ms、12–14 ms）。截止期面板的“错过”一列始终为 0。',
    'lesson.edf-vs-fixed.price':
      '1.8 s 后，两次运行都完成了 t6 的 300 个作业和 t9 的 200 个作业，CPU 每 18 ms 空闲 1 ms。在固定优先级下 t9 迟到了 100 次，在 EDF 下一次也没有。代价由 t6 承担：在 FIFO 下它从不等待，在 EDF 下最多要等 2 ms（见图表中它的唤醒延迟）。Linux 4.1 本身并不统计错过的截止期：这些标记是模型对迟到作业的记录。',
    'lesson.group-imbalance.title': '浪费的核 1：Group Imbalance（组不均衡）',
    'lesson.group-imbalance.start':
      '一台 64 核、8 个 NUMA 节点的 Opteron。两个单线程的 R 进程各在自己的会话（autogroup）中，已经在 CPU 11 和 CPU 27 上运行。每个会话的任务组有 1024 份额，所以每个 R 线程的负载约为 1024。',
    'lesson.group-imbalance.avoid':
      'make -j64 在 50 ms 时从第三个会话启动。它的任务组的 1024 份额分摊到几十个编译任务上，每个只有几个单位的负载。任务放置和负载均衡都按平均负载比较调度组：节点 1 和节点 3 各有一个 R 线程，看起来很忙，于是它们 8 个核中有 7 个空闲，而其他节点上一个核排着两个任务。',
    'lesson.group-imbalance.balance':
      '检查器显示每次 load_balance 决策及其比较的调度组。节点 1 上的空闲 CPU 本应拉取一个等待中的 make 任务——但它比较的是平均负载。',
    'lesson.group-imbalance.balance.q': '节点 1 或节点 3 上的 CPU 下一次做负载均衡决策时，会迁移线程吗？',
    'lesson.group-imbalance.violation':
      '健全性检查器确认了这一点：在整个检查窗口内，一些核一直空闲，而允许在其上运行的线程却在别处等待。浪费的核时间持续增长。',
    'lesson.group-imbalance.fixed':
      '同一场景换上论文中的修复：负载均衡还会比较各组的最小负载，因此有空闲核的节点不再被当作“忙”。现在每个核都在运行任务。',
    'lesson.group-imbalance.end':
      '运行结束：把浪费的核时间和 make 的完成时间与有 bug 的运行对比——修复后的内核让 make 早得多地完成。',
    'lesson.group-imbalance.lu':
      '论文的另一个实验，回到原版 4.1：四个 R 进程从四个会话依次启动，分别位于节点 1 到 4；NAS lu 的 60 个线程在 400 ms 时启动。每个 R 节点的平均负载是 1024 分摊到 8 个核，高于一个有 15 个 lu 线程（每个约 17）的节点，所以 R 线程旁边标出的 28 个核在整个运行期间什么也不拉取，而 lu 线程挤在节点 0、5、6、7 上，一个核上最多四个。这里 lu 用时约 22 秒；打上论文的修复后约 2.5 秒。',
    'lesson.group-construction.title': '浪费的核 2：Scheduling Group Construction（调度组构建）',
    'lesson.group-construction.crowd':
      'lu 的 16 个线程用 numactl 绑定到节点 1 和节点 2（两者相隔两跳），并在节点 1 上创建。它们挤在节点 1 上——每个核两个——而节点 2 空闲。',
    'lesson.group-construction.balance':
      '顶层调度组是从 CPU 0 的视角构建的，所以节点 1 和节点 2 处在相同的组里：它们的平均负载看起来相等，节点 2 看不到任何值得窃取的任务。',
    'lesson.group-construction.balance.q': '节点 2 上的 CPU 下一次做负载均衡决策时，会迁移线程吗？',
    'lesson.group-construction.violation': '健全性检查器报告：节点 2 的核空闲，而 lu 线程在节点 1 上等待。',
    'lesson.group-construction.fixed':
      '修复后，每个 CPU 从自己的视角构建调度组：节点 2 从一开始就分担了一半线程，lu 的完成时间缩短为原来的几分之一。',
    'lesson.overload-on-wakeup.title': '浪费的核 3：Overload on Wakeup（唤醒时过载）',
    'lesson.overload-on-wakeup.workers':
      '64 个数据库工作线程，每核一个，以约 2 ms 为一步执行查询，每步之后在阻塞式屏障处会合：它们不停地睡眠和唤醒。另有 8 个内核线程每隔几毫秒唤醒一次。',
    'lesson.overload-on-wakeup.wakeup':
      '当某个内核线程挤占了一个节点，负载均衡会把一个工作线程迁走，于是该节点上的工作线程多于核数。被唤醒的线程由 select_idle_sibling 放置，它只搜索唤醒者所在的节点（被考察的 CPU 已框出）。',
    'lesson.overload-on-wakeup.wakeup.q': '一个 db 工作线程即将被唤醒。它会被放到哪个 CPU 上？',
    'lesson.overload-on-wakeup.violation':
      '健全性检查器确认：有核空闲而 db 工作线程在等待。多出来的那个工作线程总是在忙碌的线程旁边被唤醒，整个查询步骤都要等共用一个核的那一对。',
    'lesson.overload-on-wakeup.fixed':
      '修复后，被唤醒的线程若原来的核空闲就回到原来的核，否则选择全机空闲最久的核：热力图保持均匀，查询更早完成。',
    'lesson.decade-later.title': '十年之后：四个 bug 在 Linux 4.1 与 6.12 上',
    'lesson.decade-later.intro':
      '论文的每个场景在同一时钟下运行两次：在原版 Linux 4.1 上（A，带着四个 bug），以及在原样发布的 Linux 6.12 上（B，同样的负载，"kernel": "6.12"）。指标下方的对比表给出两次运行的数字及其差值。',
    'lesson.decade-later.imbalance':
      'make 的 Group Imbalance：在 4.1 上，R 会话所在节点按平均负载看起来很忙，它们的空闲核不会拉取 make 的任务。6.12 先按类型给组分类（有空闲核的节点有富余容量），再按利用率拉取任务，平均负载不再掩盖这些空闲核。整个运行中 make 的完成时间与修复全部 bug 的 4.1 相差不过几个百分点（npm run bugs）。',
    'lesson.decade-later.lu':
      'lu 的 Group Imbalance，论文测得慢 13 倍的情形：在 6.12 上大部分已消失，但并未全部消失（整个运行约为修复全部 bug 的 4.1 的 6 倍，而原版 4.1 为 100 倍）：当某个节点已没有富余容量时，6.12 仍然比较平均负载。',
    'lesson.decade-later.construction':
      'Scheduling Group Construction：6.12 从每个 CPU 自己的视角构建其 NUMA 组（2017 年合入的修复），因此节点 2 把节点 1 的线程看作另一个组的。lu 现在会分布到两个节点上，但整个运行仍约为论文修复版内核的 2.5 倍。',
    'lesson.decade-later.wakeup':
      'Overload on Wakeup 依然存在：被唤醒的线程仍只在其末级缓存（这里是其所在节点）内寻找空闲 CPU，而 6.12 还加入了随节点变忙而缩小的扫描预算。db 查询在 6.12 上与原版 4.1 上耗时相近。',
    'lesson.decade-later.domains':
      'Missing Scheduling Domains：6.12 在启动时只构建一次拓扑表，CPU 重新上线不再丢掉 NUMA 层级。应用程序又能分布到整台机器上：它比在原版 4.1 上快得多，但仍不及修复后的 4.1。',
    'lesson.decade-later.end':
      '四个机制中有三个在上游被改写或修复——通过的是其他改动，而不是论文的补丁；一个依然存在。docs/decade-later.md 在 6.12 源码中逐一解读每个 bug。6.12 的模型仍在构建中：目前还没有延迟出队（delayed dequeue），也没有 NOHZ 空闲负载均衡器。',
    'lesson.missing-domains.title': '浪费的核 4：Missing Scheduling Domains（调度域缺失）',
    'lesson.missing-domains.hotplug':
      'CPU 5 在 10 ms 时下线，20 ms 时重新上线。调度域随之重建——而重建丢掉了 NUMA 层级：现在每个 CPU 的调度域都止于它自己的节点。',
    'lesson.missing-domains.fork':
      '50 ms 时，一个 64 线程的应用在 CPU 0 上启动并 fork 出它的线程。fork 放置沿调度域逐级寻找最空闲的调度组。',
    'lesson.missing-domains.fork.q': '下一个线程会被放到哪个 CPU 上？',
    'lesson.missing-domains.crowd':
      '全部 64 个线程挤在节点 0 的 8 个核上，另外 56 个核空闲。检查器说明了为什么没有什么能纠正它：负载均衡的层级止于本节点，没有哪个 CPU 会拿节点 0 与其他节点比较。',
    'lesson.missing-domains.fixed':
      '修复后 NUMA 层级也会重建：线程分散到全部 64 个核上，应用的完成时间缩短为原来的几分之一。',
    'lesson.greedy-threads.title': '贪婪线程：按线程的公平',
    'lesson.greedy-threads.setup':
      '一台有 4 个硬件线程的笔记本。进程 A 用 1 个线程计算；进程 B 运行 8 个 CPU 密集型线程。9 个线程共享 4 个 CPU。',
    'lesson.greedy-threads.next':
      'CFS 对线程公平，而不是对进程公平：相同 nice 值的每个线程权重相同，不论它属于哪个进程。',
    'lesson.greedy-threads.next.q': 'CPU 0 接下来会运行哪个线程？',
    'lesson.greedy-threads.shares': '因此 A 大约得到整机的九分之一，B 得到九分之八：B 的占比随线程数增长。',
    'lesson.greedy-threads.late':
      'A 只需要一秒的 CPU 时间，却要约两秒后才完成。按进程划分权重的策略（PFS、DW-CFS）能保护 A；可以修改 policy.kind 试一试。',
    'lesson.group-identity.title': 'Group Identity：在线与离线业务混部在一个节点上',
    'lesson.group-identity.online':
      '一台 Xeon Gold 5218 的节点 0（16 核，32 个硬件线程）。8 个对延迟敏感的在线服务，每个 10 个工作线程，约每毫秒唤醒一次，运行 100 µs。它们的 cgroup 是 highclass，并开启了 SMT expeller。',
    'lesson.group-identity.offline':
      '100 ms 时，8 个离线批处理作业加入，每个 3 个 CPU 密集型线程，属于 underclass cgroup。underclass 调度实体在它们自己的树中等待（运行队列面板中画在普通树旁边），从不抢占别人；被唤醒的在线（highclass）任务会抢占它们，并且在选择 CPU 时把只运行离线任务的 CPU 视为空闲。',
    'lesson.group-identity.next':
      '在线工作线程约每毫秒唤醒一次，运行 100 µs；其间 CPU 要么运行离线任务，要么空闲。观察 CPU 3 的运行队列。',
    'lesson.group-identity.next.q': 'CPU 3 接下来会运行哪个任务？',
    'lesson.group-identity.latency':
      '离线作业吃掉了空闲时间，而在线业务的唤醒延迟依然很短：在延迟图中对比在线与离线的曲线。',
    'lesson.write-a-scheduler.title': '编写调度器：用 JavaScript 写 sched_ext 策略',
    'lesson.write-a-scheduler.start':
      '仍是 Group Imbalance 的机器（64 核、8 个节点；make -j64 与两个 R 线程并存），但这次运行的调度器不是 CFS，而是按 sched_ext 模型用 JavaScript 编写的策略：练习的骨架代码。内核在每个调度事件上调用策略的函数（回调）；策略把线程放入调度队列（DSQ）作为回应。',
    'lesson.write-a-scheduler.select':
      '线程被唤醒或被 fork 出来时，内核先调用 select_cpu(p, prev_cpu) 询问由哪个 CPU 接手。骨架代码返回 prev_cpu，即线程上次运行的 CPU。本次运行的所有线程都从 CPU 0 开始，因此全都留在那里。',
    'lesson.write-a-scheduler.enqueue':
      '接着 enqueue(p) 把线程入队。骨架代码把它插入所在 CPU 的本地队列（scx.DSQ_LOCAL），时间片取默认的 20 ms：CPU 0 的队列装着本次运行的全部线程（make、它的编译作业和两个 R 线程），机器视图显示队列的长度。',
    'lesson.write-a-scheduler.dispatch':
      '本地队列为空的 CPU 会调用 dispatch(cpu, prev) 去取任务，通常是用 scx.dsq_move_to_local(id) 从策略自己的队列中取。骨架代码的 dispatch 什么也不做，于是其余 63 个 CPU 在整个运行期间都空闲：热力图里只有一行是忙的。',
    'lesson.write-a-scheduler.idle':
      '指标记下了这一点：浪费的核时间（有可在该 CPU 上运行的线程在等待时，CPU 空闲时间之和）自 20 ms 起每毫秒增长 63 ms，那时 R2 成为 CPU 0 上的第二个线程；单个 CPU 在有任务等待时空闲的最长时段也从那时一直持续。',
    'lesson.write-a-scheduler.fifo':
      '全局 FIFO 入门策略改了两个回调：上次的 CPU 忙时，select_cpu 选一个空闲 CPU（scx.pick_idle_cpu）；enqueue 把所有线程放进一个全局队列（scx.DSQ_GLOBAL），任何本地队列为空的 CPU 都从中取任务。64 个核全部在运行，没有 CPU 在有任务等待时空闲。',
    'lesson.write-a-scheduler.exercise':
      '轮到你了：这就是练习“让每个核都忙起来”（也在“练习”菜单中），仍是骨架代码，但带有目标：有可运行的线程在等待时，任何 CPU 空闲都不得超过一个时钟节拍（4 ms）。练习面板评判这次运行：骨架代码不通过。在“编辑场景”中修改策略（policy.source）：让 dispatch() 找到任务，例如放进共享队列，然后运行到结束，查看带有数据的“通过”或“未通过”。',
  },
};
export default lessons;
