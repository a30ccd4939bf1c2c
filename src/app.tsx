// The lab: one simulation, stepped or played, and the views of its state at
// the cursor. The UI never changes simulation state except through the
// engine's commands (step, run, reset by re-creating).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Simulation, listPresets, presetJson } from './engine/engine';
import type { PresetInfo, SimView } from './engine/types';
import { applyStep } from './engine/commands';
import { Controls } from './views/controls';
import { HelpOverlay } from './views/help-overlay';
import type { Command } from './views/shortcuts';
import { EventLog } from './views/event-log';
import { GanttView } from './views/gantt-view';
import { Heatmaps } from './views/heatmap';
import { Inspector } from './views/inspector';
import { MetricsStrip } from './views/metrics-strip';
import { RbTreeView } from './views/rbtree-view';
import { TaskTable } from './views/task-table';
import { latestFocus } from './views/topology/focus';
import { TopologyView, type ColourBy } from './views/topology/topology-view';

const DEFAULT_PRESET = 'cfs-nice-levels';
const GANTT_WINDOW_NS = 200e6;
/** Migrations younger than this (simulated time) are drawn as arrows. */
const ARROW_WINDOW_NS = 20e6;
const MAX_ARROWS = 32;

interface ScenarioMeta {
  name: string;
  description: string;
}

