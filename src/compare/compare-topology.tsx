// Compare mode's machines side by side: the topology view of run A and of
// run B at the same simulated time (the partner is kept on the primary's
// clock), each with its own recent migrations and latest decision, one
// colouring for both so the colours compare.
import { useMemo, useRef, useState } from 'react';
import type { Simulation } from '../engine/engine';
import type { TopologyView as Topo } from '../engine/types';
import { useT } from '../i18n/i18n';
import { latestFocus } from '../views/topology/focus';
import { layoutTopology } from '../views/topology/layout';
import { TopologyView, type ColourBy } from '../views/topology/topology-view';
import { useWidth } from '../views/use-width';

/** Same window and arrow count as the lab's own topology view. */
const ARROW_WINDOW_NS = 20e6;
const MAX_ARROWS = 32;

function Machine(props: { label: string; sim: Simulation; topo: Topo; colourBy: ColourBy; onColourBy: (c: ColourBy) => void; testId: string }) {
  const { sim } = props;
  const now = sim.nowNs;
  // Counters of every CPU; the trees of CPU 0 come along (the frame view's detail CPU) and are not drawn.
  const cpus = sim.frame(0).cpus;
  // Two machines share one row: a large one is zoomed down to its half.
  const box = useRef<HTMLDivElement>(null);
  const boxW = useWidth(box, 600);
  const machineW = useMemo(() => layoutTopology(props.topo).width + 30, [props.topo]);
  const zoom = Math.min(1, boxW / machineW);
  return (
    <div className="compare-machine" data-testid={props.testId} ref={box}>
      <h3>{props.label}</h3>
      <div style={{ zoom }}>
        <TopologyView
          topo={props.topo}
          cpus={cpus}
          nameOf={(pid) => sim.nameOf(pid)}
          colourBy={props.colourBy}
          onColourBy={props.onColourBy}
          migrations={sim.migrations(Math.max(0, now - ARROW_WINDOW_NS), MAX_ARROWS)}
          nowNs={now}
          arrowWindowNs={ARROW_WINDOW_NS}
          focus={latestFocus(sim.placements(1)[0], sim.decisions(1, true)[0])}
          selected={-1}
          onSelect={() => undefined}
          testId={`${props.testId}-view`}
        />
      </div>
    </div>
  );
}

export function CompareTopology(props: { simA: Simulation; simB: Simulation; topoA: Topo; topoB: Topo; nameA: string; nameB: string }) {
  const t = useT();
  const [colourBy, setColourBy] = useState<ColourBy>('nr_running');
  return (
    <div className="compare-topology" data-testid="compare-topology">
      <h3>{t('rqpolicy.compareMachines')}</h3>
      <div className="compare-machines">
        <Machine label={`A: ${props.nameA}`} sim={props.simA} topo={props.topoA} colourBy={colourBy} onColourBy={setColourBy} testId="compare-topo-a" />
        <Machine label={`B: ${props.nameB}`} sim={props.simB} topo={props.topoB} colourBy={colourBy} onColourBy={setColourBy} testId="compare-topo-b" />
      </div>
    </div>
  );
}
