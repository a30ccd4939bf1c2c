// The most recent trace records, newest at the bottom.
import type { EventView } from '../engine/types';
import { fmtMs } from './colors';
import { useT } from '../i18n/i18n';
import { eventText } from './event-words';

export function EventLog(props: { events: EventView[] }) {
  const t = useT();
  return (
    <section className="panel">
      <header className="panel-head">
        <h2>{t('events.title')}</h2>
      </header>
      <ol className="events" data-testid="events" tabIndex={0} aria-label={t('events.title')}>
        {props.events.map((e, i) => (
          <li key={`${e.t_ns}-${i}`}>
            <span className="t">{fmtMs(e.t_ns)}</span>
            <span className="c">cpu{e.cpu}</span>
            <span className={`k k-${e.kind}`}>{e.kind}</span>
            <span className="x" title={eventText(e, t)}>
              {eventText(e, t)}
            </span>
          </li>
        ))}
      </ol>
    </section>
  );
}
