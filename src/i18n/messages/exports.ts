// Exports: view images (PNG/SVG), the run's trace (Perfetto) and metrics (CSV).
import type { Catalog } from '../translate';

const exportsCatalog: Catalog = {
  en: {
    'exports.failed': 'The export failed: {error}',
    'exports.export': 'export',
    'exports.viewAs': 'export this view',
    'exports.pngTip': 'Save this view as a PNG image',
    'exports.svgTip': 'Save this view as an SVG drawing (shapes, styles inlined)',
    'exports.svgCanvasTip':
      'Save this view as SVG: this view is drawn on a canvas, so the SVG holds it as an embedded PNG picture, not as shapes',
    'exports.nothing': 'nothing drawn to export',
    'exports.run': 'Export the run',
    'exports.trace': 'Trace (Perfetto JSON)',
    'exports.traceTip':
      'The run from its start to the cursor as Chrome trace JSON: open it at ui.perfetto.dev or chrome://tracing',
    'exports.csv': 'Metrics (CSV)',
    'exports.csvTip': 'The metrics report at the cursor as CSV: headline figures, one row per process, one row per CPU',
    'exports.truncated':
      'Saved {file}, cut at its size cap: it stops at {ms} ms after {events} trace events; export an earlier cursor or a shorter run for the rest',
    'exports.written': 'Saved {file} ({events} trace events)',
  },
  zh: {
    'exports.failed': '导出失败：{error}',
    'exports.export': '导出',
    'exports.viewAs': '导出此视图',
    'exports.pngTip': '将此视图保存为 PNG 图片',
    'exports.svgTip': '将此视图保存为 SVG 矢量图（图形，样式已内联）',
    'exports.svgCanvasTip': '保存为 SVG：此视图由 canvas 绘制，SVG 中以内嵌 PNG 图片保存，而非矢量图形',
    'exports.nothing': '此视图没有可导出的图形',
    'exports.run': '导出本次运行',
    'exports.trace': 'Trace（Perfetto JSON）',
    'exports.traceTip':
      '从开始到当前游标的运行过程，Chrome trace JSON 格式：可在 ui.perfetto.dev 或 chrome://tracing 中打开',
    'exports.csv': '指标（CSV）',
    'exports.csvTip': '当前游标处的指标报告，CSV 格式：总体数据、每个进程一行、每个 CPU 一行',
    'exports.truncated':
      '已保存 {file}，trace 达到大小上限被截断：在 {ms} ms 处、{events} 个 trace 事件后停止；其余部分请从更早的游标或更短的运行导出',
    'exports.written': '已保存 {file}（{events} 个 trace 事件）',
  },
};
export default exportsCatalog;
