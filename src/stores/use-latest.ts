// A ref that holds the latest committed value, for handlers and effects that
// must see it without re-subscribing (a window key listener, a worker answer).
// Written after each commit, never during render (React's rule for refs).
import { useLayoutEffect, useRef, type RefObject } from 'react';

export function useLatest<T>(value: T): RefObject<T> {
  const ref = useRef(value);
  useLayoutEffect(() => {
    ref.current = value;
  });
  return ref;
}
