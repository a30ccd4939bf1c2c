// The lab's frame: header, scenario picker, errors, language switch.
import type { Catalog } from '../translate';

const app: Catalog = {
  en: {
    'app.language': 'Language',
    'app.preset': 'preset',
    'app.customScenario': 'custom scenario',
    'app.compareWith': 'compare with',
    'app.compareNothing': '— nothing —',
    'app.openScenario': 'Open scenario…',
    'app.cannotRun': 'This scenario cannot run:',
    'app.partnerCannotRun': 'The compare partner cannot run:',
    'app.engineFailed': 'The simulation engine failed to load: {error}',
  },
  zh: {
    'app.language': '语言',
    'app.preset': '预设',
    'app.customScenario': '自定义场景',
    'app.compareWith': '对比',
    'app.compareNothing': '— 无 —',
    'app.openScenario': '打开场景…',
    'app.cannotRun': '此场景无法运行：',
    'app.partnerCannotRun': '对比场景无法运行：',
    'app.engineFailed': '模拟引擎加载失败：{error}',
  },
};
export default app;
