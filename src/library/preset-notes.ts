// The scenario library's notes: for every built-in preset a title, a
// paragraph in our own words on what it shows and what to look for, in
// English and Chinese, and tags in three facets (which bug, which policy,
// which topic). tests/unit/preset-notes.test.ts fails when a preset has no
// note or a note names a preset the engine does not have. The figures quoted
// (which CPUs idle) come from running the presets, not from the paper.
import type { Lang } from '../i18n/i18n';

export type Facet = 'bug' | 'policy' | 'topic';

/** Every tag and its facet; labels are in messages/library.ts as `lib.tag.<id>`. */
export const TAGS = {
  'group-imbalance': 'bug',
  'group-construction': 'bug',
  'overload-on-wakeup': 'bug',
  'missing-domains': 'bug',
  'bug-fixed': 'bug',
  cfs: 'policy',
  eevdf: 'policy',
  o1: 'policy',
  pfs: 'policy',
  'dw-cfs': 'policy',
  'group-identity': 'policy',
  'real-time': 'policy',
  nice: 'topic',
  latency: 'topic',
  numa: 'topic',
  balancing: 'topic',
  placement: 'topic',
  hotplug: 'topic',
  autogroup: 'topic',
  switches: 'topic',
  cost: 'topic',
  fairness: 'topic',
  smt: 'topic',
} as const satisfies Record<string, Facet>;
export type Tag = keyof typeof TAGS;

export interface PresetNote {
  title: Record<Lang, string>;
  text: Record<Lang, string>;
  tags: Tag[];
}

const FIX_EN =
  'Use “compare with” to run it beside the same scenario with the 4.1 bugs on, and see the difference in wasted core time and completion time.';
const FIX_ZH = '可用“对比”菜单把它与开启 4.1 缺陷的同一场景并排运行，看被浪费的核时间和完成时间差多少。';

