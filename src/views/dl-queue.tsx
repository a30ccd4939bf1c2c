// The deadline class's runqueue of one CPU (deadline.c): the red-black tree
// keyed by absolute deadline — EDF runs its leftmost — and each task's
// constant bandwidth server: runtime left of its reservation, throttled
// until its deadline when spent, and the deadlines it missed.
import type { CpuView, DlRqView, FairServerView } from '../engine/types';
import { useT } from '../i18n/i18n';
import { fmtMs } from './colors';
import { shownText } from './hidden-chars';
import { TreeDiagram } from './tree-diagram';

export function DlRunqueueView(props: { cpu: CpuView; dl: DlRqView }) {
  const t = useT();
  const { cpu, dl } = props;
  return (
    <section className="panel dl-panel" data-testid="dl-runqueue">
      <header className="panel-head">
        <h2>{t('dl.title', { cpu: cpu.cpu })}</h2>
      </header>
      <p className="hint">{t('dl.hint')}</p>
      {dl.overloaded && <p className="rt-flag">{t('dl.overloaded')}</p>}
      {dl.tree.nodes.length > 0 ? (
        <TreeDiagram
          tree={dl.tree}
          testId="dl-tree"
          nodeTestId="dl-node"
          label={t('dl.treeLabel', { cpu: cpu.cpu })}
          minWidth={300}
        />
      ) : (
        <p className="empty">{t('dl.empty')}</p>
      )}
      {dl.tasks.length > 0 && (
        <table className="dl-tasks" data-testid="dl-tasks">
          <thead>
            <tr>
              <th>{t('dl.colTask')}</th>
              <th>{t('dl.colDeadline')}</th>
              <th>{t('dl.colRuntime')}</th>
              <th>{t('dl.colPeriod')}</th>
              <th>{t('dl.colState')}</th>
              <th>{t('dl.colMisses')}</th>
            </tr>
          </thead>
          <tbody>
            {dl.tasks.map((d) => (
              <tr key={d.pid} data-testid="dl-task" className={d.throttled ? 'throttled' : undefined}>
                <td>
                  {shownText(d.name)}
                  {d.reclaim && <span className="meta"> {t('dl.reclaims')}</span>}
                </td>
                <td>{fmtMs(d.deadline_in_ns)} ms</td>
                <td>
                  {fmtMs(d.runtime_left_ns)} / {fmtMs(d.runtime_ns)} ms
                </td>
                <td>{fmtMs(d.period_ns)} ms</td>
                <td>{d.throttled ? t('dl.throttled') : d.pid === cpu.curr ? t('dl.running') : t('dl.queued')}</td>
                <td>{d.misses}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {dl.fair_server && <FairServerLine server={dl.fair_server} />}
      {dl.grub && (
        <p className="dl-fair-server" data-testid="dl-grub" title={t('dl.grubHint')}>
          {t('dl.grub', {
            running: dl.grub.running_pct.toFixed(1),
            all: dl.grub.this_pct.toFixed(1),
            extra: dl.grub.extra_pct.toFixed(1),
          })}
        </p>
      )}
    </section>
  );
}

/** Linux 6.12's fair server on this CPU: its state, runtime and deadline, and when its timer fires. */
function FairServerLine(props: { server: FairServerView }) {
  const t = useT();
  const s = props.server;
  return (
    <p className="dl-fair-server" data-testid="fair-server" title={t('dl.serverHint')}>
      {t('dl.server', {
        state: t(`dl.server.${s.state}`),
        left: fmtMs(s.runtime_left_ns),
        runtime: fmtMs(s.runtime_ns),
        period: fmtMs(s.period_ns),
        deadline: fmtMs(s.deadline_in_ns),
        n: s.activations,
      })}
      {s.timer_in_ns !== null && ` ${t('dl.serverTimer', { at: fmtMs(s.timer_in_ns) })}`}
    </p>
  );
}
