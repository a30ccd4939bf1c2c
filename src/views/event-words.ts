// A trace record in one line, in the interface language: the engine gives
// its parts (EventView.args), the catalog (i18n/messages/events.ts) the words.
// Pure: the caller passes the interface language's translate function.
import type { EventView } from '../engine/types';
import type { Translate } from '../i18n/translate';
import { shownText } from './hidden-chars';

const TASKS = ['prev', 'next', 'task', 'by', 'curr'];

export function eventText(e: EventView, t: Translate): string {
  // A task's name may be a trace's own text: its hidden characters are shown as their code points.
  const a: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(e.args)) a[k] = shownText(v);
  a.cpu = e.cpu;
  for (const k of TASKS) if (a[k] === '') a[k] = t('ev.idle');
  if (typeof a.prev_state === 'string') a.prev_state = t(`ev.state.${a.prev_state}`);
  if (typeof a.cause === 'string') a.cause = t(`ev.cause.${a.cause}`);
  if (typeof a.state === 'string') a.state = t(`ev.hot.${a.state}`);
  return t(`ev.${e.kind}`, a);
}
