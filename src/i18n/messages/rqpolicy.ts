// The runqueue panel's policy-specific parts (O(1) priority arrays, Group
// Identity's underclass tree) and compare mode's machines side by side.
import type { Catalog } from '../translate';

const rqpolicy: Catalog = {
  en: {
    'rqpolicy.prioTip': 'prio {prio}',
    'rqpolicy.prioEmptyTip': 'prio {prio} (empty)',
    'rqpolicy.taskTip': '{name} [{pid}] · static_prio {prio} · sleep_avg {sleep} ms · timeslice left {left} ms',
    'rqpolicy.taskTipRunning':
      '{name} [{pid}] · static_prio {prio} · sleep_avg {sleep} ms · timeslice left {left} ms · running',
    'rqpolicy.o1Title': 'CPU {cpu} runqueue — O(1) priority arrays',
    'rqpolicy.o1Meta': 'nr_running {nr} · active {active} · expired {expired} · array switches {switches}',
    'rqpolicy.o1ExpiredSince': 'first expiry since the last switch at {ms} ms',
    'rqpolicy.o1CurrHint': 'running — still queued in its priority list, as in 2.6',
    'rqpolicy.o1SwitchHint':
      'schedule() takes the first task of the lowest set bit in the active bitmap. A task that uses up its timeslice moves to the expired array (unless interactive); when the active array empties, the two arrays swap ({switches} switches so far).',
    'rqpolicy.o1Active': 'active array',
    'rqpolicy.o1Expired': 'expired array',
    'rqpolicy.o1ArrayMeta': '{n} task(s) · first set bit {first}',
    'rqpolicy.o1RtRange': '← real-time 0–99 · normal 100–139 →',
    'rqpolicy.o1Empty': 'empty: no bit set',
    'rqpolicy.giNormal': 'normal tree (highclass and normal)',
    'rqpolicy.giUnder': 'underclass tree',
    'rqpolicy.giUnderCount': '{n} waiting',
    'rqpolicy.giUnderHint': 'picked only when the normal tree has nothing runnable (Group Identity)',
    'rqpolicy.giUnderEmpty': 'empty: no underclass entity waits here',
    'rqpolicy.giUnderLabel': 'underclass red-black tree of CPU {cpu}',
    'rqpolicy.compareMachines': 'The two machines at the same simulated time',
  },
  zh: {
    'rqpolicy.prioTip': '优先级 {prio}',
    'rqpolicy.prioEmptyTip': '优先级 {prio}（空）',
    'rqpolicy.taskTip': '{name} [{pid}] · 静态优先级 {prio} · sleep_avg {sleep} ms · 剩余时间片 {left} ms',
    'rqpolicy.taskTipRunning':
      '{name} [{pid}] · 静态优先级 {prio} · sleep_avg {sleep} ms · 剩余时间片 {left} ms · 运行中',
    'rqpolicy.o1Title': 'CPU {cpu} 运行队列 — O(1) 优先级数组',
    'rqpolicy.o1Meta': 'nr_running {nr} · active {active} · expired {expired} · 数组切换 {switches} 次',
    'rqpolicy.o1ExpiredSince': '上次切换后首个任务过期于 {ms} ms',
    'rqpolicy.o1CurrHint': '正在运行 — 与 2.6 内核一样，仍留在其优先级链表中',
    'rqpolicy.o1SwitchHint':
      'schedule() 从 active 位图中最低的置位优先级取第一个任务。时间片用完的任务移入 expired 数组（交互式任务除外）；active 数组为空时两个数组互换（已切换 {switches} 次）。',
    'rqpolicy.o1Active': 'active 数组',
    'rqpolicy.o1Expired': 'expired 数组',
    'rqpolicy.o1ArrayMeta': '{n} 个任务 · 第一个置位 {first}',
    'rqpolicy.o1RtRange': '← 实时 0–99 · 普通 100–139 →',
    'rqpolicy.o1Empty': '空：位图无置位',
    'rqpolicy.giNormal': '普通红黑树（highclass 与 normal）',
    'rqpolicy.giUnder': 'underclass 红黑树',
    'rqpolicy.giUnderCount': '{n} 个等待',
    'rqpolicy.giUnderHint': '仅当普通树中没有可运行实体时才会从这里挑选（Group Identity）',
    'rqpolicy.giUnderEmpty': '空：此处没有等待的 underclass 实体',
    'rqpolicy.giUnderLabel': 'CPU {cpu} 的 underclass 红黑树',
    'rqpolicy.compareMachines': '同一模拟时刻的两台机器',
  },
};
export default rqpolicy;
