// Recent migrations as arrows between the CPUs' (or nodes') cells, coloured by
// what moved the task and fading with age.
import type { MigrationView } from '../../engine/types';
import { useT } from '../../i18n/i18n';
import { centre, type Rect } from './layout';
import { shownText } from '../hidden-chars';

/** Balancing pulls vs wakeup and fork placement moves vs hotplug evacuations. */
const CAUSE_COLOUR: Record<string, string> = {
  balance: '#7b2cbf',
  newidle: '#7b2cbf',
  active: '#c2185b',
  wakeup: '#0b7285',
  fork: '#0b7285',
  hotplug: '#8d2b0b',
};

/** One arrowhead per cause, for the arrows' `markerEnd`: inside the SVG's `<defs>`. */
export function ArrowMarkers() {
  return (
    <>
      {Object.entries(CAUSE_COLOUR).map(([cause, colour]) => (
        <marker
          key={cause}
          id={`arrow-${cause}`}
          viewBox="0 0 10 10"
          refX="9"
          refY="5"
          markerWidth="7"
          markerHeight="7"
          orient="auto-start-reverse"
        >
          <path d="M 0 0 L 10 5 L 0 10 z" fill={colour} />
        </marker>
      ))}
    </>
  );
}

export function MigrationArrows(p: {
  migrations: MigrationView[];
  /** Each CPU's cell (the node's, when its node is drawn as one). */
  cells: Rect[];
  nowNs: number;
  /** How far back migrations are drawn (simulated ns). */
  arrowWindowNs: number;
  nameOf: (pid: number) => string;
}) {
  const t = useT();
  return (
    <>
      {p.migrations.map((m, i) => {
        const a = p.cells[m.from];
        const b = p.cells[m.to];
        // Within one node drawn as one cell there is nowhere to point.
        if (!a || !b || a === b) return null;
        const age = (p.nowNs - m.t_ns) / Math.max(1, p.arrowWindowNs);
        return (
          <path
            key={i}
            className="migration"
            data-testid="migration-arrow"
            d={arc(centre(a), centre(b))}
            stroke={CAUSE_COLOUR[m.cause] ?? '#52606d'}
            markerEnd={`url(#arrow-${CAUSE_COLOUR[m.cause] ? m.cause : 'balance'})`}
            opacity={Math.max(0.25, 1 - age)}
          >
            <title>
              {t('topo.arrowTitle', {
                name: shownText(p.nameOf(m.pid)),
                from: m.from,
                to: m.to,
                cause: m.cause,
                t: (m.t_ns / 1e6).toFixed(3),
              })}
            </title>
          </path>
        );
      })}
    </>
  );
}

/** A gentle curve from a to b, bowed to one side so opposite moves don't overlap. */
function arc(a: { x: number; y: number }, b: { x: number; y: number }): string {
  const mx = (a.x + b.x) / 2;
  const my = (a.y + b.y) / 2;
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const bow = 0.2;
  return `M ${a.x} ${a.y} Q ${mx - dy * bow} ${my + dx * bow} ${b.x} ${b.y}`;
}
