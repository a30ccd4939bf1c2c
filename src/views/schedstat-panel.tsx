// The selected CPU's schedstat counters, domain by domain and by idle type,
// as Linux 4.1 keeps them (the engine counts them where the kernel does):
// what a kernel engineer reads in /proc/schedstat, beside the inspector's
// single decision.
import { memo } from 'react';
import type { CpuSchedstat } from '../engine/types';
import { useT } from '../i18n/i18n';

const COLS = ['count', 'balanced', 'failed', 'imbalance', 'gained', 'hot', 'nobusyq', 'nobusyg'] as const;

export const SchedstatPanel = memo(function SchedstatPanel(props: { stats: CpuSchedstat | undefined }) {
  const t = useT();
  const s = props.stats;
  if (!s || s.domains.length === 0) return null;
  return (
    <section className="panel" data-testid="schedstat">
      <header className="panel-head">
        <h2>{t('ss.title', { cpu: s.cpu })}</h2>
        <span className="meta">{t('ss.meta')}</span>
      </header>
      {/* Focusable: on a narrow screen the table scrolls sideways (layout.css), and arrow keys scroll it. */}
      <table className="lb-groups" tabIndex={0}>
        <thead>
          <tr>
            <th>{t('ss.col.domain')}</th>
            <th>{t('ss.col.type')}</th>
            {COLS.map((c) => (
              <th key={c}>{t(`ss.col.${c}`)}</th>
            ))}
          </tr>
        </thead>
        <tbody>
          {s.domains.flatMap((d) =>
            d.counters.lb.map((lb, i) => (
              <tr key={`${d.level}-${i}`} data-testid="schedstat-row">
                <td>{i === 0 ? d.level : ''}</td>
                <td>{t(`ss.type.${i}`)}</td>
                <td>{lb.lb_count}</td>
                <td>{lb.lb_balanced}</td>
                <td>{lb.lb_failed}</td>
                <td>{lb.lb_imbalance}</td>
                <td>{lb.lb_gained}</td>
                <td>{lb.lb_hot_gained}</td>
                <td>{lb.lb_nobusyq}</td>
                <td>{lb.lb_nobusyg}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
      {s.domains.map((d) => (
        <p className="meta" key={d.level} data-testid="schedstat-active">
          {t('ss.active', {
            level: d.level,
            count: d.counters.alb_count,
            pushed: d.counters.alb_pushed,
            failed: d.counters.alb_failed,
            affine: d.counters.ttwu_move_affine,
            remote: d.counters.ttwu_wake_remote,
          })}
        </p>
      ))}
    </section>
  );
});
