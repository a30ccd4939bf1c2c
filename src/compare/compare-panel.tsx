// Compare mode: two runs on one clock (the partner is kept at the primary's
// simulated time, forward and back), their headline metrics with the
// difference, and their runqueue heatmaps side by side. Names are text nodes.
import type { MachineData } from '../stores/lab-engine';
import type { CpuPlace, LoadHistory, Report } from '../engine/types';
import { CompareTopology } from './compare-topology';
import { fmtMs } from '../views/colors';
import { Heatmaps } from '../views/heatmap';
import { useT, type Translate } from '../i18n/i18n';
import { Shown } from '../views/shown';
import { shownText } from '../views/hidden-chars';

export interface CompareProps {
  nameA: string;
  nameB: string;
  reportA: Report;
  reportB: Report;
  historyA: LoadHistory | null;
  historyB: LoadHistory | null;
  cpusA: CpuPlace[];
  cpusB: CpuPlace[];
  nowNs: number;
  durationA: number;
  durationB: number;
  onSeek: (tNs: number) => void;
  /** A's load map title when A is a real trace (no PELT there). */
  loadTitleA?: string;
  /** Both simulations and machines, for the topology views side by side. */
  machines?: { a: MachineData; b: MachineData };
}

interface Row {
  what: string;
  a: number | null;
  b: number | null;
  fmt: (v: number) => string;
}

const ms = (v: number) => `${fmtMs(v)} ms`;
const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const num = (v: number) => String(v);

function rows(a: Report, b: Report, t: Translate): Row[] {
  const out: Row[] = [
    { what: t('cmp.wasted'), a: a.wasted_core_ns, b: b.wasted_core_ns, fmt: ms },
    { what: t('cmp.violations'), a: a.sanity_violations.length, b: b.sanity_violations.length, fmt: num },
    { what: t('cmp.migrations'), a: a.migrations, b: b.migrations, fmt: num },
    { what: t('cmp.decisions'), a: a.balance_decisions, b: b.balance_decisions, fmt: num },
  ];
  // Processes matched by name: the same workload in both runs.
  for (const p of a.processes.slice(0, 6)) {
    const q = b.processes.find((x) => x.name === p.name);
    const name = shownText(p.name);
    out.push({ what: t('cmp.share', { name }), a: p.share, b: q?.share ?? null, fmt: pct });
    out.push({ what: t('cmp.completion', { name }), a: p.completion_ns, b: q?.completion_ns ?? null, fmt: ms });
    out.push({
      what: t('cmp.p99', { name }),
      a: p.wakeup_latency_ns?.[2] ?? null,
      b: q?.wakeup_latency_ns?.[2] ?? null,
      fmt: ms,
    });
  }
  return out;
}

function delta(r: Row): string {
  if (r.a === null || r.b === null) return '—';
  const d = r.b - r.a;
  const rel = r.a !== 0 ? ` (${d >= 0 ? '+' : ''}${((d / r.a) * 100).toFixed(1)}%)` : '';
  return `${d >= 0 ? '+' : '−'}${r.fmt(Math.abs(d))}${rel}`;
}

export function ComparePanel(p: CompareProps) {
  const t = useT();
  return (
    <section className="panel compare" data-testid="compare">
      <header className="panel-head">
        <h2>{t('cmp.title')}</h2>
        <span className="meta">
          A:{' '}
          <b>
            <Shown text={p.nameA} />
          </b>{' '}
          · B:{' '}
          <b>
            <Shown text={p.nameB} />
          </b>{' '}
          · {t('cmp.meta', { t: fmtMs(p.nowNs) })}
        </span>
      </header>
      {/* Focusable: on a narrow screen the table scrolls sideways (layout.css), and arrow keys scroll it. */}
      <table className="lb-groups compare-table" data-testid="compare-table" tabIndex={0}>
        <thead>
          <tr>
            <th>{t('cmp.metric')}</th>
            <th>A</th>
            <th>B</th>
            <th>B − A</th>
          </tr>
        </thead>
        <tbody>
          {rows(p.reportA, p.reportB, t).map((r, i) => (
            <tr key={i} data-testid="compare-row">
              <td>{r.what}</td>
              <td>{r.a === null ? '—' : r.fmt(r.a)}</td>
              <td>{r.b === null ? '—' : r.fmt(r.b)}</td>
              <td>{delta(r)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {p.machines && <CompareTopology {...p.machines} nameA={p.nameA} nameB={p.nameB} />}
      <div className="compare-maps">
        <div>
          <h3>
            A: <Shown text={p.nameA} />
          </h3>
          {p.historyA && (
            <Heatmaps
              history={p.historyA}
              cpus={p.cpusA}
              nowNs={p.nowNs}
              durationNs={p.durationA}
              violations={p.reportA.sanity_violations}
              onSeek={p.onSeek}
              loadTitle={p.loadTitleA}
            />
          )}
        </div>
        <div data-testid="compare-b">
          <h3>
            B: <Shown text={p.nameB} />
          </h3>
          {p.historyB && (
            <Heatmaps
              history={p.historyB}
              cpus={p.cpusB}
              nowNs={p.nowNs}
              durationNs={p.durationB}
              violations={p.reportB.sanity_violations}
              onSeek={p.onSeek}
            />
          )}
        </div>
      </div>
    </section>
  );
}
