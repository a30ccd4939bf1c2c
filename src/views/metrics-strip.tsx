// The run's headline figures at the cursor: wasted core time (an idle CPU
// while a thread that could run there waits), the sanity checker's reports,
// migrations and balancing decisions, and per-process completion.
import { memo } from 'react';
import type { Report } from '../engine/types';
import { fmtMs } from './colors';
import { useT } from '../i18n/i18n';
import { Shown } from './shown';

export const MetricsStrip = memo(function MetricsStrip(props: { report: Report }) {
  const t = useT();
  const r = props.report;
  return (
    <section className="panel metrics" data-testid="metrics">
      {r.event_budget_stop_ns !== null && (
        <div className="figure" data-testid="budget-stop">
          <span className="label">{t('strip.stopped')}</span>
          <b className="bad">{t('strip.budget', { t: fmtMs(r.event_budget_stop_ns) })}</b>
        </div>
      )}
      <div className="figure">
        <span className="label">{t('strip.wasted')}</span>
        <b data-testid="wasted">{fmtMs(r.wasted_core_ns)} ms</b>
      </div>
      <div className="figure" title={t('strip.longestTitle')}>
        <span className="label">{t('strip.longest')}</span>
        <b data-testid="longest-wasted">
          {r.longest_wasted_idle
            ? t('strip.longestValue', { t: fmtMs(r.longest_wasted_idle[2]), cpu: r.longest_wasted_idle[0] })
            : t('strip.none')}
        </b>
      </div>
      <div className="figure">
        <span className="label">{t('strip.checker')}</span>
        <b className={r.sanity_violations.length > 0 ? 'bad' : 'good'} data-testid="violations">
          {r.sanity_violations.length === 0
            ? t('strip.noViolation')
            : t('strip.violations', { n: r.sanity_violations.length })}
        </b>
      </div>
      <div className="figure">
        <span className="label">{t('strip.migrations')}</span>
        <b data-testid="migrations">{r.migrations}</b>
      </div>
      <div className="figure">
        <span className="label">{t('strip.decisions')}</span>
        <b>{r.balance_decisions}</b>
      </div>
      {r.processes.slice(0, 4).map((p) => (
        <div className="figure" key={p.tgid}>
          <span className="label">
            <Shown text={p.name} />
          </span>
          <b>
            {p.completion_ns === null
              ? t('strip.share', { pct: (p.share * 100).toFixed(1) })
              : t('strip.doneAt', { t: fmtMs(p.completion_ns) })}
          </b>
        </div>
      ))}
    </section>
  );
});