export const PRESET_NOTES: Record<string, PresetNote> = {
  'cfs-nice-levels': {
    title: { en: 'Nice levels on one CPU', zh: '单 CPU 上的 nice 值' },
    text: {
      en: 'Three endless CPU hogs at nice 0, 5 and 10 and one task that sleeps 9 ms out of every 10, all on a single CPU. CFS hands out CPU time by weight (1024, 335 and 110), so over a long run the hogs settle near 70 %, 23 % and 7.5 % of the time they get. Step event by event and watch the red-black tree: the task with the smallest vruntime sits leftmost and runs next, and each one’s vruntime grows more slowly the heavier it is. When the sleeper wakes it is placed just behind min_vruntime and preempts the running hog at once.',
      zh: '单个 CPU 上跑三个永不停歇的 CPU 密集任务（nice 分别为 0、5、10），外加一个每 10 ms 睡 9 ms 的任务。CFS 按权重（1024、335、110）分配 CPU 时间，运行足够久后三者分别接近 70%、23% 和 7.5%。逐事件单步，观察红黑树：vruntime 最小的任务位于最左侧，下一个被调度；权重越大，vruntime 涨得越慢。睡眠任务醒来时被放在略低于 min_vruntime 的位置，立刻抢占正在运行的任务。',
    },
    tags: ['cfs', 'nice', 'fairness', 'latency'],
  },
  'group-imbalance-make': {
    title: { en: 'Group Imbalance: make and two R sessions', zh: 'Group Imbalance：make 与两个 R 会话' },
    text: {
      en: 'The first of the four Wasted Cores bugs, on the 64-core, 8-node Opteron. Two single-threaded R processes run in their own terminal sessions; then make -j64 starts in a third and keeps 64 compile jobs in flight. With autogroups every session is worth the same 1024 shares, so each of make’s many jobs carries only a few units of load while an R thread carries all 1024. Balancing compares nodes by average load, and the node holding an R thread looks loaded even though seven of its eight cores are idle. In the topology view and the heat map the two R nodes (CPUs 8–15 and 24–31 in this run) stay dark except for the R core, while other nodes run two jobs per core. Watch the wasted core time and make’s completion time.',
      zh: 'Wasted Cores 论文四个缺陷中的第一个，运行在 64 核、8 个 NUMA 节点的 Opteron 上。两个单线程 R 进程各自在独立的终端会话中运行，随后 make -j64 在第三个会话中启动，始终保持 64 个编译任务。开启 autogroup 后每个会话都是 1024 份额，make 的大量任务每个只分到几个单位的负载，而 R 线程独占 1024。负载均衡按节点的平均负载比较，于是有 R 线程的节点看上去很忙，尽管它的 8 个核里有 7 个空闲。在拓扑视图和热力图里，两个 R 节点（本次运行中为 CPU 8–15 和 24–31）除了 R 所在的核几乎一直是暗的，而其他节点每个核挤着两个任务。重点看被浪费的核时间和 make 的完成时间。',
    },
    tags: ['group-imbalance', 'cfs', 'balancing', 'numa', 'autogroup'],
  },
  'group-imbalance-make-fixed': {
    title: { en: 'Group Imbalance fixed: make and two R sessions', zh: 'Group Imbalance 已修复：make 与两个 R 会话' },
    text: {
      en: `The same make -j64 and two R processes with the fix applied: besides the average load, groups are compared by their least-loaded CPU, so an idle core on an R node notices that every core elsewhere is busy and pulls a job. The idle stretches on the R nodes disappear from the heat map. ${FIX_EN}`,
      zh: `同样的 make -j64 与两个 R 进程，但打上了修复：除平均负载外，还比较各组中负载最低的 CPU，于是 R 节点上的空闲核能发现其他节点每个核都在忙，并拉取任务过来。热力图中 R 节点的空闲段随之消失。${FIX_ZH}`,
    },
    tags: ['group-imbalance', 'bug-fixed', 'cfs', 'balancing', 'numa'],
  },
  'group-imbalance-lu': {
    title: {
      en: 'Group Imbalance: a 60-thread lu and four R sessions',
      zh: 'Group Imbalance：60 线程的 lu 与四个 R 会话',
    },
    text: {
      en: 'The paper’s second Group Imbalance workload, set up as the paper tells it. Four R processes start one after another, each in its own session, and land on four different nodes (1 to 4). At 400 ms NAS lu starts 60 threads, written as the NAS code is: each sweep is a pipeline in which a thread spins until its left neighbour posts a flag, works on its share of a plane, then posts its own. Each lu thread carries about a sixtieth of its session’s load, each R thread a full share, so every R node looks busier on average than a node crowded with lu threads: lu crowds nodes 0, 5, 6 and 7, up to four threads to a core, while seven cores on each R node idle for the whole run. Doubling up costs far more than half: a thread whose neighbour shares its core spins away the slice the neighbour needs to post. Look for the idle cores in the heat map and the inspector’s reason why nobody steals.',
      zh: '论文中 Group Imbalance 的第二个负载，按论文的描述搭建。四个 R 进程依次启动，各在自己的会话中，落在四个不同的节点上（1 到 4）。400 ms 时 NAS lu 启动 60 个线程，按 NAS 代码的写法：每次扫描是一条流水线，线程自旋等待左邻居发布标志，计算自己那份平面，再发布自己的标志。每个 lu 线程只承担其会话负载的约六十分之一，而每个 R 线程是完整的一份，所以每个 R 节点的平均负载看起来都比挤满 lu 线程的节点更高：lu 挤在节点 0、5、6、7 上，一个核上最多四个线程，而每个 R 节点上有七个核在整个运行期间空闲。挤在一起的代价远不止一半：邻居与自己同核的线程，会自旋耗尽邻居发布标志所需的时间片。在热力图里找空闲核，并在检查器里看为什么没人来偷任务。',
    },
    tags: ['group-imbalance', 'cfs', 'balancing', 'numa', 'autogroup'],
  },
  'group-imbalance-lu-fixed': {
    title: { en: 'Group Imbalance fixed: lu and four R sessions', zh: 'Group Imbalance 已修复：lu 与四个 R 会话' },
    text: {
      en: `The lu workload and four R processes with the fix: comparing groups by their minimum load lets the idle cores next to the R threads pull lu threads, so every thread gets a core of its own and the pipeline stops waiting for doubled-up neighbours. ${FIX_EN}`,
      zh: `lu 负载与四个 R 进程，打上修复：按最小负载比较各组，使 R 线程旁边的空闲核能拉取 lu 线程，每个线程都有自己的核，流水线不再等待挤在一起的邻居。${FIX_ZH}`,
    },
    tags: ['group-imbalance', 'bug-fixed', 'cfs', 'balancing', 'numa'],
  },
  'missing-domains-hotplug': {
    title: { en: 'Missing Scheduling Domains after CPU hotplug', zh: 'CPU 热插拔后丢失调度域' },
    text: {
      en: 'A Wasted Cores bug triggered by an administrator action: CPU 5 is taken offline and brought back; because its package holds two nodes, x86 Linux 4.1 then switches to a topology table without NUMA levels, and the domain rebuild that follows forgets them. When a 64-thread application then starts on CPU 0, neither fork placement nor balancing can see past node 0: all 64 threads pile onto its eight cores (CPUs 0–7, eight or so per runqueue) while the other 56 cores stay idle for the whole run. The topology view shows one lit node; the inspector shows balancing decisions that never look beyond it.',
      zh: '由管理员操作触发的 Wasted Cores 缺陷：CPU 5 先下线再上线；由于它所在的封装包含两个节点，x86 上的 Linux 4.1 随即换用一张没有 NUMA 层级的拓扑表，随后的调度域重建丢掉了 NUMA 层级。此后一个 64 线程的程序在 CPU 0 上启动，fork 放置和负载均衡都看不到 0 号节点以外：64 个线程全部挤在它的 8 个核上（CPU 0–7，每个运行队列八个左右），其余 56 个核整个运行期间都空闲。拓扑视图中只有一个节点亮着；检查器中的均衡决策从不越过它。',
    },
    tags: ['missing-domains', 'cfs', 'hotplug', 'balancing', 'numa'],
  },
  'missing-domains-hotplug-fixed': {
    title: { en: 'Missing Scheduling Domains fixed', zh: '丢失调度域：已修复' },
    text: {
      en: `The same hotplug and 64-thread application with the fix: the rebuilt domains keep their NUMA levels, so fork placement and balancing spread the threads over all eight nodes, one per core. ${FIX_EN}`,
      zh: `同样的热插拔和 64 线程程序，打上修复：重建的调度域保留了 NUMA 层级，fork 放置和负载均衡把线程分散到全部 8 个节点，每核一个。${FIX_ZH}`,
    },
    tags: ['missing-domains', 'bug-fixed', 'cfs', 'hotplug', 'balancing', 'numa'],
  },
  'group-construction-numactl': {
    title: {
      en: 'Scheduling Group Construction: an app on nodes 1 and 2',
      zh: '调度组构建缺陷：绑定在节点 1 和 2 上的程序',
    },
    text: {
      en: 'NAS lu with 16 threads (a pipeline whose threads spin on their neighbour’s flag) is restricted with numactl to nodes 1 and 2, which are two hops apart on this machine, and its threads are created on node 1. Linux 4.1 builds the top-level scheduling groups from CPU 0’s point of view for every CPU, so nodes 1 and 2 end up in the same groups; when a CPU of node 2 compares them, the averages look equal and it never pulls work. The threads crowd node 1 (CPUs 8–15) while node 2 (CPUs 16–23) stays idle. Look at the topology view and the inspector’s group statistics.',
      zh: '16 线程的 NAS lu（线程自旋等待邻居标志的流水线）被 numactl 限制在节点 1 和节点 2 上（在这台机器上两者相隔两跳），线程都在节点 1 上创建。Linux 4.1 为所有 CPU 都按 CPU 0 的视角构建顶层调度组，结果节点 1 和 2 落在同样的组里；节点 2 的 CPU 比较时两边平均负载相同，于是从不拉取任务。线程挤在节点 1（CPU 8–15），节点 2（CPU 16–23）一直空闲。请看拓扑视图和检查器中的调度组统计。',
    },
    tags: ['group-construction', 'cfs', 'balancing', 'numa'],
  },
  'group-construction-numactl-fixed': {
    title: { en: 'Scheduling Group Construction fixed', zh: '调度组构建缺陷：已修复' },
    text: {
      en: `The same numactl-bound program with the fix: each CPU builds the groups from its own point of view, so a CPU of node 2 sees node 1 as the busier group and pulls threads across. ${FIX_EN}`,
      zh: `同样被 numactl 绑定的程序，打上修复：每个 CPU 从自己的视角构建调度组，节点 2 的 CPU 能看出节点 1 更忙，于是把线程拉过来。${FIX_ZH}`,
    },
    tags: ['group-construction', 'bug-fixed', 'cfs', 'balancing', 'numa'],
  },
  'overload-on-wakeup-db': {
    title: { en: 'Overload-on-Wakeup: 64 database workers', zh: 'Overload-on-Wakeup：64 个数据库工作线程' },
    text: {
      en: 'Sixty-four database workers, one per core, run a query in short steps and meet at a barrier after each, so they sleep and wake constantly; a few short-lived kernel threads wake now and then; autogroup is off. Once a kernel thread has pushed a worker onto another node, that node holds one worker too many. A waking thread is placed only within its node (select_idle_sibling), so at every step the extra worker wakes beside a busy one while a core on another node is idle, and the whole step waits for the pair sharing a core. The waste is spread thinly over every CPU: watch the wasted core time, the placements in the inspector and the sanity checker’s violations.',
      zh: '64 个数据库工作线程，每核一个，以很短的步骤执行查询，每步结束后在屏障处汇合，因此不断地睡眠和唤醒；另有几个短暂的内核线程时常醒来；autogroup 关闭。一旦某个内核线程把一个工作线程挤到了别的节点，那个节点上的工作线程就比核多一个。唤醒时只在本节点内挑选 CPU（select_idle_sibling），所以每一步那个多出来的线程都在一个忙碌线程旁醒来，而其他节点上有核空闲，整步都要等这对挤在同一核上的线程。浪费被摊薄到每个 CPU 上：请看被浪费的核时间、检查器里的放置决策和 sanity checker 报告的违规。',
    },
    tags: ['overload-on-wakeup', 'cfs', 'placement', 'numa', 'latency'],
  },
  'overload-on-wakeup-db-fixed': {
    title: { en: 'Overload-on-Wakeup fixed', zh: 'Overload-on-Wakeup：已修复' },
    text: {
      en: `The same query steps with the fix: a waking worker goes back to its previous CPU if that one is idle, and otherwise to the CPU that has been idle the longest, so an extra worker on a full node moves to an idle core at its next wakeup. ${FIX_EN}`,
      zh: `同样的查询步骤，打上修复：工作线程醒来时若原 CPU 空闲就回到原 CPU，否则去空闲最久的 CPU，于是满载节点上多出来的线程在下一次唤醒时就会移到空闲核上。${FIX_ZH}`,
    },
    tags: ['overload-on-wakeup', 'bug-fixed', 'cfs', 'placement', 'numa'],
  },
  'gi-colocation': {
    title: { en: 'Group Identity: online services beside offline jobs', zh: 'Group Identity：在线服务与离线任务混部' },
    text: {
      en: 'Colocation on one node of a two-socket Xeon Gold 5218, with Alibaba Cloud Linux’s Group Identity switched on. Eight latency-sensitive online services (ten workers each, waking about every millisecond for 100 µs) sit in a highclass cgroup with the SMT expeller on (while they run, offline work on the sibling hardware thread of their core is held off); at 100 ms eight CPU-bound offline jobs join in an underclass cgroup. Underclass work runs only when nothing else wants the CPU, and a waking online worker preempts it at once and treats CPUs running only offline work as idle. Watch the online processes’ wakeup-latency percentiles and CDF before and after the offline jobs arrive.',
      zh: '在双路 Xeon Gold 5218 的一个节点上做混部，开启阿里云 Linux 的 Group Identity。8 个延迟敏感的在线服务（每个 10 个 worker，约每毫秒醒来运行 100 µs）放在 highclass cgroup 中，并开启 SMT expeller（它们运行时，同一物理核另一个硬件线程上的离线任务会被压制）；100 ms 时 8 个 CPU 密集的离线任务加入 underclass cgroup。underclass 任务只在没有其他任务要运行时才运行，在线 worker 醒来会立即抢占它，并把只跑离线任务的 CPU 当作空闲。请观察离线任务加入前后在线进程的唤醒延迟分位数和 CDF。',
    },
    tags: ['group-identity', 'cfs', 'latency', 'smt'],
  },
  'o1-vs-cfs': {
    title: { en: 'The O(1) scheduler: hogs and an editor', zh: 'O(1) 调度器：CPU 密集任务与编辑器' },
    text: {
      en: 'The scheduler of Linux 2.6.0 to 2.6.22 on one CPU: two nice-0 hogs and an editor-like task that sleeps about 20 ms and then runs 2 ms. The hogs take 100 ms timeslices in turn; a hog that has used its slice moves to the expired array and returns when the arrays are switched. Sleeping earns the editor the full interactivity bonus (priority 115 against the hogs’ 125), so each wakeup preempts a hog immediately. In the Gantt lanes the hogs alternate in long 100 ms blocks, cut by the editor’s short runs; change policy.kind to cfs in the scenario to see the hogs alternate in slices of a few milliseconds instead.',
      zh: 'Linux 2.6.0 到 2.6.22 使用的调度器，单个 CPU：两个 nice 0 的 CPU 密集任务，以及一个类似编辑器、睡约 20 ms 再运行 2 ms 的任务。两个密集任务轮流使用 100 ms 的时间片；用完时间片的任务进入 expired 数组，等两个数组交换后再回来。编辑器靠睡眠拿到满额的交互奖励（优先级 115，密集任务为 125），每次醒来都立即抢占。在 Gantt 泳道中，两个密集任务以 100 ms 的长块交替，中间穿插编辑器的短暂运行；把场景里的 policy.kind 改成 cfs，可以看到两个密集任务改为以几毫秒为单位交替运行。',
    },
    tags: ['o1', 'cfs', 'latency', 'nice'],
  },
  'eevdf-vs-cfs': {
    title: { en: 'EEVDF: a short-slice task among hogs', zh: 'EEVDF：CPU 密集任务中的短时间片任务' },
    text: {
      en: 'EEVDF, the fair class of Linux 6.6 and later, on one CPU with three hogs and a frame-like task that wakes about every 2 ms to run 1 ms and asks for a 100 µs slice. Under EEVDF a task may run only when it is eligible (its lag is not negative), and among eligible tasks the earliest virtual deadline wins; a short requested slice means an early deadline, so the frame task is picked as soon as it is eligible. Under CFS the same task, which wants more than its fair quarter, has no sleeper credit left and waits behind a hog’s slice. Compare the latency CDF with the same scenario under cfs.',
      zh: 'EEVDF 是 Linux 6.6 起的公平调度类。单个 CPU 上有三个 CPU 密集任务，以及一个类似渲染帧的任务：约每 2 ms 醒来运行 1 ms，并申请 100 µs 的时间片。EEVDF 中任务只有在合格（lag 非负）时才能运行，合格任务里虚拟截止时间最早者胜出；申请的时间片越短截止时间越早，因此帧任务一旦合格就会被选中。在 CFS 下，这个想要超过四分之一份额的任务已没有睡眠补偿，只能排在密集任务的时间片后面。请把延迟 CDF 与 cfs 下的同一场景作对比。',
    },
    tags: ['eevdf', 'cfs', 'latency'],
  },
  'context-switches': {
    title: { en: 'Voluntary and involuntary context switches', zh: '自愿与非自愿上下文切换' },
    text: {
      en: 'Two familiar benchmarks one after the other on a 4-CPU laptop. First stress -c 10: ten workers that only compute, so they leave the CPU only when preempted and every switch is involuntary. From 5 s, sysbench threads: ten threads that lock a contended mutex, compute briefly, unlock and yield, so they block (voluntary switches) and yield (involuntary, since a yielding task stays runnable) thousands of times a second. Compare the nvcsw and nivcsw columns of the task table, and the load average, which counts runnable threads.',
      zh: '在 4 CPU 的笔记本上先后运行两个常见基准。先是 stress -c 10：十个只做计算的 worker，只有被抢占时才让出 CPU，所以每次切换都是非自愿的。5 s 起是 sysbench threads：十个线程争抢同一把互斥锁，短暂计算、解锁后 yield，于是每秒数千次阻塞（自愿切换）和 yield（非自愿，因为 yield 后任务仍可运行）。请对比任务表中的 nvcsw 与 nivcsw 两列，以及统计可运行线程数的负载均值。',
    },
    tags: ['switches', 'cfs', 'cost'],
  },
  'pipe-pingpong': {
    title: { en: 'The cost of a wakeup: pipe ping-pong', zh: '唤醒的代价：管道乒乓' },
    text: {
      en: 'Two pairs of tasks pass a token back and forth as perf bench sched pipe does, each side doing a microsecond of work, waking the other and blocking. One pair is pinned to CPU 0, so every round trip is two context switches on one CPU. The other pair may use CPUs 1–3; its partners settle on different CPUs, so every wakeup crosses CPUs and every switch is to or from idle. With the cost model charging 1.5 µs per switch and 2 µs per cross-CPU wakeup, compare the two pairs’ round trips in the task table and the Gantt lanes.',
      zh: '仿照 perf bench sched pipe，两对任务来回传递令牌：每一方做 1 微秒的工作，唤醒对方后阻塞。一对绑定在 CPU 0 上，每个来回就是同一 CPU 上的两次上下文切换。另一对可使用 CPU 1–3，双方会落在不同的 CPU 上，于是每次唤醒都跨 CPU，每次切换都是切入或切出 idle。成本模型按每次切换 1.5 µs、每次跨 CPU 唤醒 2 µs 计费，请在任务表和 Gantt 泳道中比较两对任务的往返次数。',
    },
    tags: ['cost', 'switches', 'cfs', 'placement'],
  },
  'greedy-threads': {
    title: { en: 'Greedy threads: one thread against eight', zh: '贪婪线程：一个线程对八个线程' },
    text: {
      en: 'The problem DW-CFS was proposed for, on a 4-CPU laptop: process A has one thread and one second of work, process B runs eight CPU-bound threads. CFS is fair to threads, not to processes, so B takes about eight ninths of the machine and A finishes late. Set policy.kind to pfs (a thread weighs its process’s weight divided by its live threads) or dw-cfs (weights scaled by α of the thread and CPU counts) in the scenario and compare A’s completion time and the CPU shares.',
      zh: 'DW-CFS 论文要解决的问题，运行在 4 CPU 的笔记本上：进程 A 只有一个线程、1 秒的工作量，进程 B 有八个 CPU 密集线程。CFS 对线程公平而非对进程公平，于是 B 拿走约九分之八的机器，A 迟迟完不成。把场景中的 policy.kind 改为 pfs（线程权重为进程权重除以其存活线程数）或 dw-cfs（权重按线程数和 CPU 数的 α 缩放），比较 A 的完成时间和各进程的 CPU 份额。',
    },
    tags: ['cfs', 'pfs', 'dw-cfs', 'fairness'],
  },
  'rt-fifo-rr-throttling': {
    title: { en: 'Real-time classes: FIFO, RR and throttling', zh: '实时调度类：FIFO、RR 与限流' },
    text: {
      en: 'One CPU under Linux 4.1. A fair hog runs alone until, at 100 ms, a SCHED_FIFO task at rt_priority 50 and two SCHED_RR tasks at rt_priority 20 arrive: the real-time class comes before the fair class, so FIFO takes the CPU at once, and the RR tasks wait behind it. When FIFO exits at 1.3 s the RR tasks take 100 ms turns. Real-time tasks may use 950 ms of each second (sched_rt_runtime_us): past that the runqueue is throttled and the fair hog runs to the end of the period. The runqueue panel draws the real-time priority array and its bitmap above the fair class’s tree; real-time slices carry a dark band in the lanes.',
      zh: 'Linux 4.1 下的单个 CPU。一个公平调度类的 CPU 密集任务独自运行，直到 100 ms 时到来一个 rt_priority 50 的 SCHED_FIFO 任务和两个 rt_priority 20 的 SCHED_RR 任务：实时调度类排在公平调度类之前，FIFO 任务立即占用 CPU，RR 任务在其后等待。FIFO 在 1.3 s 退出后，两个 RR 任务以 100 ms 为一轮交替运行。实时任务每秒最多使用 950 ms（sched_rt_runtime_us）：超出后运行队列被限流，公平调度类的任务运行到该周期结束。运行队列面板在公平调度类的红黑树之上画出实时优先级数组及其位图；时间线中实时任务的片段带有深色条带。',
    },
    tags: ['real-time', 'latency', 'fairness'],
  },
  'priority-inversion': {
    title: { en: 'Priority inversion', zh: '优先级反转' },
    text: {
      en: 'One CPU under Linux 4.1, three tasks and one mutex without a protocol. “low”, a fair task, takes mutex m and works 20 ms holding it. At 5 ms “high” (SCHED_FIFO 90) wants m and sleeps on it. At 6 ms “medium” (SCHED_FIFO 50), which needs no mutex, arrives: a real-time task comes before the fair class, so it preempts low and runs its 200 ms. high waits all that time for a task it outranks: low cannot finish its section while medium runs. Compare with priority-inheritance.',
      zh: 'Linux 4.1 下的单个 CPU，三个任务、一个没有协议的互斥锁。公平调度类任务 “low” 拿到互斥锁 m，持锁工作 20 ms。5 ms 时 “high”（SCHED_FIFO 90）想要 m，于是睡在它上面。6 ms 时不需要锁的 “medium”（SCHED_FIFO 50）到来：实时任务排在公平调度类之前，它抢占 low，运行整整 200 ms。high 在这段时间里一直等待一个优先级比它低的任务：medium 运行时 low 无法完成临界区。请与 priority-inheritance 对比。',
    },
    tags: ['real-time', 'latency'],
  },
  'priority-inheritance': {
    title: { en: 'Priority inheritance', zh: '优先级继承' },
    text: {
      en: 'The tasks of priority-inversion with PTHREAD_PRIO_INHERIT mutexes (rt-app’s pi_enabled), which the kernel backs with an rt_mutex. When high sleeps on m, the owner low runs at high’s priority: rt_mutex_setprio moves it into the real-time class, so medium, less urgent, cannot preempt it. low unlocks at about 20 ms, falls back to its own priority and the fair class, and high takes m at once. high’s wait is bounded by what was left of low’s critical section; medium runs after. The event log shows each sched_pi_setprio.',
      zh: '与 priority-inversion 相同的任务，但互斥锁使用 PTHREAD_PRIO_INHERIT（rt-app 的 pi_enabled），内核以 rt_mutex 实现。high 睡在 m 上时，持有者 low 以 high 的优先级运行：rt_mutex_setprio 把它移入实时调度类，于是优先级较低的 medium 无法抢占它。low 在约 20 ms 时解锁，回到自己的优先级和公平调度类，high 立即拿到 m。high 的等待以 low 剩余的临界区为上限；medium 随后运行。事件日志中可以看到每一次 sched_pi_setprio。',
    },
    tags: ['real-time', 'latency'],
  },
  'edf-vs-fixed-priorities': {
    title: { en: 'EDF against fixed priorities: SCHED_DEADLINE', zh: 'EDF 与固定优先级：SCHED_DEADLINE' },
    text: {
      en: 'Two periodic tasks on one CPU under Linux 4.1, as rt-app writes them: t6 runs 3 ms every 6 ms, t9 runs 4 ms every 9 ms, and each job is due when its next period begins. Together they need 94.4 % of the CPU. As SCHED_DEADLINE tasks (runtime = the work, deadline = the period) the deadline class runs the earliest deadline first: at 6 ms t6’s new job is due at 12, later than t9’s 9, so t9 keeps the CPU and ends in time. No deadline is missed: the lanes carry no miss mark, and the deadline panel counts none. Load edf-vs-fixed-priorities-rm for the same set under fixed SCHED_FIFO priorities.',
      zh: 'Linux 4.1 下单个 CPU 上的两个周期任务，写法与 rt-app 相同：t6 每 6 ms 运行 3 ms，t9 每 9 ms 运行 4 ms，每个作业的截止期是下一个周期开始之时。两者合计需要 94.4% 的 CPU。作为 SCHED_DEADLINE 任务（运行时间 = 工作量，截止期 = 周期），截止期调度类总是先运行截止期最早的任务：6 ms 时 t6 的新作业截止于 12 ms，晚于 t9 的 9 ms，所以 t9 继续占用 CPU 并按时完成。没有错过任何截止期：泳道上没有错过截止期的标记，截止期面板的计数为零。载入 edf-vs-fixed-priorities-rm 可看同一组任务在固定的 SCHED_FIFO 优先级下的情形。',
    },
    tags: ['real-time', 'latency'],
  },
  'edf-vs-fixed-priorities-rm': {
    title: { en: 'EDF against fixed priorities: rate-monotonic FIFO', zh: 'EDF 与固定优先级：速率单调的 FIFO' },
    text: {
      en: 'The task set of edf-vs-fixed-priorities (3 ms every 6 ms, 4 ms every 9 ms) as SCHED_FIFO tasks with rate-monotonic priorities: the shorter period gets the higher priority. Their utilisation, 0.944, is above the rate-monotonic bound for two tasks, 2(√2 − 1) ≈ 0.828, and the bound’s promise is gone: released together, t9 waits for two jobs of t6 and ends its own at 10 ms, a millisecond after its deadline. That happens every 18 ms, 100 times in the run. Each miss is marked in the lanes at the deadline it missed, with a line to where the job ended.',
      zh: 'edf-vs-fixed-priorities 的同一组任务（每 6 ms 运行 3 ms，每 9 ms 运行 4 ms），改为按速率单调原则设置优先级的 SCHED_FIFO 任务：周期越短优先级越高。它们的利用率 0.944 高于两个任务的速率单调界限 2(√2 − 1) ≈ 0.828，界限的保证不复存在：两者同时释放时，t9 要等 t6 的两个作业，自己的作业到 10 ms 才结束，比截止期晚了 1 ms。这种情况每 18 ms 发生一次，整个运行中共 100 次。泳道在每次错过的截止期处画出标记，并连一条线到作业实际结束的时刻。',
    },
    tags: ['real-time', 'latency'],
  },
};

/** A note's searchable text in one language: title, paragraph, tag labels. */
export function noteText(name: string, note: PresetNote, lang: Lang, tagLabel: (t: Tag) => string): string {
  return [name, note.title[lang], note.text[lang], ...note.tags.map(tagLabel)].join(' \n');
}
