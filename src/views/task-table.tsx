// The tasks with their scheduling state and statistics. Names are untrusted
// scenario text: React renders them as text, never as HTML.
import { memo } from 'react';
import type { TaskList } from '../engine/types';
import { fmtMs, taskColor } from './colors';
import { useT } from '../i18n/i18n';

// How many rows the engine worker lists (forking workloads create thousands of short-lived tasks).
import { MAX_ROWS } from '../engine/frame';
import { Shown } from './shown';

/**
 * Memoised: while playing, the app hands it a new list only a few times a
 * second. The engine picks the rows (a frame's `tasks`): exited tasks go first
 * out of the table when there are many, the live ones being what the cursor
 * explains.
 */
export const TaskTable = memo(function TaskTable(props: { tasks: TaskList; maxRows: number }) {
  const t = useT();
  const MAX = props.maxRows;
  const shown = props.tasks.rows;
  const hidden = props.tasks.total - shown.length;
  return (
    <section className="panel">
      <header className="panel-head">
        <h2>{t('tasks.title')}</h2>
        {hidden > 0 && (
          <span className="meta" data-testid="tasks-hidden">
            {t(MAX < MAX_ROWS ? 'tasks.hiddenPlaying' : 'tasks.hidden', { shown: shown.length, hidden, max: MAX })}
          </span>
        )}
      </header>
      <div className="table-scroll" tabIndex={0} role="region" aria-label={t('tasks.title')}>
        <table className="tasks">
          <thead>
            <tr>
              <th>{t('tasks.task')}</th>
              <th>{t('tasks.nice')}</th>
              <th>{t('tasks.weight')}</th>
              <th>{t('tasks.state')}</th>
              <th>{t('tasks.cpu')}</th>
              <th>{t('tasks.vruntime')}</th>
              <th>{t('tasks.cpuTime')}</th>
              <th>{t('tasks.wait')}</th>
              <th title={t('tasks.nvcswTitle')}>nvcsw</th>
              <th title={t('tasks.nivcswTitle')}>nivcsw</th>
            </tr>
          </thead>
          <tbody>
            {shown.map((task) => (
              <tr key={task.pid} className={`state-${task.state}`}>
                <td>
                  <span className="swatch" style={{ background: taskColor(task.pid) }} />
                  <Shown text={task.name} />
                </td>
                <td>{task.nice}</td>
                <td>{task.weight}</td>
                <td>{task.state}</td>
                <td>{task.cpu}</td>
                <td>{fmtMs(task.vruntime)}</td>
                <td>{fmtMs(task.sum_exec_ns)}</td>
                <td>{fmtMs(task.wait_ns)}</td>
                <td>{task.nvcsw}</td>
                <td>{task.nivcsw}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
});
