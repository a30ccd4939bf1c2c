// The CPU's runqueue as the kernel holds it: the root red-black tree of
// waiting entities keyed by vruntime, the running one (curr) kept outside
// the tree, and — with group scheduling — one more tree per task group that
// has tasks on this CPU (the tree of trees).
import { useState } from 'react';
import type { CpuView, RotationView } from '../engine/types';
import { RqList } from './rq-list';
import { fmtMs, taskColor } from './colors';
import { TreeDiagram } from './tree-diagram';
import { O1RunqueueView } from './o1-arrays';
import { UnderclassTree } from './underclass-tree';
import { useT } from '../i18n/i18n';
import { ExportButtons } from './export/export-buttons';

/** Past this many waiting entities the tree is unreadable: 'auto' shows the list. */
const LIST_FROM = 48;
type Mode = 'auto' | 'tree' | 'list';
/** A run of many events leaves many rotations: the line names the latest ones. */
const ROTATIONS_SHOWN = 8;

export function RbTreeView(props: {
  cpu: CpuView;
  currName: string | null;
  rotations: RotationView[];
  nameOf: (pid: number) => string;
}) {
  const { cpu, currName, rotations, nameOf } = props;
  const t = useT();
  const myRotations = rotations.filter((r) => r.cpu === cpu.cpu);
  const [mode, setMode] = useState<Mode>('auto');
  const asList = mode === 'list' || (mode === 'auto' && cpu.tree.nodes.length > LIST_FROM);
  // Under O(1) there is no CFS tree to show: the priority arrays are the runqueue.
  if (cpu.o1) return <O1RunqueueView cpu={cpu} o1={cpu.o1} currName={currName} />;
  const gi = cpu.under !== null && cpu.under !== undefined;
  return (
    <section className="panel rbtree-panel">
      <header className="panel-head">
        <h2>{t('rq.title', { cpu: cpu.cpu })}</h2>
        <span className="meta">
          nr_running <b>{cpu.nr_running}</b> · {t('rq.inTree')} <b data-testid="nr-in-tree">{cpu.tree.nodes.length}</b>{' '}
          · min_vruntime <b>{fmtMs(cpu.min_vruntime)} ms</b> · {t('rq.loadWeight')} <b>{cpu.load_weight}</b> ·{' '}
          {t('rq.peltLoad')} <b>{cpu.load}</b>
          {cpu.cpu_load && (
            <>
              {' '}
              · <span title={t('rq.cpuLoadHint')}>cpu_load[]</span>{' '}
              <b data-testid="cpu-load">{cpu.cpu_load.join(' ')}</b>
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
            {currName}
          </span>
        )}
        <span className="hint">{t('rq.currHint')}</span>
      </div>
      <div className="rotation-line" data-testid="rotations">
        {myRotations.length === 0
          ? ' '
          : (myRotations.length > ROTATIONS_SHOWN
              ? `${t('rq.earlierRotations', { n: myRotations.length - ROTATIONS_SHOWN })} · `
              : '') +
            myRotations
              .slice(-ROTATIONS_SHOWN)
              .map((r) => t('rq.rotate', { dir: t(`rq.dir.${r.dir}`), name: nameOf(r.pivot) }))
              .join(' · ')}
      </div>
      <div className={gi ? 'gi-row' : undefined}>
        <div className="tree-scroll" tabIndex={0} role="region" aria-label={t('rq.title', { cpu: cpu.cpu })}>
          {gi && (
            <div className="gi-label">
              <b>{t('rqpolicy.giNormal')}</b>
            </div>
          )}
          {asList ? (
            cpu.tree.nodes.length > 0 && <RqList tree={cpu.tree} minVruntime={cpu.min_vruntime} />
          ) : (
            <TreeDiagram
              tree={cpu.tree}
              testId="rbtree"
              nodeTestId="rb-node"
              label={t('rq.treeLabel', { cpu: cpu.cpu })}
              minWidth={gi ? 380 : 760}
            />
          )}
          {cpu.tree.nodes.length === 0 && <p className="empty">{t('rq.empty')}</p>}
        </div>
        {gi && cpu.under && <UnderclassTree tree={cpu.under} cpu={cpu.cpu} />}
      </div>
      {cpu.groups.length > 0 && (
        <div className="group-trees">
          <h3>{t('rq.groupsTitle')}</h3>
          <div className="group-row">
            {cpu.groups.map((g) => (
              <div className="group-tree" key={g.tg} data-testid="group-rq">
                <div className="meta">
                  <b>{g.name}</b> · {g.nr_running === 1 ? t('rq.entity1') : t('rq.entities', { n: g.nr_running })} ·{' '}
                  {t('rq.weight', { w: g.load_weight })}
                  {g.curr !== null && <> · curr {nameOf(g.curr)}</>}
                </div>
                {g.tree.nodes.length === 0 ? (
                  !g.under?.nodes.length && <p className="empty">{t('rq.groupEmpty')}</p>
                ) : (
                  <TreeDiagram
                    tree={g.tree}
                    testId="group-tree"
                    nodeTestId="rb-group-node"
                    label={t('rq.groupTreeLabel', { name: g.name })}
                    minWidth={180}
                    scale={0.7}
                  />
                )}
                {g.under && g.under.nodes.length > 0 && <UnderclassTree tree={g.under} cpu={cpu.cpu} small />}
              </div>
            ))}
          </div>
        </div>
      )}
    </section>
  );
}
