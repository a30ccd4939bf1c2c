// The CSS width of an element, kept current with a ResizeObserver, so canvas
// views can fill their panel instead of drawing at a fixed size.
import { useLayoutEffect, useState, type RefObject } from 'react';

/** Returns the element's content width in CSS px, or `fallbackPx` before it is measured. */
export function useWidth(ref: RefObject<HTMLElement | null>, fallbackPx: number): number {
  const [widthPx, setWidthPx] = useState(fallbackPx);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidthPx(Math.max(0, Math.floor(el.clientWidth)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [ref]);
  return widthPx;
}
