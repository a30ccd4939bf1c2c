// A view panel as a standalone image. A panel's pictures are SVG (React
// drawn) and canvas (dense data) elements; both exports compose every one of
// them at its place in the panel:
//  - SVG: each svg element cloned with its computed styles inlined (the file
//    has no stylesheet), each canvas embedded as a PNG <image> — so canvas
//    views (Gantt lanes, heatmaps) are pictures inside the SVG, not shapes.
//  - PNG: the same pieces drawn onto one canvas at the device pixel ratio.
// The panel's title is written on top. HTML-only parts (tables, legends made
// of spans) are not pictures and are left out.

/** The SVG properties a stylesheet can set that change how a shape looks. */
const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'visibility',
  'marker-end',
  'marker-start',
];
const TITLE_H = 28;
const PAD = 8;
const SVG_NS = 'http://www.w3.org/2000/svg';

interface Piece {
  el: SVGSVGElement | HTMLCanvasElement;
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The panel's visible pictures (svg elements not inside another svg, canvases), placed relative to the panel. */
function pieces(panel: Element): Piece[] {
  const origin = panel.getBoundingClientRect();
  const els = Array.from(panel.querySelectorAll('svg, canvas')).filter(
    (e) => !e.parentElement?.closest('svg') && !e.closest('[data-export-skip]'),
  ) as (SVGSVGElement | HTMLCanvasElement)[];
  return els
    .map((el) => {
      const r = el.getBoundingClientRect();
      return { el, x: r.left - origin.left, y: r.top - origin.top, w: r.width, h: r.height };
    })
    .filter((p) => p.w > 0 && p.h > 0);
}

function frame(ps: Piece[]) {
  const x0 = Math.min(...ps.map((p) => p.x));
  const y0 = Math.min(...ps.map((p) => p.y));
  const w = Math.max(...ps.map((p) => p.x + p.w)) - x0 + 2 * PAD;
  const h = Math.max(...ps.map((p) => p.y + p.h)) - y0 + 2 * PAD + TITLE_H;
  return { x0, y0, w: Math.ceil(w), h: Math.ceil(h) };
}

export function panelTitle(panel: Element): string {
  return panel.querySelector('h2')?.textContent?.trim() ?? 'schedlab';
}

/** Properties not inherited by children: written unless at their initial value. */
const NOT_INHERITED: Record<string, string> = { opacity: '1' };

/**
 * A deep clone of `svg` whose every element carries its computed look in a
 * style attribute — only what differs from its parent's, to keep files small.
 */
function inlineStyles(svg: SVGSVGElement): SVGSVGElement {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  const src = [svg, ...Array.from(svg.querySelectorAll('*'))];
  const dst = [copy, ...Array.from(copy.querySelectorAll('*'))];
  const looks = new Map<Element, Map<string, string>>();
  src.forEach((s, i) => {
    const cs = getComputedStyle(s);
    const look = new Map(STYLE_PROPS.map((p) => [p, cs.getPropertyValue(p)]));
    looks.set(s, look);
    const parent = i === 0 ? undefined : looks.get(s.parentElement as Element);
    const extra = STYLE_PROPS.filter((p) =>
      p in NOT_INHERITED ? look.get(p) !== NOT_INHERITED[p] : look.get(p) !== parent?.get(p),
    )
      .map((p) => `${p}:${look.get(p)}`)
      .join(';');
    const d = dst[i] as SVGElement;
    // The element's own inline style (transforms of moving tree nodes) wins.
    const own = d.getAttribute('style');
    d.setAttribute('style', own ? `${extra};${own}` : extra);
    d.removeAttribute('class');
  });
  return copy;
}

/** The panel as a standalone SVG document (text). Null when the panel draws nothing. */
export function panelSvg(panel: Element): string | null {
  const ps = pieces(panel);
  if (ps.length === 0) return null;
  const f = frame(ps);
  const out = document.createElementNS(SVG_NS, 'svg');
  out.setAttribute('xmlns', SVG_NS);
  out.setAttribute('width', String(f.w));
  out.setAttribute('height', String(f.h));
  out.setAttribute('viewBox', `0 0 ${f.w} ${f.h}`);
  const bg = document.createElementNS(SVG_NS, 'rect');
  bg.setAttribute('width', '100%');
  bg.setAttribute('height', '100%');
  bg.setAttribute('fill', '#ffffff');
  out.appendChild(bg);
  const title = document.createElementNS(SVG_NS, 'text');
  title.setAttribute('x', String(PAD));
  title.setAttribute('y', String(PAD + 16));
  title.setAttribute('style', 'font: 600 15px system-ui, sans-serif; fill: #1f2933');
  title.textContent = panelTitle(panel);
  out.appendChild(title);
  for (const p of ps) {
    const x = String(p.x - f.x0 + PAD);
    const y = String(p.y - f.y0 + PAD + TITLE_H);
    if (p.el instanceof HTMLCanvasElement) {
      const img = document.createElementNS(SVG_NS, 'image');
      img.setAttribute('href', p.el.toDataURL('image/png'));
      img.setAttribute('x', x);
      img.setAttribute('y', y);
      img.setAttribute('width', String(p.w));
      img.setAttribute('height', String(p.h));
      out.appendChild(img);
    } else {
      const s = inlineStyles(p.el);
      // Drawn at another size than its own (a zoomed view): scale, do not clip.
      const ownW = Number(s.getAttribute('width'));
      const ownH = Number(s.getAttribute('height'));
      if (!s.hasAttribute('viewBox') && ownW > 0 && ownH > 0) s.setAttribute('viewBox', `0 0 ${ownW} ${ownH}`);
      s.setAttribute('x', x);
      s.setAttribute('y', y);
      s.setAttribute('width', String(p.w));
      s.setAttribute('height', String(p.h));
      out.appendChild(s);
    }
  }
  return new XMLSerializer().serializeToString(out);
}

function loadImage(src: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve(img);
    img.onerror = () => reject(new Error('the view could not be rendered as an image'));
    img.src = src;
  });
}

/** The panel as a PNG at the screen's pixel ratio. Null when the panel draws nothing. */
export async function panelPng(panel: Element): Promise<Blob | null> {
  const svg = panelSvg(panel);
  if (svg === null) return null;
  const img = await loadImage(`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`);
  const scale = Math.max(1, window.devicePixelRatio || 1);
  const canvas = document.createElement('canvas');
  canvas.width = Math.ceil(img.width * scale);
  canvas.height = Math.ceil(img.height * scale);
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  ctx.scale(scale, scale);
  ctx.drawImage(img, 0, 0);
  return new Promise((resolve) => canvas.toBlob((b) => resolve(b), 'image/png'));
}

/** Saves `data` under `filename` through the browser's download. */
export function download(data: Blob | string, filename: string, type = 'application/octet-stream'): void {
  const blob = typeof data === 'string' ? new Blob([data], { type }) : data;
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The download has started from the click; the URL can go after this task.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name from untrusted text (scenario and view names): letters, digits, dot, dash. */
export function fileSlug(s: string): string {
  return (
    s
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[-.]+|-+$/g, '')
      .slice(0, 60) || 'schedlab'
  );
}
