// The lanes' DOM around the canvas: the panel's header (the window, the CPUs
// drawn, zoom buttons, exports), the time axis and the legend.
import { useMemo } from 'react';
import { taskColor } from '../colors';
import { useT } from '../../i18n/i18n';
import { ExportButtons } from '../export/export-buttons';
import { zoomAnchorNs, type GanttNav } from './nav';
import { fmtSpan, fmtTick, legendEntries } from './words';
import { CLASS_BAND_COLOR, type BandClass, type LanesGeometry } from './canvas';
import { Shown } from '../shown';

export function GanttHead(props: {
  t0Ns: number;
  t1Ns: number;
  nrCpus: number;
  geometry: LanesGeometry;
  nav: GanttNav | undefined;
  keptFromNs: number | null | undefined;
}) {
  const { t0Ns, t1Ns, nrCpus, nav, keptFromNs } = props;
  const { lo, hi, nrLanes } = props.geometry;
  const t = useT();
  return (
    <header className="panel-head">
      <h2>{t('gantt.title')}</h2>
      <span className="meta" data-testid="gantt-window">
        {nav && !nav.follow
          ? t('gantt.from', { span: fmtSpan(t1Ns - t0Ns), end: (t1Ns / 1e6).toFixed(3) })
          : t('gantt.last', { span: fmtSpan(t1Ns - t0Ns) })}
      </span>
      {nrLanes < nrCpus && (
        <span className="meta" data-testid="gantt-cpus">
          {t('gantt.someCpus', { lo, last: hi - 1, n: nrCpus })}
        </span>
      )}
      {keptFromNs != null && t0Ns < keptFromNs && (
        <span className="meta" data-testid="gantt-dropped">
          {t('gantt.dropped', { t: (keptFromNs / 1e6).toFixed(0) })}
        </span>
      )}
      {nav && <ZoomButtons nav={nav} t0Ns={t0Ns} t1Ns={t1Ns} />}
      <ExportButtons name="lanes" canvas />
    </header>
  );
}

function ZoomButtons({ nav, t0Ns, t1Ns }: { nav: GanttNav; t0Ns: number; t1Ns: number }) {
  const t = useT();
  return (
    <span className="toggle" role="group" aria-label={t('gantt.zoomLabel')}>
      <button
        data-testid="gantt-zoom-out"
        onClick={() => nav.onZoom(0.5, zoomAnchorNs(nav, t0Ns, t1Ns))}
        title={t('gantt.zoomOut')}
      >
        −
      </button>
      <button
        data-testid="gantt-zoom-in"
        onClick={() => nav.onZoom(2, zoomAnchorNs(nav, t0Ns, t1Ns))}
        title={t('gantt.zoomIn')}
      >
        +
      </button>
      <button
        data-testid="gantt-follow"
        className={nav.follow ? 'on' : ''}
        onClick={nav.onFollow}
        title={t('gantt.followTitle')}
      >
        {t('gantt.follow')}
      </button>
    </span>
  );
}

/** The time axis under the lanes, a tick about every 130 px. */
export function GanttAxis({ geometry, spanNs }: { geometry: LanesGeometry; spanNs: number }) {
  const { x, cssW } = geometry;
  return (
    <div className="axis" style={{ width: cssW }}>
      {x.ticks(Math.max(2, Math.floor(cssW / 130))).map((tick) => (
        <span key={tick} style={{ left: x(tick) }}>
          {fmtTick(tick, spanNs)}
        </span>
      ))}
    </div>
  );
}

export function GanttLegend(props: {
  slices: Float64Array;
  nameOf: (pid: number) => string;
  misses: number;
  bands?: ReadonlyMap<number, BandClass>;
}) {
  const { slices, nameOf, misses, bands } = props;
  const t = useT();
  const legend = useMemo(() => legendEntries(slices), [slices]);
  const classes = useMemo(
    () => (['deadline', 'realtime'] as const).filter((c) => [...(bands?.values() ?? [])].includes(c)),
    [bands],
  );
  return (
    <ul className="legend" data-testid="gantt-legend">
      {legend.shown.map((pid) => (
        <li key={pid}>
          <span className="swatch" style={{ background: taskColor(pid) }} />
          <Shown text={nameOf(pid)} />
        </li>
      ))}
      {legend.more > 0 && <li className="meta">{t('gantt.moreTasks', { n: legend.more })}</li>}
      {classes.map((c) => (
        <li key={c} data-testid={`gantt-band-${c}`}>
          <span className="band-swatch" style={{ background: CLASS_BAND_COLOR[c] }} aria-hidden="true" />
          {t(`gantt.band.${c}`)}
        </li>
      ))}
      {misses > 0 && (
        <li data-testid="gantt-miss-legend" title={t('gantt.missHint')}>
          <span className="miss-swatch" aria-hidden="true">
            ▼
          </span>
          {t('gantt.missLegend', { n: misses })}
        </li>
      )}
      {legend.shown.length === 0 && <li className="meta">{t('gantt.nothing')}</li>}
    </ul>
  );
}
