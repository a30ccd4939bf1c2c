// What the run could not do as its scenario asked (the report's notes: a
// zero-time loop ended, forks refused at the thread limit, hotplug events not
// done). The CLI prints them; the page shows them beside the metrics, so a
// silent outcome is never silent in the lab either. A sched_ext policy's
// failure carries the policy's own error, which is the scenario author's text
// (a share link's, perhaps written to pass for the page's): it is shown
// quoted, after words of the page's that say whose it is.
import { useT } from '../i18n/i18n';
import { Shown } from './shown';

/** The engine's note for a policy that failed (wasm-core/src/api/report/notes.rs). */
const POLICY_FAILED = /^at ([0-9.]+) ms: the sched_ext policy failed and the run stopped there: ([\s\S]*)$/;

/** A policy failure's time (ms, as the engine wrote it) and error, if `note` is one. */
export function policyFailure(note: string): { ms: string; error: string } | null {
  const m = POLICY_FAILED.exec(note);
  return m ? { ms: m[1], error: m[2] } : null;
}

function Note({ note }: { note: string }) {
  const t = useT();
  const failed = policyFailure(note);
  if (!failed) return <Shown text={note} />;
  return (
    <>
      {t('notes.policyFailed', { ms: failed.ms })}{' '}
      <q className="quoted-words" data-testid="quoted-words">
        <Shown text={failed.error} keep={'\n\t'} />
      </q>
    </>
  );
}

export function RunNotes({ notes }: { notes: string[] }) {
  const t = useT();
  if (notes.length === 0) return null;
  return (
    <section className="panel run-notes" data-testid="run-notes" aria-labelledby="run-notes-title">
      <h2 id="run-notes-title">{t('notes.title')}</h2>
      <ul>
        {notes.map((n, i) => (
          <li key={i} data-testid="run-note">
            <Note note={n} />
          </li>
        ))}
      </ul>
      <p className="meta">{t('notes.hint')}</p>
    </section>
  );
}
