// The tasks with their scheduling state and statistics. Names are untrusted
// scenario text: React renders them as text, never as HTML.
import { memo } from 'react';
import type { TaskList } from '../engine/types';
import { fmtMs, taskColor } from './colors';

/** Rows drawn at most; forking workloads create thousands of short-lived tasks. */
export const MAX_ROWS = 300;
/** Rows while playing: the list is refreshed a few times a second. */
export const PLAYING_ROWS = 40;

/**
 * Memoised: while playing, the app hands it a new list only a few times a
 * second. The engine picks the rows (`listedTasks`): exited tasks go first
 * out of the table when there are many, the live ones being what the cursor
 * explains.
 */
export const TaskTable = memo(function TaskTable(props: { tasks: TaskList; maxRows: number }) {
  const MAX = props.maxRows;
  const shown = props.tasks.rows;
  const hidden = props.tasks.total - shown.length;
  return (
    <section className="panel">
      <header className="panel-head">
        <h2>Tasks</h2>
        {hidden > 0 && (
          <span className="meta" data-testid="tasks-hidden">
            {shown.length} shown · {hidden} more (exited or beyond the first {MAX}{MAX < MAX_ROWS ? ' while playing' : ''}) not listed
          </span>
        )}
      </header>
      <div className="table-scroll">
        <table className="tasks">
          <thead>
            <tr>
              <th>task</th>
              <th>nice</th>
              <th>weight</th>
              <th>state</th>
              <th>cpu</th>
              <th>vruntime ms</th>
              <th>CPU time ms</th>
              <th>wait ms</th>
              <th title="voluntary context switches">nvcsw</th>
              <th title="involuntary context switches">nivcsw</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((t) => (
              <tr key={t.pid} className={`state-${t.state}`}>
                <td>
                  <span className="swatch" style={{ background: taskColor(t.pid) }} />
                  {t.name}
                </td>
                <td>{t.nice}</td>
                <td>{t.weight}</td>
                <td>{t.state}</td>
                <td>{t.cpu}</td>
                <td>{fmtMs(t.vruntime)}</td>
                <td>{fmtMs(t.sum_exec_ns)}</td>
                <td>{fmtMs(t.wait_ns)}</td>
                <td>{t.nvcsw}</td>
                <td>{t.nivcsw}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
});
