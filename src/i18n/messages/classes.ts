// The runqueue panel's class hierarchy: the five classes in the kernel's
// order, what each holds on this CPU, and the stopper's queued works.
import type { Catalog } from '../translate';

const classes: Catalog = {
  en: {
    'cls.title': 'CPU {cpu} — scheduling classes, highest first',
    'cls.label': 'Scheduling classes of CPU {cpu}',
    'cls.name.stop': 'stop',
    'cls.name.deadline': 'deadline',
    'cls.name.realtime': 'real-time',
    'cls.name.fair': 'fair ({policy})',
    'cls.name.idle': 'idle',
    'cls.tasks': '{n} runnable',
    'cls.stopAsleep': 'migration/{cpu} asleep',
    'cls.stopWoken': 'migration/{cpu} woken',
    'cls.idleTask': 'swapper/{cpu}',
    'cls.runs': 'runs',
    'cls.works': 'Stopper migration/{cpu} runs next, then sleeps:',
    'cls.workActive': 'active balance: push a task to CPU {cpu}',
    'cls.workMigrate': 'move {task} to CPU {cpu}',
    'cls.hint.stop':
      "The stop class: one stopper thread per CPU. Woken with work (an active balance's push, a task's migration at execve), it preempts every class and runs first.",
    'cls.hint.deadline': 'SCHED_DEADLINE tasks: earliest deadline first, each within its reserved runtime.',
    'cls.hint.realtime': 'SCHED_FIFO and SCHED_RR tasks: the highest priority runs; throttled past its bandwidth.',
    'cls.hint.fair': 'SCHED_NORMAL, SCHED_BATCH and SCHED_IDLE tasks: they run only when no class above has a task.',
    'cls.hint.idle': 'The idle class: its idle task runs when every class above is empty.',
  },
  zh: {
    'cls.title': 'CPU {cpu} — 调度类，优先级从高到低',
    'cls.label': 'CPU {cpu} 的调度类',
    'cls.name.stop': '停止类',
    'cls.name.deadline': '截止期',
    'cls.name.realtime': '实时',
    'cls.name.fair': '公平（{policy}）',
    'cls.name.idle': '空闲',
    'cls.tasks': '{n} 个可运行',
    'cls.stopAsleep': 'migration/{cpu} 睡眠中',
    'cls.stopWoken': 'migration/{cpu} 已唤醒',
    'cls.idleTask': 'swapper/{cpu}',
    'cls.runs': '运行中',
    'cls.works': '停止线程 migration/{cpu} 将先运行，然后睡眠：',
    'cls.workActive': '主动均衡：把一个任务推到 CPU {cpu}',
    'cls.workMigrate': '把 {task} 移到 CPU {cpu}',
    'cls.hint.stop':
      '停止类：每个 CPU 一个停止线程。有工作时（主动均衡的推送、execve 时任务的迁移）被唤醒，抢占所有调度类，最先运行。',
    'cls.hint.deadline': 'SCHED_DEADLINE 任务：截止期最早者先运行，各自不超过预留的运行时间。',
    'cls.hint.realtime': 'SCHED_FIFO 与 SCHED_RR 任务：优先级最高者运行；超出带宽时被限流。',
    'cls.hint.fair': 'SCHED_NORMAL、SCHED_BATCH 与 SCHED_IDLE 任务：只有上面的调度类都没有任务时才运行。',
    'cls.hint.idle': '空闲类：上面的调度类都为空时，运行其空闲任务。',
  },
};

export default classes;
