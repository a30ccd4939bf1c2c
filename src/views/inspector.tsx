// The balancing-decision inspector: the latest load_balance decision made
// by a designated balancer, the statistics of each group it compared, which
// one it found busiest, and in plain words why work moved or did not.
import { memo } from 'react';
import type { DecisionView } from '../engine/types';
import { fmtMs } from './colors';
import { decisionSteps, groupSentence } from './inspector-words';

/** Re-rendered only when the decision shown changes (not every frame while playing). */
export const Inspector = memo(
  function Inspector(props: { decision: DecisionView | null; nameOf: (pid: number) => string }) {
  const d = props.decision;
  return (
    <section className="panel" data-testid="inspector">
      <header className="panel-head">
        <h2>Load-balancing decision</h2>
        {d && (
          <span className="meta">
            at {fmtMs(d.t_ns)} ms · CPU {d.cpu} · {d.level} · {d.idle}
          </span>
        )}
      </header>
      {!d ? (
        <p className="empty">No balancing decision yet (one CPU has nothing to balance with).</p>
      ) : (
        <>
          <p className="explanation" data-testid="explanation">
            {d.explanation}
            {d.moved.length > 0 && <> — moved: {d.moved.map(props.nameOf).join(', ')}</>}
          </p>
          <ol className="lb-steps" data-testid="lb-steps">
            {decisionSteps(d, props.nameOf).map((s, i) => (
              <li key={i}>{s}</li>
            ))}
          </ol>
          <table className="lb-groups">
            <thead>
              <tr>
                <th>group (CPUs)</th>
                <th>type</th>
                <th>tasks</th>
                <th>idle CPUs</th>
                <th>load</th>
                <th>capacity</th>
                <th>avg load</th>
                <th>min / max CPU load</th>
                <th className="words">in words</th>
              </tr>
            </thead>
            <tbody>
              {d.groups.map((g, i) => (
                <tr key={g.cpus} className={g.local ? 'local' : i === d.busiest_group ? 'busiest' : ''}>
                  <td>
                    {g.cpus}
                    {g.local ? ' (local)' : i === d.busiest_group ? ' (busiest)' : ''}
                  </td>
                  <td>{g.group_type}</td>
                  <td>{g.sum_nr_running}</td>
                  <td>{g.idle_cpus}</td>
                  <td>{g.group_load}</td>
                  <td>{g.group_capacity}</td>
                  <td>{g.avg_load}</td>
                  <td>
                    {g.min_load} / {g.max_load}
                  </td>
                  <td className="words" data-testid="group-words">
                    {groupSentence(g, i, d)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="meta">
            domain average load {d.domain_avg_load} · imbalance {d.imbalance}
            {d.busiest_cpu !== null && <> · busiest CPU {d.busiest_cpu}</>}
          </p>
        </>
      )}
    </section>
  );
  },
  (a, b) => a.decision?.t_ns === b.decision?.t_ns && a.decision?.cpu === b.decision?.cpu && a.decision?.level === b.decision?.level,
);
