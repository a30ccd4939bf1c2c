// The CPU's runqueue as the kernel holds it: the root red-black tree of
// waiting entities keyed by vruntime, the running one (curr) kept outside
// the tree, and — with group scheduling — one more tree per task group that
// has tasks on this CPU (the tree of trees). The parts around the root tree
// are in rbtree-parts.tsx. Under O(1) and Linux 6.12 the panel is another
// drawing (o1-arrays.tsx, eevdf-queue.tsx).
import { useState } from 'react';
import type { CpuView, RotationView } from '../engine/types';
import { RqList } from './rq-list';
import { TreeDiagram } from './tree-diagram';
import { O1RunqueueView } from './o1-arrays';
import { EevdfRunqueueView } from './eevdf-queue';
import { RtRunqueueView } from './rt-queue';
import { DlRunqueueView } from './dl-queue';
import { ClassHierarchy } from './class-hierarchy';
import { UnderclassTree } from './underclass-tree';
import { useT } from '../i18n/i18n';
import { CurrBox, GroupTrees, LIST_FROM, RotationLine, RqHead, type Mode } from './rbtree-parts';

interface RunqueueProps {
  cpu: CpuView;
  currName: string | null;
  rotations: RotationView[];
  nameOf: (pid: number) => string;
}

/** The CPU's runqueues in the hierarchy's order: its classes at a glance, then the deadline and real-time classes',
 * when the run has them, above the fair class's. */
export function RbTreeView(props: RunqueueProps) {
  const fair = <FairRunqueueView {...props} />;
  const { dl, rt, classes } = props.cpu;
  return (
    <>
      {classes && <ClassHierarchy cpu={props.cpu} classes={classes} nameOf={props.nameOf} />}
      {dl && <DlRunqueueView cpu={props.cpu} dl={dl} />}
      {rt && <RtRunqueueView cpu={props.cpu} rt={rt} />}
      {fair}
    </>
  );
}

function FairRunqueueView(props: RunqueueProps) {
  const { cpu, currName, rotations, nameOf } = props;
  const t = useT();
  const [mode, setMode] = useState<Mode>('auto');
  const asList = mode === 'list' || (mode === 'auto' && cpu.tree.nodes.length > LIST_FROM);
  // Under O(1) there is no CFS tree to show: the priority arrays are the runqueue.
  if (cpu.o1) return <O1RunqueueView cpu={cpu} o1={cpu.o1} currName={currName} />;
  // Under Linux 6.12 the vruntime tree stays empty: EEVDF's deadline-ordered queue is the runqueue.
  if (cpu.eevdf && cpu.eevdf.length > 0) return <EevdfRunqueueView cpu={cpu} queues={cpu.eevdf} currName={currName} />;
  const gi = cpu.under !== null && cpu.under !== undefined;
  return (
    <section className="panel rbtree-panel">
      <RqHead cpu={cpu} mode={mode} setMode={setMode} />
      <CurrBox cpu={cpu} currName={currName} />
      <RotationLine cpu={cpu.cpu} rotations={rotations} nameOf={nameOf} />
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
      {cpu.groups.length > 0 && <GroupTrees cpu={cpu} nameOf={nameOf} />}
    </section>
  );
}