export function App() {
  const [presets] = useState<PresetInfo[]>(() => listPresets());
  const [scenarioJson, setScenarioJson] = useState<string>(() => presetJson(DEFAULT_PRESET));
  const [meta, setMeta] = useState<ScenarioMeta>({ name: DEFAULT_PRESET, description: '' });
  const simRef = useRef<Simulation | null>(null);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(0.1);
  const [cpuSel, setCpuSel] = useState(0);
  const [colourBy, setColourBy] = useState<ColourBy>('nr_running');
  const bump = () => setVersion((v) => v + 1);

  /** Replaces the simulation; an invalid scenario leaves the old one running. */
  const load = useCallback((json: string): boolean => {
    try {
      const next = new Simulation(json);
      simRef.current?.dispose();
      simRef.current = next;
      const parsed = JSON.parse(json) as Partial<ScenarioMeta>;
      setMeta({ name: String(parsed.name ?? ''), description: String(parsed.description ?? '') });
      setScenarioJson(json);
      setError(null);
      setPlaying(false);
      setCpuSel(0);
      bump();
      return true;
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
      return false;
    }
  }, []);

  useEffect(() => {
    load(scenarioJson);
    // Load once on mount; later loads go through the controls.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const sim = simRef.current;
  const [notice, setNotice] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const stepEvent = useCallback(() => {
    simRef.current?.stepEvent();
    bump();
  }, []);
  const reset = useCallback(() => load(scenarioJson), [load, scenarioJson]);
  const command = useCallback(
    (c: Command) => {
      if (c === 'play') setPlaying((p) => !p);
      else if (c === 'reset') reset();
      else if (c === 'help') setHelp((h) => !h);
      else {
        const s = simRef.current;
        if (!s) return;
        setPlaying(false);
        setNotice(applyStep(s, c));
        bump();
      }
    },
    [reset],
  );
  /** Jumps to a time, forward or back (exact rewind), e.g. from a timeline click. */
  const seekTime = useCallback((tNs: number) => {
    const s = simRef.current;
    if (!s) return;
    setPlaying(false);
    s.seekTime(Math.max(0, Math.min(tNs, s.durationNs)));
    setNotice(null);
    bump();
  }, []);

  // The single frame loop: advance simulated time by wall time × speed.
  useEffect(() => {
    if (!playing) return;
    let raf = 0;
    let last = performance.now();
    const frame = (ts: number) => {
      const s = simRef.current;
      if (!s) return;
      const dtMs = Math.min(100, ts - last);
      last = ts;
      s.runUntil(s.nowNs + dtMs * 1e6 * speed);
      bump();
      if (s.finished) {
        setPlaying(false);
        return;
      }
      raf = requestAnimationFrame(frame);
    };
    raf = requestAnimationFrame(frame);
    return () => cancelAnimationFrame(raf);
  }, [playing, speed]);

  const view: SimView | null = sim ? sim.view() : null;
  const hasView = view !== null;
  useEffect(() => {
    // Marks the first render with controls and views for npm run bench:ui.
    if (hasView && performance.getEntriesByName('schedlab-interactive').length === 0) performance.mark('schedlab-interactive');
  }, [hasView]);
  useEffect(() => {
    // A documented test hook: browser tests read the engine's view directly.
    (window as unknown as { __schedlab: unknown }).__schedlab = {
      view: () => simRef.current?.view() ?? null,
      stepEvent,
      loadScenarioJson: load,
      runUntil: (ns: number) => {
        simRef.current?.runUntil(ns);
        bump();
      },
      seekEvent: (n: number) => {
        simRef.current?.seekEvent(n);
        bump();
      },
      seekTime,
      migrations: (sinceNs: number, n: number) => simRef.current?.migrations(sinceNs, n) ?? [],
      placements: (n: number) => simRef.current?.placements(n) ?? [],
      decisions: (n: number) => simRef.current?.decisions(n, true) ?? [],
      traceHash: () => simRef.current?.traceHash() ?? '',
    };
  }, [stepEvent, load, seekTime]);

  // The report sorts every latency sample: while playing, refresh it once per
  // 20 simulated ms rather than every frame.
  const reportKey = playing ? Math.floor((view?.now_ns ?? 0) / 20e6) : version;
  const report = useMemo(() => simRef.current?.report() ?? null, [reportKey]); // eslint-disable-line react-hooks/exhaustive-deps
  // The history is copied out of wasm only when it gained buckets (while
  // playing, every 16 buckets at most).
  const hKey = sim ? sim.historyKey() : '';
  const heatKey = playing ? hKey.replace(/^(\d+)/, (n) => String(Math.floor(Number(n) / 16))) : hKey;
  const history = useMemo(() => simRef.current?.history() ?? null, [heatKey, meta]); // eslint-disable-line react-hooks/exhaustive-deps
  const topo = useMemo(() => simRef.current?.topology() ?? null, [meta]); // eslint-disable-line react-hooks/exhaustive-deps
  const nameOf = (pid: number) => view?.tasks[pid]?.name ?? `pid ${pid}`;
  const cpu = view?.cpus[Math.min(cpuSel, (view?.cpus.length ?? 1) - 1)];
  const now = view?.now_ns ?? 0;
  const t0 = Math.max(0, now - GANTT_WINDOW_NS);
  const slices = sim ? sim.slices(t0, now) : [];

  return (
    <div className="app" data-version={version}>
      <header className="top">
        <h1>schedlab</h1>
        <div className="scenario-pick">
          <select
            aria-label="preset"
            value={presets.some((p) => p.name === meta.name) ? meta.name : ''}
            onChange={(e) => load(presetJson(e.target.value))}
          >
            {!presets.some((p) => p.name === meta.name) && <option value="">custom scenario</option>}
            {presets.map((p) => (
              <option key={p.name} value={p.name}>
                {p.title}
              </option>
            ))}
          </select>
          <label className="file">
            Open scenario…
            <input
              type="file"
              accept="application/json,.json"
              onChange={(e) => {
                const f = e.target.files?.[0];
                if (f) void f.text().then(load);
              }}
            />
          </label>
        </div>
      </header>
      <p className="description">
        <b>{meta.name}</b> — {meta.description}
      </p>
      {error !== null && (
        <div className="error" data-testid="error" role="alert">
          <b>This scenario cannot run:</b>
          <pre>{error}</pre>
        </div>
      )}
      {view && sim && cpu && (
        <>
          <Controls
            nowNs={view.now_ns}
            durationNs={sim.durationNs}
            events={view.events}
            playing={playing}
            finished={view.finished}
            speed={speed}
            notice={notice}
            onCommand={command}
            onSpeed={setSpeed}
          />
          {help && <HelpOverlay onClose={() => setHelp(false)} />}
          {report && <MetricsStrip report={report} />}
          {view.cpus.length > 1 && (
            <label className="cpu-pick">
              runqueue of CPU{' '}
              <select value={cpu.cpu} onChange={(e) => setCpuSel(Number(e.target.value))}>
                {view.cpus.map((c) => (
                  <option key={c.cpu} value={c.cpu}>
                    {c.cpu} ({c.nr_running} runnable)
                  </option>
                ))}
              </select>
            </label>
          )}
          <TopologyView
            topo={topo ?? sim.topology()}
            cpus={view.cpus}
            nameOf={nameOf}
            colourBy={colourBy}
            onColourBy={setColourBy}
            migrations={sim.migrations(Math.max(0, now - ARROW_WINDOW_NS), MAX_ARROWS)}
            nowNs={now}
            arrowWindowNs={ARROW_WINDOW_NS}
            focus={latestFocus(sim.placements(1)[0], sim.decisions(1, true)[0])}
            selected={cpu.cpu}
            onSelect={setCpuSel}
          />
          <div className="grid">
            <RbTreeView cpu={cpu} currName={cpu.curr === null ? null : nameOf(cpu.curr)} rotations={view.rotations} nameOf={nameOf} />
            <EventLog events={sim.recentEvents(14)} />
          </div>
          {view.cpus.length > 1 && <Inspector decision={sim.decisions(1, true)[0] ?? null} nameOf={nameOf} />}
          <GanttView slices={slices} nrCpus={view.cpus.length} t0Ns={t0} t1Ns={Math.max(now, t0 + GANTT_WINDOW_NS)} nameOf={nameOf} onSeek={seekTime} />
          {history && (
            <Heatmaps history={history} cpus={(topo ?? sim.topology()).cpus} nowNs={now} violations={report?.sanity_violations ?? []} onSeek={seekTime} />
          )}
          <TaskTable tasks={view.tasks} />
        </>
      )}
    </div>
  );
}
