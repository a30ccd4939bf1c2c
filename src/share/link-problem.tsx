// The banner a link that could not be opened leaves: what was wrong with it,
// that the default scenario runs instead, and a button to dismiss it. Values
// from the link (a field name, the engine's message) are shown as text, the
// engine's message quoted and attributed (views/problem-text.tsx).
import { useT } from '../i18n/i18n';
import { ProblemText } from '../views/problem-text';
import type { OpenProblem } from './use-share';

export function LinkProblem(props: { problem: OpenProblem; onDismiss: () => void }) {
  const { problem, onDismiss } = props;
  const t = useT();
  return (
    <div className="error link-problem" data-testid="link-problem" role="alert">
      <button className="close" onClick={onDismiss} aria-label={t('share.dismiss')} title={t('share.dismiss')}>
        ×
      </button>
      <b>{t('share.problemTitle')}</b>{' '}
      {problem.code === 'scenario' ? (
        <>
          {t('share.problem.scenario')}
          <ProblemText problem={problem.vars.detail} />
        </>
      ) : (
        <span data-testid="link-problem-reason" data-code={problem.code}>
          {t(`share.problem.${problem.code}`, problem.vars)}
        </span>
      )}{' '}
      {t('share.defaultLoaded')}
    </div>
  );
}
