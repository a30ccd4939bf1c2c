// A trace record in one line, in the interface language: the engine gives
// its parts (EventView.args), the catalog (i18n/messages/events.ts) the words.
// Pure; English when no translate function is given.
import type { EventView } from '../engine/types';
import { translate, type Translate } from '../i18n/translate';

const english: Translate = (k, v) => translate('en', k, v);
const TASKS = ['prev', 'next', 'task', 'by', 'curr'];

export function eventText(e: EventView, t: Translate = english): string {
  const a: Record<string, string | number> = { ...e.args, cpu: e.cpu };
  for (const k of TASKS) if (a[k] === '') a[k] = t('ev.idle');
  if (typeof a.prev_state === 'string') a.prev_state = t(`ev.state.${a.prev_state}`);
  if (typeof a.cause === 'string') a.cause = t(`ev.cause.${a.cause}`);
  if (typeof a.state === 'string') a.state = t(`ev.hot.${a.state}`);
  return t(`ev.${e.kind}`, a);
}
