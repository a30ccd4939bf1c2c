// The lab's commands and their keys: one table for the key handler, the
// buttons' tooltips and the help overlay, so they cannot disagree.

export type Command =
  | 'play'
  | 'step'
  | 'back'
  | 'tick'
  | 'tick-back'
  | 'next-decision'
  | 'prev-decision'
  | 'next-migration'
  | 'prev-migration'
  | 'next-violation'
  | 'prev-violation'
  | 'reset'
  | 'help';

export interface Shortcut {
  key: string;
  /** How the key is shown in the help overlay. */
  label: string;
  command: Command;
  what: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { key: ' ', label: 'Space', command: 'play', what: 'play / pause' },
  { key: 'ArrowRight', label: '→', command: 'step', what: 'step one event forward' },
  { key: 'ArrowLeft', label: '←', command: 'back', what: 'step one event back (exact rewind)' },
  { key: 't', label: 't', command: 'tick', what: 'run to the next scheduler tick' },
  { key: 'T', label: 'Shift+t', command: 'tick-back', what: 'back to the previous tick' },
  { key: 'b', label: 'b', command: 'next-decision', what: 'next load-balancing decision' },
  { key: 'B', label: 'Shift+b', command: 'prev-decision', what: 'previous load-balancing decision' },
  { key: 'm', label: 'm', command: 'next-migration', what: 'next migration' },
  { key: 'M', label: 'Shift+m', command: 'prev-migration', what: 'previous migration' },
  { key: 'v', label: 'v', command: 'next-violation', what: 'next sanity-checker violation' },
  { key: 'V', label: 'Shift+v', command: 'prev-violation', what: 'previous sanity-checker violation' },
  { key: 'r', label: 'r', command: 'reset', what: 'back to the start' },
  { key: '?', label: '?', command: 'help', what: 'show / hide this help' },
];

export function commandForKey(key: string): Command | null {
  return SHORTCUTS.find((s) => s.key === key)?.command ?? null;
}

export function keyLabel(command: Command): string {
  return SHORTCUTS.find((s) => s.command === command)?.label ?? '';
}
