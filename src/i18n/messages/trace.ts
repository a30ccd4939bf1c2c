// A real trace opened in the lab: the picker, the banner, the notes of the
// views that need the model's state, the share link's limit.
import type { Catalog } from '../translate';

const trace: Catalog = {
  en: {
    'trace.open': 'Open trace…',
    'trace.openTitle':
      'Open a real trace: ftrace text, trace-cmd report or perf script (a file or drop it on the page)',
    'trace.dropHere': 'Drop a trace (ftrace text, trace-cmd report, perf script) or a scenario JSON file',
    'trace.tooBig':
      '{file} was not read: it is {size} MiB, and the page opens traces of at most {max} MiB. Cut it shorter (trace-cmd report --first-event/--last-event) or read it with `schedsim real-trace`.',
    'trace.cannotOpen': 'Cannot open the trace',
    'trace.reading': 'Reading {file} in the engine worker…',
    'trace.banner': 'Real trace {name}: read as {format}, kernel {kernel}, {cpus} CPUs, {ms} ms recorded.',
    'trace.recorded':
      'Recorded, not simulated: play and stepping are for simulations; click the lanes or heatmaps to move the cursor.',
    'trace.onlySim': '{what}: only for simulations (a trace records switches and wakeups, not the scheduler’s state).',
    'trace.what.tree': 'Runqueue tree',
    'trace.what.inspector': 'Balancing decisions and placements',
    'trace.what.schedstat': 'Schedstat counters',
    'trace.what.exports': 'Exports',
    'trace.shareNo': 'A share link cannot carry a trace (it holds a scenario, a few kilobytes).',
    'trace.shareFile': 'Download the trace file',
    'trace.close': 'Close the trace',
    'trace.compareHint':
      'Compare: pick a simulation above (“the lab’s scenario, simulated” for the scenario this trace recorded) to put it beside this run on one clock.',
    'trace.cmpScenario': 'the lab’s scenario, simulated',
    'trace.loadTitle': 'load (nice weights of running and queued threads; a trace has no PELT)',
  },
  zh: {
    'trace.open': '打开跟踪…',
    'trace.openTitle': '打开真实跟踪：ftrace 文本、trace-cmd report 或 perf script（选择文件，或拖放到页面上）',
    'trace.dropHere': '拖放一个跟踪（ftrace 文本、trace-cmd report、perf script）或场景 JSON 文件',
    'trace.tooBig':
      '未读取 {file}：它有 {size} MiB，而页面最多打开 {max} MiB 的跟踪。请截短它（trace-cmd report --first-event/--last-event），或用 `schedsim real-trace` 读取。',
    'trace.cannotOpen': '无法打开跟踪',
    'trace.reading': '正在引擎 worker 中读取 {file}…',
    'trace.banner': '真实跟踪 {name}：按 {format} 读取，内核 {kernel}，{cpus} 个 CPU，记录了 {ms} ms。',
    'trace.recorded': '这是记录，不是模拟：播放和单步仅用于模拟；点击时间线或热力图来移动光标。',
    'trace.onlySim': '{what}：仅用于模拟（跟踪只记录切换和唤醒，不含调度器的内部状态）。',
    'trace.what.tree': '运行队列树',
    'trace.what.inspector': '负载均衡决策与放置',
    'trace.what.schedstat': 'schedstat 计数器',
    'trace.what.exports': '导出',
    'trace.shareNo': '分享链接无法携带跟踪（它只保存几 KB 的场景）。',
    'trace.shareFile': '下载跟踪文件',
    'trace.close': '关闭跟踪',
    'trace.compareHint':
      '对比：在上方选择一个模拟（若此跟踪记录的正是当前场景，选“实验室当前场景的模拟”），把它和这次运行放在同一时钟上。',
    'trace.cmpScenario': '实验室当前场景的模拟',
    'trace.loadTitle': '负载（运行与排队线程的 nice 权重；跟踪中没有 PELT）',
  },
};

export default trace;
