// Compare mode: the partner picker's labels, the metrics table, the maps.
import type { Catalog } from '../translate';

const compare: Catalog = {
  en: {
    'cmp.title': 'Compare',
    'cmp.meta': 'both at {t} ms',
    'cmp.metric': 'metric',
    'cmp.wasted': 'wasted core time',
    'cmp.violations': 'sanity-checker violations',
    'cmp.migrations': 'migrations',
    'cmp.decisions': 'balancing decisions',
    'cmp.share': '{name}: CPU share',
    'cmp.completion': '{name}: completion',
    'cmp.p99': '{name}: wakeup latency p99',
    'cmp.bugsFixed': 'this scenario, bugs fixed',
    'cmp.bugsOn': 'this scenario, 4.1 bugs on',
    'cmp.onKernel': 'this scenario on Linux {kernel}',
  },
  zh: {
    'cmp.title': '对比',
    'cmp.meta': '两者均在 {t} ms',
    'cmp.metric': '指标',
    'cmp.wasted': '浪费的核时间',
    'cmp.violations': '健全性检查违例',
    'cmp.migrations': '迁移次数',
    'cmp.decisions': '负载均衡决策',
    'cmp.share': '{name}：CPU 占比',
    'cmp.completion': '{name}：完成时间',
    'cmp.p99': '{name}：唤醒延迟 p99',
    'cmp.bugsFixed': '本场景，修复 bug 后',
    'cmp.bugsOn': '本场景，开启 4.1 的 bug',
    'cmp.onKernel': '本场景，在 Linux {kernel} 上',
  },
};
export default compare;
