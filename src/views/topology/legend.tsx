// The machine's key: the colour ramp, the links' hop distances (where links
// are drawn), the arrows' causes and the outlines of a decision's CPUs.
import type { TopologyView as Topo } from '../../engine/types';
import type { ColourBy } from '../../stores/view';
import { useT } from '../../i18n/i18n';

export function TopologyLegend(p: {
  topo: Topo;
  colourBy: ColourBy;
  top: number;
  fill: (v: number) => string;
  multi: boolean;
  links: boolean;
}) {
  // Hop distances are keyed only where links are drawn (the ring).
  const distances = !p.links
    ? []
    : [...new Set(p.topo.hops.flatMap((row, i) => row.map((h, j) => `${h}:${p.topo.distance[i][j]}`)))]
        .map((s) => s.split(':').map(Number))
        .filter(([h]) => h > 0)
        .sort((a, b) => a[0] - b[0]);
  const steps = [0, 0.25, 0.5, 0.75, 1].map((f) => f * p.top);
  const t = useT();
  return (
    <ul className="legend topo-legend">
      <li>
        {p.colourBy === 'nr_running' ? t('topo.runnable') : t('topo.load')}:
        {steps.map((v) => (
          <span key={v} className="ramp">
            <span className="swatch" style={{ background: v === 0 ? '#f5f7fa' : p.fill(v) }} />
            {p.colourBy === 'nr_running' ? v.toFixed(0) : Math.round(v)}
          </span>
        ))}
      </li>
      {distances.map(([h, d]) => (
        <li key={h}>
          <span className={`link-key hops-${Math.min(h, 3)}`} /> {t('topo.hops', { h, d })}
        </li>
      ))}
      {p.multi && (
        <>
          <li>
            <span className="link-key arrow balance" /> {t('topo.pull')}
          </li>
          <li>
            <span className="link-key arrow wakeup" /> {t('topo.wakeupMove')}
          </li>
          <li>
            <span className="cell-key busiest" /> {t('topo.busiestGroup')}
          </li>
          <li>
            <span className="cell-key chosen" /> {t('topo.chosen')}
          </li>
        </>
      )}
      <li>
        <span className="cell-key considered" /> {t('topo.considered')}
      </li>
    </ul>
  );
}
