// The runqueue panel's real-time class: the class hierarchy of the CPU, the
// priority array with its bitmap, pushable tasks and the bandwidth throttle.
import type { Catalog } from '../translate';

const rtclass: Catalog = {
  en: {
    'rt.title': 'CPU {cpu} — real-time class (rt_rq), above the fair class',
    'rt.hierarchy': 'Classes in pick order: stop → deadline → real-time ({rt} queued) → fair → idle',
    'rt.meta': 'rt_time {used} ms of rt_runtime {runtime} ms this period ({period} ms)',
    'rt.noBandwidth': 'no throttling (6.12 without RT_GROUP_SCHED): the fair server bounds real-time tasks',
    'rt.throttled': 'throttled — its tasks wait for the next period; the fair class runs',
    'rt.overloaded': 'overloaded — a waiting task may be pushed to a CPU running something less urgent',
    'rt.bitmapLabel': 'Priority bitmap of CPU {cpu}: {n} of 100 lists non-empty',
    'rt.bitmapHint':
      'One cell per kernel prio 0–99 (0 most urgent); a filled cell is a non-empty list. The pick takes the head of the first filled cell.',
    'rt.level': 'prio {prio} (rt_priority {rtp})',
    'rt.empty': 'No real-time task is queued on this CPU.',
    'rt.running': 'running',
    'rt.pushable': 'pushable',
    'rt.taskTip': '{name}: {policy} rt_priority {rtp}, kernel prio {prio}',
    'rt.inherited': 'inherited (own prio {own})',
    'rt.inheritedTip':
      'A waiter of a PI mutex it holds lends it prio {prio} (rt_mutex_setprio); its own policy gives {own}. It returns when it unlocks.',
  },
  zh: {
    'rt.title': 'CPU {cpu} — 实时调度类（rt_rq），位于公平调度类之上',
    'rt.hierarchy': '按选取顺序的调度类：stop → deadline → 实时（排队 {rt} 个）→ 公平 → idle',
    'rt.meta': '本周期（{period} ms）已用 rt_time {used} ms，rt_runtime {runtime} ms',
    'rt.noBandwidth': '无限流（6.12 未启用 RT_GROUP_SCHED）：由公平服务器约束实时任务',
    'rt.throttled': '已限流 — 其任务等待下一周期；由公平调度类运行',
    'rt.overloaded': '过载 — 等待中的任务可被推送到运行较低优先级任务的 CPU',
    'rt.bitmapLabel': 'CPU {cpu} 的优先级位图：100 个链表中 {n} 个非空',
    'rt.bitmapHint': '每格对应内核优先级 0–99（0 最紧迫）；实心格表示链表非空。选取时取第一个实心格链表的队首。',
    'rt.level': '优先级 {prio}（rt_priority {rtp}）',
    'rt.empty': '此 CPU 上没有排队的实时任务。',
    'rt.running': '运行中',
    'rt.pushable': '可推送',
    'rt.taskTip': '{name}：{policy}，rt_priority {rtp}，内核优先级 {prio}',
    'rt.inherited': '继承（自身优先级 {own}）',
    'rt.inheritedTip':
      '它持有的 PI 互斥锁的等待者把优先级 {prio} 借给它（rt_mutex_setprio）；它自身的策略给出 {own}。解锁后恢复。',
  },
};

export default rtclass;
