// Keeps the items that just left a keyed list for a short while, so a view can
// fade them out where they last stood instead of dropping them abruptly (the
// SVG equivalent of a D3 exit transition, with React still owning the DOM).
import { useEffect, useLayoutEffect, useRef, useState } from 'react';

type Key = string | number;

interface Gone<T> {
  item: T;
  /** Which departure this is, so an old timer cannot end a newer fade. */
  token: number;
}

/**
 * Returns the items that were in `items` at the previous commit but are not
 * now, each kept for `ms` milliseconds. An item that comes back stops fading.
 */
export function useLeaving<T>(items: readonly T[], keyOf: (t: T) => Key, ms: number): T[] {
  const last = useRef<Map<Key, T>>(new Map());
  const timers = useRef<Set<ReturnType<typeof setTimeout>>>(new Set());
  const nextToken = useRef(0);
  const [leaving, setLeaving] = useState<Map<Key, Gone<T>>>(() => new Map());

  // A layout effect, so the fading copy is in the DOM before the browser
  // paints the frame in which the live node disappeared.
  useLayoutEffect(() => {
    const present = new Map(items.map((t) => [keyOf(t), t]));
    const gone = [...last.current].filter(([k]) => !present.has(k));
    last.current = present;
    const returned = [...leaving.keys()].some((k) => present.has(k));
    if (gone.length === 0 && !returned) return;
    const token = ++nextToken.current;
    setLeaving((prev) => {
      const next = new Map(prev);
      for (const k of present.keys()) next.delete(k);
      for (const [k, item] of gone) next.set(k, { item, token });
      return next;
    });
    if (gone.length === 0) return;
    const timer = setTimeout(() => {
      timers.current.delete(timer);
      setLeaving((prev) => {
        const next = new Map(prev);
        for (const [k] of gone) if (next.get(k)?.token === token) next.delete(k);
        return next;
      });
    }, ms);
    timers.current.add(timer);
  }, [items, keyOf, ms, leaving]);

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const t of pending) clearTimeout(t);
      pending.clear();
    };
  }, []);

  return [...leaving.values()].map((g) => g.item);
}
