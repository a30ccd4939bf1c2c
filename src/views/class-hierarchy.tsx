// The CPU's scheduling classes in the kernel's order (for_each_class: stop,
// deadline, real-time, fair, idle): how many of its tasks each holds and
// which one runs. __schedule asks them top down and takes the first task it
// gets; the idle class always has one. A woken stopper's works are listed.
import type { ClassRowView, CpuView, StopWorkView } from '../engine/types';
import { useT } from '../i18n/i18n';

export function ClassHierarchy(props: { cpu: CpuView; classes: ClassRowView[]; nameOf: (pid: number) => string }) {
  const t = useT();
  const { cpu, classes, nameOf } = props;
  return (
    <section className="panel class-panel" data-testid="class-hierarchy">
      <header className="panel-head">
        <h2>{t('cls.title', { cpu: cpu.cpu })}</h2>
      </header>
      <ol className="class-strip" aria-label={t('cls.label', { cpu: cpu.cpu })}>
        {classes.map((c) => (
          <li
            key={c.class}
            className={`class-box class-${className(c.class)}${c.running ? ' running' : ''}`}
            data-testid={`class-${c.class}`}
            title={t(`cls.hint.${className(c.class)}`)}
          >
            <span className="class-name">{classLabel(c.class, t)}</span>
            <span className="class-count">{countText(c, cpu.cpu, t)}</span>
            {c.running && <span className="class-runs">{t('cls.runs')}</span>}
          </li>
        ))}
      </ol>
      {cpu.stop_works.length > 0 && (
        <p className="class-stop-works" data-testid="stop-works">
          {t('cls.works', { cpu: cpu.cpu })} {cpu.stop_works.map((w) => workText(w, nameOf, t)).join('; ')}
        </p>
      )}
    </section>
  );
}

type T = ReturnType<typeof useT>;

/** The fair class's place holds the run's class, whatever its name. */
function className(c: string): string {
  return ['stop', 'deadline', 'realtime', 'idle'].includes(c) ? c : 'fair';
}

function classLabel(c: string, t: T): string {
  const kind = className(c);
  return kind === 'fair' ? t('cls.name.fair', { policy: c }) : t(`cls.name.${kind}`);
}

function countText(c: ClassRowView, cpu: number, t: T): string {
  if (c.class === 'stop') return c.queued > 0 ? t('cls.stopWoken', { cpu }) : t('cls.stopAsleep', { cpu });
  if (c.class === 'idle') return t('cls.idleTask', { cpu });
  return t('cls.tasks', { n: c.queued });
}

function workText(w: StopWorkView, nameOf: (pid: number) => string, t: T): string {
  if (w.kind === 'migrate' && w.pid !== null) return t('cls.workMigrate', { task: nameOf(w.pid), cpu: w.target });
  return t('cls.workActive', { cpu: w.target });
}
