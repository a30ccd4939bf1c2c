// The stage: presentation mode during a lesson. The controls run along the
// top, the panel the step points at fills the left of the screen and the
// narration the right (styles.css, `html.presenting .app[data-stage-panel]`),
// so a projector at 1280×720 shows the cores the narration talks about, and
// nothing scrolls; the classroom bar (lesson, presentation, fullscreen) sits
// under the narration. The controls wrap to more rows on narrow screens, so
// their height (and the bar's) is measured and handed to the CSS.
import { useEffect } from 'react';
import './stage.css';
import type { PanelId } from './lesson';

/** The panel the stage shows for a step: the one it points at, else the machine. */
export function stagePanel(pointed: PanelId | null | undefined): PanelId {
  return pointed ?? 'topology';
}

/** What the stage CSS is told the height of: the controls (along the top) and the classroom bar (under the narration). */
const MEASURED: [selector: string, variable: string][] = [
  ['.app .controls', '--stage-top'],
  ['.app .classroom-bar', '--stage-bottom'],
];

/** Keeps --stage-top and --stage-bottom at the controls' and the classroom bar's heights while a lesson is open
 * (the stage CSS uses them only when presenting). */
export function useStageTop(active: boolean): void {
  useEffect(() => {
    const root = document.documentElement;
    const clear = () => MEASURED.forEach(([, v]) => root.style.removeProperty(v));
    if (!active) return clear();
    const observed = new Map<Element, string>();
    const resize = new ResizeObserver((entries) => {
      for (const e of entries) {
        const v = observed.get(e.target);
        if (v) root.style.setProperty(v, `${Math.ceil(e.target.getBoundingClientRect().height)}px`);
      }
    });
    // The controls mount with the first frame, and remount with a new load: look for them while the lesson lasts.
    const find = () => {
      for (const [sel, v] of MEASURED) {
        const el = document.querySelector(sel);
        if (!el || observed.has(el)) continue;
        for (const [old, ov] of observed) {
          if (ov !== v) continue;
          resize.unobserve(old);
          observed.delete(old);
        }
        observed.set(el, v);
        resize.observe(el);
      }
    };
    find();
    const poll = window.setInterval(find, 250);
    return () => {
      window.clearInterval(poll);
      resize.disconnect();
      clear();
    };
  }, [active]);
}

/** How long a step waits for its panel to be drawn (a class's runqueue panel comes with the new preset's frame). */
const PANEL_WAIT_MS = 2000;

/** Outside presentation mode, a step that points at a panel brings it into view (the lesson card stays where it is). */
export function useBringIntoView(panel: PanelId | null | undefined, step: string): void {
  useEffect(() => {
    if (!panel || document.documentElement.classList.contains('presenting')) return;
    const find = () =>
      panel === 'rbtree-panel'
        ? document.querySelector('.rbtree-panel')
        : document.querySelector(`[data-testid='${panel}']`);
    const reduce = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    const until = Date.now() + PANEL_WAIT_MS;
    let timer = 0;
    const bring = () => {
      const el = find();
      if (el) el.scrollIntoView({ block: 'start', behavior: reduce ? 'auto' : 'smooth' });
      else if (Date.now() < until) timer = window.setTimeout(bring, 50);
    };
    bring();
    return () => window.clearTimeout(timer);
  }, [panel, step]);
}

/** The most the stage enlarges the machine drawing (cells past this are larger than anyone needs). */
const MAX_TOPOLOGY_ZOOM = 2.5;
/** Room kept under the drawing for the legend (CSS px). */
const LEGEND_PX = 56;

/**
 * On the stage, the machine drawing is enlarged to fill its panel: the layout
 * picks cell sizes for a page, which leave most of a projector's stage empty.
 * CSS zoom keeps the cells clickable; the natural size is the layers' own
 * inline size, so zooming never feeds back into the measure.
 */
export function useStageZoom(active: boolean): void {
  useEffect(() => {
    if (!active) return;
    const layersOf = () => document.querySelector<HTMLElement>("[data-testid='topology'] .topo-layers");
    const fit = () => {
      const layers = layersOf();
      if (!layers) return;
      const staged =
        document.documentElement.classList.contains('presenting') &&
        document.querySelector(".app[data-stage-panel='topology']");
      const panel = layers.closest<HTMLElement>("[data-testid='topology']");
      const w = parseFloat(layers.style.width);
      const h = parseFloat(layers.style.height);
      if (!staged || !panel || !(w > 0 && h > 0)) {
        if (layers.style.zoom) layers.style.zoom = '';
        return;
      }
      const p = panel.getBoundingClientRect();
      const top = layers.getBoundingClientRect().top;
      const z = Math.max(1, Math.min((p.width - 32) / w, (p.bottom - top - LEGEND_PX) / h, MAX_TOPOLOGY_ZOOM));
      const next = z > 1.05 ? z.toFixed(3) : '';
      if (layers.style.zoom !== next) layers.style.zoom = next;
    };
    fit();
    // The drawing's layout, the panel and presentation mode all change without telling this hook: check twice a second.
    const poll = window.setInterval(fit, 500);
    return () => {
      window.clearInterval(poll);
      const layers = layersOf();
      if (layers) layers.style.zoom = '';
    };
  }, [active]);
}
