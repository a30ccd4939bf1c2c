// The "Share link" button and, once a link is made, a read-only field with
// it (the clipboard may be refused, so the link is always shown) and a line
// saying whether it was copied or why no link was made.
import { useT } from '../i18n/i18n';
import type { MadeLink } from './use-share';

export function ShareBar(props: { made: MadeLink | null; onShare: () => void }) {
  const { made, onShare } = props;
  const t = useT();
  return (
    <div className="share-bar">
      <button data-testid="share-button" title={t('share.buttonTitle')} onClick={onShare}>
        {t('share.button')}
      </button>
      {made?.url && (
        <input
          className="share-url"
          data-testid="share-url"
          aria-label={t('share.linkLabel')}
          readOnly
          value={made.url}
          onFocus={(e) => e.currentTarget.select()}
        />
      )}
      {made?.url && made.copied !== null && (
        <span className="share-status" data-testid="share-status">
          {made.copied ? t('share.copied') : t('share.copyByHand')}
        </span>
      )}
      {made?.problem && (
        <span className="share-status refused" data-testid="share-refused" role="alert">
          {t('share.cannotMake')}{' '}
          {made.problem.code === 'too-long'
            ? t('share.make.too-long', made.problem.vars)
            : t(`share.problem.${made.problem.code}`, made.problem.vars)}
        </span>
      )}
    </div>
  );
}
