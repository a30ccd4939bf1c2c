// What the run could not do as its scenario asked (the report's notes: a
// zero-time loop ended, forks refused at the thread limit, hotplug events not
// done). The CLI prints them; the page shows them beside the metrics, so a
// silent outcome is never silent in the lab either.
import { useT } from '../i18n/i18n';

export function RunNotes({ notes }: { notes: string[] }) {
  const t = useT();
  if (notes.length === 0) return null;
  return (
    <section className="panel run-notes" data-testid="run-notes" aria-labelledby="run-notes-title">
      <h2 id="run-notes-title">{t('notes.title')}</h2>
      <ul>
        {notes.map((n, i) => (
          <li key={i} data-testid="run-note">
            {n}
          </li>
        ))}
      </ul>
      <p className="meta">{t('notes.hint')}</p>
    </section>
  );
}
