// Compare mode's machines side by side: the topology view of run A and of
// run B at the same simulated time (the partner is kept on the primary's
// clock), each with its own recent migrations and latest decision, one
// colouring for both so the colours compare.
import { useState } from 'react';
import { ARROW_WINDOW_NS } from '../engine/frame';
import type { MachineData } from '../stores/lab-engine';
import { useT } from '../i18n/i18n';
import { latestFocus } from '../views/topology/focus';
import { TopologyView, type ColourBy } from '../views/topology/topology-view';
import { Shown } from '../views/shown';

function Machine(props: {
  label: string;
  machine: MachineData;
  colourBy: ColourBy;
  onColourBy: (c: ColourBy) => void;
  testId: string;
}) {
  const t = useT();
  const { frame, topology, names } = props.machine;
  const now = frame.nowNs;
  // Counters of every CPU (with the same arrow window as the lab's own view).
  const cpus = frame.view.cpus;
  return (
    <div className="compare-machine" data-testid={props.testId}>
      <h3>
        <Shown text={props.label} />
      </h3>
      {/* Each view lays itself out to its half of the row (a large machine as a grid of nodes). */}
      <TopologyView
        topo={topology}
        cpus={cpus}
        nameOf={(pid) => names[pid] ?? `pid ${pid}`}
        colourBy={props.colourBy}
        onColourBy={props.onColourBy}
        migrations={frame.migrations}
        nowNs={now}
        arrowWindowNs={ARROW_WINDOW_NS}
        focus={latestFocus(frame.placement ?? undefined, frame.decision ?? undefined, t)}
        selected={-1}
        onSelect={() => undefined}
        testId={`${props.testId}-view`}
      />
    </div>
  );
}

export function CompareTopology(props: { a: MachineData; b: MachineData; nameA: string; nameB: string }) {
  const t = useT();
  const [colourBy, setColourBy] = useState<ColourBy>('nr_running');
  return (
    <div className="compare-topology" data-testid="compare-topology">
      <h3>{t('rqpolicy.compareMachines')}</h3>
      <div className="compare-machines">
        <Machine
          label={`A: ${props.nameA}`}
          machine={props.a}
          colourBy={colourBy}
          onColourBy={setColourBy}
          testId="compare-topo-a"
        />
        <Machine
          label={`B: ${props.nameB}`}
          machine={props.b}
          colourBy={colourBy}
          onColourBy={setColourBy}
          testId="compare-topo-b"
        />
      </div>
    </div>
  );
}
