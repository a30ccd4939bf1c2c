// A long table drawn a screenful at a time (@tanstack/react-virtual): the
// table scrolls in its own box and only the rows in view, and a few around
// them, are in the DOM; spacer rows stand for the others. Each row is a
// <tbody> (its fields' row and its messages' row), measured as drawn, since
// rows differ in height (a program's text, messages).
import { useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useVirtualizer, type VirtualItem } from '@tanstack/react-virtual';
import { useEdit } from './field';

interface VirtualRows {
  /** The scrolling box (wraps the table). */
  boxRef: React.RefObject<HTMLDivElement | null>;
  /** The table's header: the rows start below it. */
  headRef: React.RefObject<HTMLTableSectionElement | null>;
  items: VirtualItem[];
  /** Height the rows above the drawn ones would take, and below. */
  above: number;
  below: number;
  /** Ref of each drawn row's <tbody> (it needs data-index). */
  measure: (el: Element | null) => void;
}

/** The rows of table `name` to draw (`estimate`: a row's height before it is drawn); registers the table's "scroll row i into view" with the editor. */
export function useVirtualRows(name: string, count: number, estimate: (row: number) => number): VirtualRows {
  const box = useRef<HTMLDivElement>(null);
  const head = useRef<HTMLTableSectionElement>(null);
  const [headHeight, setHeadHeight] = useState(0);
  const drawn = count > 0;
  useLayoutEffect(() => setHeadHeight(head.current?.offsetHeight ?? 0), [drawn]);
  const v = useVirtualizer<HTMLDivElement, Element>({
    count,
    getScrollElement: () => box.current,
    estimateSize: estimate,
    overscan: 8,
    scrollMargin: headHeight,
    scrollPaddingStart: headHeight,
    // Before the box is measured: assume a screenful.
    initialRect: { width: 1200, height: 700 },
  });
  const { reveal } = useEdit();
  useLayoutEffect(() => {
    const table = reveal.current;
    table.set(name, (i) => v.scrollToIndex(i, { align: 'center' }));
    return () => {
      table.delete(name);
    };
  }, [name, reveal, v]);
  const items = v.getVirtualItems();
  const first = items[0];
  const last = items[items.length - 1];
  return {
    boxRef: box,
    headRef: head,
    items,
    above: first ? first.start - headHeight : 0,
    below: last ? Math.max(0, v.getTotalSize() - (last.end - headHeight)) : 0,
    measure: v.measureElement,
  };
}

/** A row standing for `height` pixels of rows not drawn. */
export function Spacer({ height, span }: { height: number; span: number }): ReactNode {
  if (height <= 0) return null;
  return (
    <tbody aria-hidden="true">
      <tr className="ed-spacer" style={{ height }}>
        <td colSpan={span} />
      </tr>
    </tbody>
  );
}
