// A question step's part of the lesson card: the question, the engine's
// choices to pick from, Reveal, and the verdict with the engine's reason.
import { useT } from '../i18n/i18n';
import type { Prediction } from './predict';

/** A question as asked at one arrival at its step: the engine's answer, the pick, whether it was revealed. */
export interface Asked {
  key: string;
  prediction: Prediction | null;
  pick: number | null;
  revealed: boolean;
}

export function LessonQuestion(p: {
  /** The catalog key of the question's text. */
  textKey: string;
  /** The question as asked now; null while the engine works out its answer. */
  q: Asked | null;
  onPick: (choice: number) => void;
  onReveal: () => void;
}) {
  const t = useT();
  const { q } = p;
  const pr = q?.prediction ?? null;
  return (
    <div className="question" data-testid="question">
      <p>
        <b>{t('cls.predict')}</b> {t(p.textKey)}
      </p>
      {!q ? (
        <p className="meta" data-testid="question-pending">
          …
        </p>
      ) : !pr ? (
        <p className="meta">{t('cls.noAnswer')}</p>
      ) : (
        <>
          <div className="choices" role="radiogroup" aria-label={t('a11y.choices')}>
            {pr.choices.map((c, i) => {
              const cls = [q.pick === i ? 'on' : '', q.revealed && i === pr.answer ? 'answer' : ''].join(' ');
              return (
                <button
                  key={c}
                  role="radio"
                  aria-checked={q.pick === i}
                  className={cls}
                  data-testid="choice"
                  disabled={q.revealed}
                  onClick={() => p.onPick(i)}
                >
                  {c}
                </button>
              );
            })}
          </div>
          {!q.revealed ? (
            <button
              className="primary"
              data-testid="reveal"
              disabled={q.pick === null}
              onClick={p.onReveal}
              title={q.pick === null ? t('cls.pickFirst') : undefined}
            >
              {t('cls.reveal')}
            </button>
          ) : (
            <p className={q.pick === pr.answer ? 'verdict good' : 'verdict bad'} data-testid="verdict" role="status">
              <b>{q.pick === pr.answer ? t('cls.right') : t('cls.wrong', { answer: pr.choices[pr.answer] })}</b>{' '}
              {pr.reason}
            </p>
          )}
        </>
      )}
    </div>
  );
}
