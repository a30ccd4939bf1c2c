// The run's headline figures at the cursor: wasted core time (an idle CPU
// while a thread that could run there waits), the sanity checker's reports,
// migrations and balancing decisions, and per-process completion.
import { memo } from 'react';
import type { Report } from '../engine/types';
import { fmtMs } from './colors';

export const MetricsStrip = memo(function MetricsStrip(props: { report: Report }) {
  const r = props.report;
  return (
    <section className="panel metrics" data-testid="metrics">
      {r.event_budget_stop_ns !== null && (
        <div className="figure" data-testid="budget-stop">
          <span className="label">run stopped early</span>
          <b className="bad">event budget spent at {fmtMs(r.event_budget_stop_ns)} ms</b>
        </div>
      )}
      <div className="figure">
        <span className="label">wasted core time</span>
        <b data-testid="wasted">{fmtMs(r.wasted_core_ns)} ms</b>
      </div>
      <div className="figure" title="The longest unbroken stretch one CPU sat idle while a thread allowed on it waited elsewhere">
        <span className="label">longest idle while work waited</span>
        <b data-testid="longest-wasted">
          {r.longest_wasted_idle ? `${fmtMs(r.longest_wasted_idle[2])} ms on CPU ${r.longest_wasted_idle[0]}` : 'none'}
        </b>
      </div>
      <div className="figure">
        <span className="label">sanity checker</span>
        <b className={r.sanity_violations.length > 0 ? 'bad' : 'good'} data-testid="violations">
          {r.sanity_violations.length === 0 ? 'no violation' : `${r.sanity_violations.length} violation(s)`}
        </b>
      </div>
      <div className="figure">
        <span className="label">migrations</span>
        <b>{r.migrations}</b>
      </div>
      <div className="figure">
        <span className="label">balancing decisions</span>
        <b>{r.balance_decisions}</b>
      </div>
      {r.processes.slice(0, 4).map((p) => (
        <div className="figure" key={p.tgid}>
          <span className="label">{p.name}</span>
          <b>{p.completion_ns === null ? `${(p.share * 100).toFixed(1)}% of the machine` : `done at ${fmtMs(p.completion_ns)} ms`}</b>
        </div>
      ))}
    </section>
  );
});
