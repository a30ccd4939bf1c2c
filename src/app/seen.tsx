// A part of the page that may be scrolled out of view (stores/refresh.ts's
// SeenPart): it tells the lab's engine whether it is in view, so that while
// playing nothing is drawn or read for a part nobody can see, and while busy
// out of view it keeps showing what it last drew instead of re-rendering.
// The page is long (the machine, the runqueue, the lanes, the heatmaps, the
// charts, the task table) and a screen shows two or three of its panels:
// drawing the others on every frame was most of the main thread's work while
// playing. Paused, every part shows the latest state, in view or not.
//
// The wrapper has no box of its own (display: contents), so the page lays
// out as without it; the panels inside are what the IntersectionObserver
// watches, and the part is in view while any of them is.
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { SeenPart } from '../stores/refresh';
import { useStore } from '../stores/store';
import { useLab } from './context';

export function Seen({ part, children }: { part: SeenPart; children: ReactNode }) {
  const lab = useLab();
  const box = useRef<HTMLDivElement>(null);
  const [seen, setSeen] = useState(true);
  const busy = useStore(lab.engine.store, (s) => s.playing || s.progress !== null);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof IntersectionObserver === 'undefined') return;
    const inView = new Set<Element>();
    const tell = (v: boolean) => {
      setSeen(v);
      lab.engine.setSeen(part, v);
    };
    const io = new IntersectionObserver((entries) => {
      for (const e of entries) {
        if (e.isIntersecting) inView.add(e.target);
        else inView.delete(e.target);
      }
      tell(inView.size > 0);
    });
    // The panels inside come and go (a view shown only for some machines): watch the ones there now.
    const watch = () => {
      io.disconnect();
      inView.clear();
      for (const c of Array.from(el.children)) io.observe(c);
    };
    watch();
    const mo = new MutationObserver(watch);
    mo.observe(el, { childList: true });
    return () => {
      io.disconnect();
      mo.disconnect();
      lab.engine.setSeen(part, true);
    };
  }, [lab, part]);
  // The same element as last time makes React pass over the subtree: out of view while busy, the part keeps
  // what it drew as it went out of view (the memo's inputs stop changing then).
  const frozen = busy && !seen;
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the children only while not frozen
  const shown = useMemo(() => children, [frozen, frozen || children]);
  return (
    <div ref={box} className="seen" data-part={part} data-seen={seen}>
      {shown}
    </div>
  );
}
