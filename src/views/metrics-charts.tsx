// Metrics as charts: each process's CPU share and completion, the wakeup
// latency distribution (CDF) per process, and wasted core time over the run
// (how many cores idled, on average, while a thread that could run there
// waited). SVG rendered by React; D3 provides scales and path strings.
// Process names are text nodes.
import { memo } from 'react';
import * as d3 from 'd3';
import type { LatencyCdf, LoadHistory, Report } from '../engine/types';
import { fmtMs } from './colors';
import { useT } from '../i18n/i18n';
import { ExportButtons } from './export/export-buttons';
import { shownClip, shownText } from './hidden-chars';

const W = 360;
const H = 170;
const M = { l: 58, r: 14, t: 8, b: 26 };
/** Processes shown in the share chart; the rest are counted. */
const MAX_PROCS = 10;

const procColour = (i: number) => d3.schemeTableau10[i % 10];
/** Latency axis ticks: one per decade, 1 µs to 1 s. */
const DECADES = [1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9];

export interface MetricsChartsProps {
  report: Report;
  cdfs: LatencyCdf[];
  history: LoadHistory | null;
  durationNs: number;
}

export const MetricsCharts = memo(function MetricsCharts(p: MetricsChartsProps) {
  const t = useT();
  return (
    <section className="panel" data-testid="metrics-charts">
      <header className="panel-head">
        <h2>{t('charts.title')}</h2>
        <span className="meta">
          {t('charts.meta', { t: fmtMs(p.report.sim_time_ns), j: p.report.jain_fairness_threads.toFixed(3) })}
        </span>
        <ExportButtons name="metrics" />
      </header>
      <div className="charts">
        <Shares report={p.report} />
        <LatencyChart cdfs={p.cdfs} report={p.report} />
        {p.history && <WastedChart history={p.history} durationNs={p.durationNs} />}
      </div>
    </section>
  );
});

function Shares({ report }: { report: Report }) {
  const t = useT();
  const procs = report.processes.slice(0, MAX_PROCS);
  const rowH = 22;
  const x = d3
    .scaleLinear()
    .domain([0, Math.max(0.01, d3.max(procs, (q) => q.share) ?? 0)])
    .range([0, 150]);
  return (
    <figure className="chart">
      <figcaption>{t('charts.shares')}</figcaption>
      {/* viewBox: the chart shrinks with a narrow panel; the label gives the numbers to screen readers. */}
      <svg
        width={W}
        height={Math.max(40, procs.length * rowH + 6)}
        viewBox={`0 0 ${W} ${Math.max(40, procs.length * rowH + 6)}`}
        data-testid="share-chart"
        role="img"
        aria-label={t('a11y.chartShare', {
          list: procs.map((q) => `${shownText(q.name)} ${(q.share * 100).toFixed(1)}%`).join(', '),
        })}
      >
        {procs.map((q, i) => (
          <g key={q.tgid} transform={`translate(0, ${i * rowH + 3})`} data-testid="share-bar">
            <text x={0} y={14} className="chart-label">
              {shownClip(q.name, 14)}
            </text>
            <rect x={100} y={3} width={Math.max(1, x(q.share))} height={rowH - 8} fill={procColour(i)} />
            <text x={104 + x(q.share)} y={14} className="chart-value">
              {(q.share * 100).toFixed(1)}% ·{' '}
              {q.completion_ns === null ? t('charts.running') : t('charts.done', { t: fmtMs(q.completion_ns) })}
            </text>
            <title>
              {t('charts.procTitle', {
                name: shownText(q.name),
                threads: q.threads,
                cpu: fmtMs(q.cpu_time_ns),
                wait: fmtMs(q.wait_time_ns),
                mig: q.migrations,
              })}
            </title>
          </g>
        ))}
      </svg>
      {report.processes.length > procs.length && (
        <p className="meta">{t('charts.moreProcs', { n: report.processes.length - procs.length })}</p>
      )}
    </figure>
  );
}

