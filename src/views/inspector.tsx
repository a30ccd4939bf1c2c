// The balancing-decision inspector: the latest load_balance decision made
// by a designated balancer, the statistics of each group it compared, which
// one it found busiest, and in plain words why work moved or did not.
import { memo } from 'react';
import type { DecisionView } from '../engine/types';
import { fmtMs } from './colors';
import { avgComputed, decisionSteps, groupSentence, explainDecision, typeName } from './inspector-words';
import { cpuListText } from './cpuset';
import { useT } from '../i18n/i18n';
import { shownText } from './hidden-chars';

/** Re-rendered only when the decision shown changes (not every frame while playing). */
export const Inspector = memo(
  function Inspector(props: { decision: DecisionView | null; nameOf: (pid: number) => string }) {
    const t = useT();
    const d = props.decision;
    // 6.12 counts its imbalance in a migration type and ranks groups by util as well as load: its
    // table shows util where 4.1's shows the spread of CPU loads the Group Imbalance fix reads.
    const v612 = d?.kernel === '6.12';
    return (
      <section className="panel" data-testid="inspector">
        <header className="panel-head">
          <h2>{t('insp.title')}</h2>
          {d && (
            <span className="meta">
              {t('insp.meta', { t: fmtMs(d.t_ns), cpu: d.cpu, level: d.level, idle: t(`dec.idle.${d.idle}`) })}
            </span>
          )}
        </header>
        {!d ? (
          <p className="empty">{t('insp.none')}</p>
        ) : (
          <>
            <p className="explanation" data-testid="explanation">
              {explainDecision(d, t)}
              {d.moved.length > 0 && (
                <> — {t('insp.moved', { names: d.moved.map((pid) => shownText(props.nameOf(pid))).join(', ') })}</>
              )}
            </p>
            <ol className="lb-steps" data-testid="lb-steps">
              {decisionSteps(d, props.nameOf, t).map((s, i) => (
                <li key={i}>{s}</li>
              ))}
            </ol>
            {/* Focusable: on a narrow screen the table scrolls sideways (layout.css), and arrow keys scroll it. */}
            <table className="lb-groups" tabIndex={0}>
              <thead>
                <tr>
                  <th>{t('insp.col.group')}</th>
                  <th>{t('insp.col.type')}</th>
                  <th>{t('insp.col.tasks')}</th>
                  <th>{t('insp.col.idle')}</th>
                  <th>{t('insp.col.load')}</th>
                  <th>{t('insp.col.capacity')}</th>
                  <th>{t('insp.col.avg')}</th>
                  <th>{v612 ? t('insp.col.util') : t('insp.col.minmax')}</th>
                  <th className="words">{t('insp.col.words')}</th>
                </tr>
              </thead>
              <tbody>
                {d.groups.map((g, i) => (
                  <tr key={i} className={g.local ? 'local' : i === d.busiest_group ? 'busiest' : ''}>
                    <td>
                      {cpuListText(g.cpus)}
                      {g.local ? ` ${t('insp.local')}` : i === d.busiest_group ? ` ${t('insp.busiest')}` : ''}
                    </td>
                    <td data-testid="group-type">{typeName(g.group_type, t)}</td>
                    <td>{g.sum_nr_running}</td>
                    <td>{g.idle_cpus}</td>
                    <td>{g.group_load}</td>
                    <td>{g.group_capacity}</td>
                    <td>{avgComputed(g, d) ? g.avg_load : '–'}</td>
                    <td>
                      {v612 ? (
                        g.util
                      ) : (
                        <>
                          {g.min_load} / {g.max_load}
                        </>
                      )}
                    </td>
                    <td className="words" data-testid="group-words">
                      {groupSentence(g, i, d, t)}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="meta">
              {t('insp.footer', { avg: d.domain_avg_load, imb: d.imbalance })}
              {d.migration !== null && (
                <>
                  {' · '}
                  <span data-testid="migration-type">{t('insp.migration', { mig: `migrate_${d.migration}` })}</span>
                </>
              )}
              {d.busiest_cpu !== null && <> · {t('insp.busiestCpu', { cpu: d.busiest_cpu })}</>}
            </p>
          </>
        )}
      </section>
    );
  },
  (a, b) =>
    a.decision?.t_ns === b.decision?.t_ns &&
    a.decision?.cpu === b.decision?.cpu &&
    a.decision?.level === b.decision?.level,
);
