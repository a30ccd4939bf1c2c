// Words only screen readers and narrow screens meet: the header's menu
// button, landmark names, and the text alternatives of the drawings
// (machine cells, trees, lanes, heatmaps, charts).
import type { Catalog } from '../translate';

const a11y: Catalog = {
  en: {
    'a11y.menu': 'Menu',
    'a11y.menuLabel': 'scenario, lesson and language',
    'a11y.skip': 'Skip to the lab',
    'a11y.playback': 'playback',
    'a11y.lessonCard': 'lesson',
    'a11y.choices': 'answers',
    'a11y.machine': 'Machine with {n} CPUs. Arrow keys move between CPUs, Enter shows a CPU’s runqueue.',
    'a11y.machineNodes':
      'Machine with {nodes} nodes of {n} CPUs each. Arrow keys move between nodes, Enter opens a node’s CPUs.',
    'a11y.cpu': 'CPU {shown}: {n} runnable, load {load}, running {name}, node {node}{marks}',
    'a11y.node': 'node {node}: {shown}{marks}',
    'a11y.mark.considered': ', considered',
    'a11y.mark.busiest': ', in the busiest group',
    'a11y.mark.chosen': ', chosen',
    'a11y.mark.selected': ', shown below',
    'a11y.mark.lesson': ', named by the lesson',
    'a11y.tree': 'Runqueue tree: {n} waiting in vruntime order: {list}',
    'a11y.treeEmpty': 'Runqueue tree: empty',
    'a11y.lanes': 'CPU lanes from {t0} to {t1} ms: {list}. Arrow keys pan, + and − zoom.',
    'a11y.lanesCpu': 'CPU {cpu} ran {names}',
    'a11y.lanesIdle': 'no thread ran in this window',
    'a11y.heatmap':
      '{what} per CPU over {buckets} buckets up to {t} ms: highest {max} on CPU {cpu}; per CPU at the cursor: {list}',
    'a11y.rqList': 'runqueue in vruntime order',
    'a11y.marks': 'Migrations so far: {m}; sanity-checker violations: {v}',
    'a11y.chartShare': 'CPU share per process: {list}',
    'a11y.chartCdf': 'Wakeup latency per process (p50 / p99): {list}',
    'a11y.chartWasted': 'Wasted core time so far: {v}',
  },
  zh: {
    'a11y.menu': '菜单',
    'a11y.menuLabel': '场景、课程与语言',
    'a11y.skip': '跳到实验区',
    'a11y.playback': '播放控制',
    'a11y.lessonCard': '课程',
    'a11y.choices': '答案',
    'a11y.machine': '共 {n} 个 CPU 的机器。方向键在 CPU 间移动，回车显示该 CPU 的运行队列。',
    'a11y.machineNodes': '共 {nodes} 个节点、每节点 {n} 个 CPU 的机器。方向键在节点间移动，回车展开节点的 CPU。',
    'a11y.cpu': 'CPU {shown}：{n} 个可运行，负载 {load}，正在运行 {name}，节点 {node}{marks}',
    'a11y.node': '节点 {node}：{shown}{marks}',
    'a11y.mark.considered': '，被考虑',
    'a11y.mark.busiest': '，在最忙的组中',
    'a11y.mark.chosen': '，被选中',
    'a11y.mark.selected': '，下方显示',
    'a11y.mark.lesson': '，课程所指',
    'a11y.tree': '运行队列树：{n} 个按 vruntime 顺序等待：{list}',
    'a11y.treeEmpty': '运行队列树：空',
    'a11y.lanes': 'CPU 时间线，{t0} 到 {t1} 毫秒：{list}。方向键平移，+ 和 − 缩放。',
    'a11y.lanesCpu': 'CPU {cpu} 运行了 {names}',
    'a11y.lanesIdle': '此时间窗内没有线程运行',
    'a11y.heatmap':
      '每个 CPU 的{what}，共 {buckets} 个时间桶，至 {t} 毫秒：最高 {max}，在 CPU {cpu}；光标处每个 CPU：{list}',
    'a11y.rqList': '按 vruntime 排序的运行队列',
    'a11y.marks': '至今迁移：{m} 次；健全性检查违例：{v} 个',
    'a11y.chartShare': '各进程的 CPU 份额：{list}',
    'a11y.chartCdf': '各进程的唤醒延迟（p50 / p99）：{list}',
    'a11y.chartWasted': '至今浪费的核心时间：{v}',
  },
};
export default a11y;
