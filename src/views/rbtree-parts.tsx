// The runqueue panel's parts around its root tree: the header's figures and
// view switch, the running entity (curr, outside the tree), the latest
// rotations and the group runqueues' trees.
import type { CpuView, RotationView } from '../engine/types';
import { fmtMs, taskColor } from './colors';
import { TreeDiagram } from './tree-diagram';
import { UnderclassTree } from './underclass-tree';
import { useT } from '../i18n/i18n';
import { ExportButtons } from './export/export-buttons';
import { Shown } from './shown';
import { shownText } from './hidden-chars';

/** Past this many waiting entities the tree is unreadable: 'auto' shows the list. */
export const LIST_FROM = 48;
export type Mode = 'auto' | 'tree' | 'list';
/** A run of many events leaves many rotations: the line names the latest ones. */
const ROTATIONS_SHOWN = 8;

export function RqHead({ cpu, mode, setMode }: { cpu: CpuView; mode: Mode; setMode: (m: Mode) => void }) {
  const t = useT();
  return (
    <header className="panel-head">
      <h2>{t('rq.title', { cpu: cpu.cpu })}</h2>
      <span className="meta">
        nr_running <b>{cpu.nr_running}</b> · {t('rq.inTree')} <b data-testid="nr-in-tree">{cpu.tree.nodes.length}</b> ·
        min_vruntime <b>{fmtMs(cpu.min_vruntime)} ms</b> · {t('rq.loadWeight')} <b>{cpu.load_weight}</b> ·{' '}
        {t('rq.peltLoad')} <b>{cpu.load}</b>
        {cpu.cpu_load && (
          <>
            {' '}
            · <span title={t('rq.cpuLoadHint')}>cpu_load[]</span> <b data-testid="cpu-load">{cpu.cpu_load.join(' ')}</b>
          </>
        )}
      </span>
      <span className="toggle" role="group" aria-label={t('aria.runqueueAs')}>
        {t('rq.showAs')}
        {(['auto', 'tree', 'list'] as const).map((m) => (
          <button key={m} data-testid={`rq-mode-${m}`} className={mode === m ? 'on' : ''} onClick={() => setMode(m)}>
            {t(`rq.mode.${m}`, { n: LIST_FROM })}
          </button>
        ))}
      </span>
      <ExportButtons name="runqueue" />
    </header>
  );
}

export function CurrBox({ cpu, currName }: { cpu: CpuView; currName: string | null }) {
  const t = useT();
  // A real-time or deadline task holds the CPU: the fair class runs nothing (its cfs_rq->curr is empty).
  const above = cpu.rt?.queued.some((q) => q.pid === cpu.curr) || cpu.dl?.tasks.some((d) => d.pid === cpu.curr);
  if (cpu.curr !== null && above && currName !== null) {
    return (
      <div className="curr-box" data-testid="fair-curr-rt">
        <span className="curr-label">curr</span>
        <span className="idle">{t('rq.currAbove', { name: shownText(currName) })}</span>
      </div>
    );
  }
  return (
    <div className="curr-box">
      <span className="curr-label">curr</span>
      {currName === null ? (
        <span className="idle">
          {t('rq.idle')}
          {cpu.tick_stopped && (
            <span className="tick-stopped" data-testid="tick-stopped" title={t('rq.tickStoppedHint')}>
              {' '}
              · {t('rq.tickStopped')}
            </span>
          )}
        </span>
      ) : (
        <span className="curr-name" style={{ borderColor: taskColor(cpu.curr ?? 0) }}>
          <Shown text={currName} />
        </span>
      )}
      <span className="hint">{t('rq.currHint')}</span>
    </div>
  );
}

/** This CPU's latest rotations, in words. */
export function RotationLine(props: { cpu: number; rotations: RotationView[]; nameOf: (pid: number) => string }) {
  const { cpu, rotations, nameOf } = props;
  const t = useT();
  const mine = rotations.filter((r) => r.cpu === cpu);
  return (
    <div className="rotation-line" data-testid="rotations">
      {mine.length === 0
        ? ' '
        : (mine.length > ROTATIONS_SHOWN
            ? `${t('rq.earlierRotations', { n: mine.length - ROTATIONS_SHOWN })} · `
            : '') +
          mine
            .slice(-ROTATIONS_SHOWN)
            .map((r) => t('rq.rotate', { dir: t(`rq.dir.${r.dir}`), name: shownText(nameOf(r.pivot)) }))
            .join(' · ')}
    </div>
  );
}

/** One tree per task group with entities on this CPU (the tree of trees). */
export function GroupTrees({ cpu, nameOf }: { cpu: CpuView; nameOf: (pid: number) => string }) {
  const t = useT();
  return (
    <div className="group-trees">
      <h3>{t('rq.groupsTitle')}</h3>
      <div className="group-row">
        {cpu.groups.map((g) => (
          <div className="group-tree" key={g.tg} data-testid="group-rq">
            <div className="meta">
              <b>
                <Shown text={g.name} />
              </b>{' '}
              · {g.nr_running === 1 ? t('rq.entity1') : t('rq.entities', { n: g.nr_running })} ·{' '}
              {t('rq.weight', { w: g.load_weight })}
              {g.curr !== null && (
                <>
                  {' '}
                  · curr <Shown text={nameOf(g.curr)} />
                </>
              )}
            </div>
            {g.tree.nodes.length === 0 ? (
              !g.under?.nodes.length && <p className="empty">{t('rq.groupEmpty')}</p>
            ) : (
              <TreeDiagram
                tree={g.tree}
                testId="group-tree"
                nodeTestId="rb-group-node"
                label={t('rq.groupTreeLabel', { name: shownText(g.name) })}
                minWidth={180}
                scale={0.7}
              />
            )}
            {g.under && g.under.nodes.length > 0 && <UnderclassTree tree={g.under} cpu={cpu.cpu} small />}
          </div>
        ))}
      </div>
    </div>
  );
}
