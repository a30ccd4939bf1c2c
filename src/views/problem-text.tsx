// A problem inside a banner the page writes: the page's own words as they
// are, the engine's message quoted under a caption that says it is the
// engine's and may repeat the scenario's own text (stores/problem.ts says
// why). A hostile link's "SECURITY NOTICE" can reach the page only this way,
// inside quotation marks and attributed.
import { useT } from '../i18n/i18n';
import type { Problem } from '../stores/problem';
import { Shown } from './shown';

export function ProblemText({ problem }: { problem: Problem }) {
  const t = useT();
  return (
    <>
      {problem.own !== null && (
        <p className="problem-own">
          <Shown text={problem.own} keep={'\n\t'} />
        </p>
      )}
      {problem.quoted !== null && (
        <figure className="quoted-words" data-testid="quoted-words">
          <figcaption>{t('app.engineQuoted')}</figcaption>
          <blockquote>
            <pre>
              <Shown text={problem.quoted} keep={'\n\t'} />
            </pre>
          </blockquote>
        </figure>
      )}
    </>
  );
}
