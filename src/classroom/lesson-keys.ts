// N and P go to a lesson's next and previous step (the stage's keys; Space
// and the arrows stay the lab's), unless single-key shortcuts are off or the
// focus is in a field.
import { useEffect } from 'react';
import { shortcutsOn } from '../views/shortcut-setting';
import { useLatest } from '../stores/use-latest';

/** `goTo(step)` on N or P, for steps 0 to `count` - 1 around `index`. */
export function useLessonStepKeys(index: number, count: number, goTo: (step: number) => void): void {
  // Read when a key comes, so the listener is added once, not at each step.
  const nav = useLatest({ index, count });
  const go = useLatest(goTo);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || e.defaultPrevented || !shortcutsOn()) return;
      const target = e.target as HTMLElement | null;
      if (target && ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName)) return;
      const k = e.key.toLowerCase();
      const { index: i, count: n } = nav.current;
      const to = k === 'n' ? i + 1 : k === 'p' ? i - 1 : -1;
      if (to < 0 || to >= n) return;
      e.preventDefault();
      go.current(to);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [nav, go]);
}
