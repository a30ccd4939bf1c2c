// The list of every problem above the form: each path a button that takes you
// to the field. A scenario with thousands of bad rows lists the first
// hundred and says how many more there are (their messages are still at
// their rows).
import { useT } from '../i18n/i18n';
import { clip } from '../views/clipped-text';
import type { Problem } from './field-paths';

const SHOWN = 100;

export function ProblemList({ problems, onPick }: { problems: Problem[]; onPick(path: string): void }) {
  const t = useT();
  if (problems.length === 0) return null;
  return (
    <ul className="ed-problems" data-testid="editor-problems">
      {problems.slice(0, SHOWN).map((p, i) => (
        <li key={i}>
          <button type="button" onClick={() => onPick(p.path)}>
            <code>{clip(p.path, 200)}</code>
          </button>{' '}
          {clip(p.message, 1000)}
        </li>
      ))}
      {problems.length > SHOWN && (
        <li className="ed-note">{t('editor.moreProblems', { n: problems.length - SHOWN })}</li>
      )}
    </ul>
  );
}
