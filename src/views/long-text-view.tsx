// A very long text shown whole in a scrolling box, a screenful at a time
// (@tanstack/react-virtual): the text is cut into pieces at its line breaks
// and, within a long line, at a space about every PIECE characters; only the
// pieces in view are in the DOM.
// Laying out megabytes as one paragraph or textarea costs the page seconds;
// this costs what one screenful does.
import { useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';

const PIECE = 2000;
/** How far back from PIECE a cut looks for a space. */
const SLACK = 300;

/** Piece boundaries: 0, then each piece's end (a line's end, a space, or PIECE characters; a surrogate pair is never split). */
export function pieces(text: string): number[] {
  const out: number[] = [0];
  let at = 0;
  while (at < text.length) {
    const nl = text.indexOf('\n', at);
    const lineEnd = nl < 0 || nl >= at + PIECE ? -1 : nl + 1;
    let end = lineEnd >= 0 ? lineEnd : Math.min(text.length, at + PIECE);
    if (lineEnd < 0 && end < text.length) {
      const space = text.lastIndexOf(' ', end);
      if (space > end - SLACK && space > at) end = space + 1;
      else if (text.charCodeAt(end - 1) >= 0xd800 && text.charCodeAt(end - 1) <= 0xdbff) end--;
    }
    out.push(end);
    at = end;
  }
  return out;
}

export function LongTextView({ text, testId }: { text: string; testId?: string }) {
  const bounds = useMemo(() => pieces(text), [text]);
  const box = useRef<HTMLDivElement>(null);
  const v = useVirtualizer<HTMLDivElement, Element>({
    count: bounds.length - 1,
    getScrollElement: () => box.current,
    estimateSize: () => 60,
    overscan: 4,
    initialRect: { width: 800, height: 250 },
  });
  const items = v.getVirtualItems();
  return (
    <div className="long-text-view" ref={box} data-testid={testId} tabIndex={0}>
      <div style={{ height: v.getTotalSize(), position: 'relative' }}>
        <div
          style={{
            position: 'absolute',
            top: 0,
            left: 0,
            right: 0,
            transform: `translateY(${items[0]?.start ?? 0}px)`,
          }}
        >
          {items.map((it) => (
            <div key={it.key} data-index={it.index} ref={v.measureElement} className="long-text-piece">
              {text.slice(bounds[it.index], bounds[it.index + 1])}
            </div>
          ))}
        </div>
      </div>
    </div>
  );
}