function LatencyChart({ cdfs, report }: { cdfs: LatencyCdf[]; report: Report }) {
  const t = useT();
  const lo = Math.max(1e3, d3.min(cdfs, (c) => c.quantiles.find((v) => v > 0) ?? 1e3) ?? 1e3);
  const hi = Math.max(lo * 10, d3.max(cdfs, (c) => c.quantiles[c.quantiles.length - 1]) ?? lo * 10);
  // Latencies span microseconds to many milliseconds: a log axis.
  const x = d3
    .scaleLog()
    .domain([lo, hi])
    .range([M.l, W - M.r])
    .clamp(true);
  const y = d3
    .scaleLinear()
    .domain([0, 1])
    .range([H - M.b, M.t]);
  const index = new Map(report.processes.map((q, i) => [q.tgid, i]));
  return (
    <figure className="chart">
      <figcaption>{t('charts.latency')}</figcaption>
      {cdfs.length === 0 ? (
        <p className="empty">{t('charts.noWakeup')}</p>
      ) : (
        <svg
          width={W}
          height={H}
          viewBox={`0 0 ${W} ${H}`}
          data-testid="latency-chart"
          role="img"
          aria-label={t('a11y.chartCdf', {
            list: cdfs
              .map(
                (c) =>
                  `${shownText(c.name)} ${fmtLatency(c.quantiles[Math.round((c.quantiles.length - 1) / 2)])} / ${fmtLatency(c.quantiles[Math.round((c.quantiles.length - 1) * 0.99)])}`,
              )
              .join(', '),
          })}
        >
          <Axes
            x={x}
            y={y}
            xTicks={DECADES.filter((d) => d >= lo && d <= hi)}
            xFmt={(v) => fmtLatency(v)}
            yFmt={(v) => `${v * 100}%`}
          />
          {cdfs.map((c) => {
            const n = c.quantiles.length - 1;
            const line = d3
              .line<number>()
              .x((v) => x(Math.max(lo, v)))
              .y((_, i) => y(i / n))
              .curve(d3.curveStepAfter);
            return (
              <path
                key={c.tgid}
                className="cdf"
                data-testid="latency-cdf"
                d={line(c.quantiles) ?? ''}
                stroke={procColour(index.get(c.tgid) ?? 0)}
              >
                <title>
                  {t('charts.cdfTitle', {
                    name: shownText(c.name),
                    n: c.samples,
                    median: fmtLatency(c.quantiles[Math.round(n / 2)]),
                    max: fmtLatency(c.quantiles[n]),
                  })}
                </title>
              </path>
            );
          })}
        </svg>
      )}
    </figure>
  );
}

function WastedChart({ history, durationNs }: { history: LoadHistory; durationNs: number }) {
  const t = useT();
  const { buckets, widthNs, wasted } = history;
  // Cumulative wasted core time (ms) at the end of each bucket: the time is
  // accounted at events, so per-bucket rates would carry accounting jitter.
  const cumulative: number[] = [];
  let sum = 0;
  for (let b = 0; b < buckets; b++) cumulative.push((sum += wasted[b]) / 1e6);
  const x = d3
    .scaleLinear()
    .domain([0, Math.max(durationNs, 1)])
    .range([M.l, W - M.r]);
  const y = d3
    .scaleLinear()
    .domain([0, Math.max(1, sum / 1e6)])
    .nice()
    .range([H - M.b, M.t]);
  const area = d3
    .area<number>()
    .x((_, i) => x((i + 1) * widthNs))
    .y0(y(0))
    .y1((c) => y(c));
  return (
    <figure className="chart">
      <figcaption>{t('charts.wasted', { t: fmtMs(sum) })}</figcaption>
      <svg
        width={W}
        height={H}
        viewBox={`0 0 ${W} ${H}`}
        data-testid="wasted-chart"
        data-total-ns={sum}
        role="img"
        aria-label={t('a11y.chartWasted', { v: fmtMs(sum) })}
      >
        <Axes x={x} y={y} xTicks={x.ticks(4)} xFmt={(v) => `${(v / 1e3 / 1e6).toFixed(1)} s`} yFmt={(v) => `${v} ms`} />
        {buckets > 0 && <path className="wasted-area" d={area(cumulative) ?? ''} />}
      </svg>
    </figure>
  );
}

type Scale = (v: number) => number;

function Axes(p: {
  x: Scale;
  y: d3.ScaleLinear<number, number>;
  xTicks: number[];
  xFmt: (v: number) => string;
  yFmt: (v: number) => string;
}) {
  return (
    <g className="axes">
      <line x1={M.l} x2={W - M.r} y1={H - M.b} y2={H - M.b} />
      <line x1={M.l} x2={M.l} y1={M.t} y2={H - M.b} />
      {p.xTicks.map((t) => (
        <text key={`x${t}`} x={p.x(t)} y={H - M.b + 14} textAnchor="middle">
          {p.xFmt(t)}
        </text>
      ))}
      {p.y.ticks(4).map((t) => (
        <text key={`y${t}`} x={M.l - 4} y={p.y(t) + 3} textAnchor="end">
          {p.yFmt(t)}
        </text>
      ))}
    </g>
  );
}

function fmtLatency(ns: number): string {
  return ns >= 1e6 ? `${(ns / 1e6).toFixed(ns >= 1e7 ? 0 : 1)} ms` : `${(ns / 1e3).toFixed(0)} µs`;
}
