// The runqueue panel's deadline class: the EDF tree keyed by absolute
// deadline, each server's runtime left, throttled tasks, missed deadlines.
import type { Catalog } from '../translate';

const dlclass: Catalog = {
  en: {
    'dl.title': 'CPU {cpu} — deadline class (dl_rq), above the real-time class',
    'dl.hint':
      'EDF: the tree is keyed by absolute deadline (shown as time left); the leftmost runs. Each task is a constant bandwidth server: out of runtime, it is throttled until its deadline, then replenished.',
    'dl.treeLabel': 'Deadline tree of CPU {cpu}',
    'dl.empty': 'No deadline task is queued on this CPU.',
    'dl.colTask': 'task',
    'dl.colDeadline': 'deadline in',
    'dl.colRuntime': 'runtime left / reserved',
    'dl.colPeriod': 'period',
    'dl.colState': 'state',
    'dl.colMisses': 'missed',
    'dl.throttled': 'throttled',
    'dl.queued': 'queued',
    'dl.running': 'running',
    'dl.overloaded': 'overloaded — a waiting task may be pushed to a CPU with a later deadline',
    'dl.server':
      'Fair server (6.12): {state} · runtime {left} / {runtime} ms per {period} ms · deadline in {deadline} ms · ran for a starved fair class {n}×',
    'dl.serverTimer': '· timer in {at} ms',
    'dl.grub': 'GRUB bandwidth (6.12): active {running} % · on this CPU {all} % · unreserved {extra} %',
    'dl.grubHint':
      'A task with SCHED_FLAG_RECLAIM is charged its run time scaled by the active share: it can use the bandwidth that neither the others nor admission hold.',
    'dl.reclaims': '(reclaims)',
    'dl.server.init': 'not started',
    'dl.server.zero_laxity_wait': 'deferred, the fair class runs on its own',
    'dl.server.running': 'queued: the fair class starved, EDF picks it',
    'dl.server.replenish_wait': 'spent, waiting for its next period',
    'dl.serverHint':
      'Linux 6.12 gives each CPU a deadline entity that serves the fair class: 50 ms a second. Deferred, it only runs when fair tasks starved until its zero-laxity time; above every real-time task, it then runs them.',
  },
  zh: {
    'dl.title': 'CPU {cpu} — 截止期调度类（dl_rq），位于实时调度类之上',
    'dl.hint':
      'EDF：红黑树以绝对截止期为键（显示为剩余时间）；最左侧的任务运行。每个任务是一个恒定带宽服务器：运行时间用尽后被限流，直到其截止期再补充。',
    'dl.treeLabel': 'CPU {cpu} 的截止期红黑树',
    'dl.empty': '此 CPU 上没有排队的截止期任务。',
    'dl.colTask': '任务',
    'dl.colDeadline': '距截止期',
    'dl.colRuntime': '剩余 / 预留运行时间',
    'dl.colPeriod': '周期',
    'dl.colState': '状态',
    'dl.colMisses': '错过',
    'dl.throttled': '已限流',
    'dl.queued': '排队中',
    'dl.running': '运行中',
    'dl.overloaded': '过载 — 等待中的任务可被推送到截止期更晚的 CPU',
    'dl.server':
      '公平服务器（6.12）：{state} · 每 {period} ms 运行时间 {left} / {runtime} ms · 距截止期 {deadline} ms · 为饥饿的公平类运行过 {n} 次',
    'dl.serverTimer': '· 定时器 {at} ms 后触发',
    'dl.grub': 'GRUB 带宽（6.12）：活跃 {running} % · 本 CPU {all} % · 未预留 {extra} %',
    'dl.grubHint': '带 SCHED_FLAG_RECLAIM 的任务按活跃份额缩放计费：它能用上其他任务与准入控制都未占用的带宽。',
    'dl.reclaims': '（回收带宽）',
    'dl.server.init': '未启动',
    'dl.server.zero_laxity_wait': '延后中，公平类自行运行',
    'dl.server.running': '已入队：公平类处于饥饿，由 EDF 选中',
    'dl.server.replenish_wait': '已用尽，等待下一周期',
    'dl.serverHint':
      'Linux 6.12 为每个 CPU 设一个服务于公平类的截止期实体：每秒 50 ms。它被延后，只有公平任务饥饿到零松弛时刻才运行；此时它高于所有实时任务，运行公平任务。',
  },
};

export default dlclass;
