// The progress of a long run, with a Cancel button.
import type { Progress } from '../stores/lab-engine';
import { useT } from '../i18n/i18n';

export function ProgressBar(props: { progress: Progress; onCancel: () => void }) {
  const t = useT();
  const { label, fraction, detail } = props.progress;
  const frac = Math.min(1, Math.max(0, fraction));
  return (
    <div className="progress-row" data-testid="progress" role="status">
      <span className="progress-label">{label}</span>
      <div
        className="progress-track"
        aria-label={t('aria.progress')}
        aria-valuenow={Math.round(frac * 100)}
        role="progressbar"
      >
        <div className="progress-fill" style={{ width: `${(frac * 100).toFixed(1)}%` }} />
      </div>
      <span className="meta">{detail}</span>
      <button data-testid="btn-cancel" onClick={props.onCancel}>
        {t('ctl.cancel')}
      </button>
    </div>
  );
}
