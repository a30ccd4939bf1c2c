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
}

/** What a command does, in the interface language (keys.<command> in the catalog). */
export const commandKey = (c: Command): string => `keys.${c}`;

export const SHORTCUTS: readonly Shortcut[] = [
  { key: ' ', label: 'Space', command: 'play' },
  { key: 'ArrowRight', label: '→', command: 'step' },
  { key: 'ArrowLeft', label: '←', command: 'back' },
  { key: 't', label: 't', command: 'tick' },
  { key: 'T', label: 'Shift+t', command: 'tick-back' },
  { key: 'b', label: 'b', command: 'next-decision' },
  { key: 'B', label: 'Shift+b', command: 'prev-decision' },
  { key: 'm', label: 'm', command: 'next-migration' },
  { key: 'M', label: 'Shift+m', command: 'prev-migration' },
  { key: 'v', label: 'v', command: 'next-violation' },
  { key: 'V', label: 'Shift+v', command: 'prev-violation' },
  { key: 'r', label: 'r', command: 'reset' },
  { key: '?', label: '?', command: 'help' },
];

export function commandForKey(key: string): Command | null {
  return SHORTCUTS.find((s) => s.key === key)?.command ?? null;
}

/** The key of a command as shown to people; "Space" and "Shift" are words, translated when `t` is given. */
export function keyLabel(command: Command, t?: (key: string) => string): string {
  const label = SHORTCUTS.find((s) => s.command === command)?.label ?? '';
  return t ? shownKey(label, t) : label;
}

export function shownKey(label: string, t: (key: string) => string): string {
  return label.replace('Space', t('keys.space')).replace('Shift', t('keys.shift'));
}
