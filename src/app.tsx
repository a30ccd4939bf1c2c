// The lab: one simulation, stepped or played, and the views of its state at
// the cursor. The UI never changes simulation state except through the
// engine's commands (step, run, reset by re-creating).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Simulation, listPresets, presetJson } from './engine/engine';
import type { Mark, PresetInfo, SimView } from './engine/types';
import { applyStep, backwardMark, forwardMark, markWords } from './engine/commands';
import { LongRun, backJob, timeJob, type Job, type Progress } from './engine/long-run';
import { fmtMs } from './views/colors';
import { ProgressBar } from './views/progress-bar';
import { ComparePanel } from './compare/compare-panel';
import { usePartner } from './compare/use-partner';
import { parsePartner, partnerLabel, partnerValue, type PartnerKind } from './compare/variants';
import { Controls } from './views/controls';
import { HelpOverlay } from './views/help-overlay';
import type { Command } from './views/shortcuts';
import { MetricsStrip } from './views/metrics-strip';
import { LabPanels } from './lab-panels';
import { MAX_ROWS, PLAYING_ROWS } from './views/task-table';
import { RunExports } from './views/export/run-exports';
import type { ColourBy } from './views/topology/topology-view';
import { LANGS, isLang, useLang, useT } from './i18n/i18n';
import { ClassroomBar } from './classroom/classroom-bar';
import { LessonRunner, type LessonMarks } from './classroom/lesson-runner';
import { lessonById } from './classroom/lessons';
import { presetAt } from './classroom/lesson';
import { useShare } from './share/use-share';
import { ShareBar } from './share/share-bar';
import { LinkProblem } from './share/link-problem';
import { LibraryPanel } from './library/library-panel';
import { PRESET_NOTES } from './library/preset-notes';
import { ScenarioEditor } from './editor/scenario-editor';
import { JsonFileButton } from './views/json-file-button';

const DEFAULT_PRESET = 'cfs-nice-levels';
const SLOW_MS = 250;

interface ScenarioMeta {
  name: string;
  description: string;
}

export function App() {
  const [presets] = useState<PresetInfo[]>(() => listPresets());
  const [scenarioJson, setScenarioJson] = useState<string>(() => presetJson(DEFAULT_PRESET));
  const scenarioRef = useRef(scenarioJson);
  const runRef = useRef<LongRun | null>(null);
  const [meta, setMeta] = useState<ScenarioMeta>({ name: DEFAULT_PRESET, description: '' });
  const simRef = useRef<Simulation | null>(null);
  const [version, setVersion] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [playing, setPlaying] = useState(false);
  const [speed, setSpeed] = useState(0.1);
  const [cpuSel, setCpuSel] = useState(0);
  const [colourBy, setColourBy] = useState<ColourBy>('nr_running');
  const partner = usePartner();
  const t = useT();
  const [lang, setLang] = useLang();
  /** A preset's title in the interface language (the library's), else the engine's. */
  // The library's note describes a built-in preset as shipped (own property
  // only: a scenario may be named "constructor"), not an edited copy of it.
  const builtInNote = useMemo(
    () => (Object.hasOwn(PRESET_NOTES, meta.name) && presets.some((p) => p.name === meta.name) && presetJson(meta.name) === scenarioJson ? PRESET_NOTES[meta.name] : null),
    [meta.name, scenarioJson, presets],
  );
  useEffect(() => {
    const l = lessonRef.current;
    if (!l) return;
    const def = lessonById(l.id);
    if (!def || presetAt(def, Math.min(l.step, def.steps.length - 1)) !== meta.name) setLesson(null);
  }, [meta.name]);
  const presetTitle = (p: PresetInfo) => (Object.hasOwn(PRESET_NOTES, p.name) ? PRESET_NOTES[p.name].title[lang] : p.title);
  const [lesson, setLesson] = useState<{ id: string; step: number } | null>(null);
  const [lessonMarks, setLessonMarks] = useState<LessonMarks | null>(null);
  // Loading a scenario other than the lesson step's (preset pick, library,
  // file, editor, link) leaves the lesson; the lesson's own loads match it.
  const lessonRef = useRef(lesson);
  lessonRef.current = lesson;
  /** Every state change goes through here: it also keeps the compare partner on the clock. */
  const bump = () => {
    const s = simRef.current;
    if (s) partner.sync(s.nowNs);
    setVersion((v) => v + 1);
  };

  /** Replaces the simulation; an invalid scenario leaves the old one running. */
  const load = useCallback((json: string): boolean => {
    try {
      const next = new Simulation(json);
      runRef.current?.cancel();
      runRef.current = null;
      simRef.current?.dispose();
      simRef.current = next;
      const parsed = JSON.parse(json) as Partial<ScenarioMeta>;
      setMeta({ name: String(parsed.name ?? ''), description: String(parsed.description ?? '') });
      setScenarioJson(json);
      scenarioRef.current = json;
      setError(null);
      setPlaying(false);
      setCpuSel(0);
      if (partner.kindRef.current) partner.build(partner.kindRef.current, json);
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
  const [editing, setEditing] = useState(false);
  // While playing, the costly refreshes (report, task list, heatmap history)
  // happen about every SLOW_MS of wall time instead of every frame, each on
  // its own frame, a third of the period apart: [report, tasks, history].
  const [slow, setSlow] = useState<[number, number, number]>([0, 0, 0]);
  // When each of the three last refreshed (wall ms): one schedule for play and long runs.
  const lastSlowRef = useRef<number[]>([0, 0, 0]);
  /** Staggers the three slow refreshes a third of SLOW_MS apart, from `now`. */
  const staggerSlow = (now: number) => {
    lastSlowRef.current = [0, 1, 2].map((i) => now - (i * SLOW_MS) / 3);
  };
  /** At most one slow refresh per call: the first that is due. */
  const slowTick = useCallback((ts: number) => {
    const last = lastSlowRef.current;
    const due = last.findIndex((t) => ts - t >= SLOW_MS);
    if (due < 0) return;
    last[due] = ts;
    setSlow((k) => k.map((n, i) => (i === due ? n + 1 : n)) as [number, number, number]);
  }, []);
  const stepEvent = useCallback(() => {
    simRef.current?.stepEvent();
    bump();
  }, []);
  const reset = useCallback(() => load(scenarioJson), [load, scenarioJson]);
  // A long run in slices (next mark, jump forward); any other command stops it.
  const [progress, setProgress] = useState<Progress | null>(null);
  const stopLong = useCallback(() => {
    runRef.current?.cancel();
    runRef.current = null;
  }, []);
  const startLong = useCallback(
    (job: Job, done: () => string | null) => {
      stopLong();
      setPlaying(false);
      staggerSlow(performance.now());
      const run = new LongRun(
        job,
        (p) => {
          setProgress(p);
          // The slow refreshes (report, tasks, history) in turn, as while playing.
          slowTick(performance.now());
          bump();
        },
        () => {
          if (runRef.current === run) runRef.current = null;
          setNotice(done());
          bump();
        },
      );
      runRef.current = run;
      run.start();
    },
    [stopLong, slowTick],
  );
  const cancelLong = useCallback(() => {
    const s = simRef.current;
    stopLong();
    if (s) setNotice(t('notice.cancelled', { t: fmtMs(s.nowNs) }));
    bump();
  }, [stopLong, t]);

  const command = useCallback(
    (c: Command) => {
      if (c === 'help') return setHelp((h) => !h);
      stopLong();
      if (c === 'play') setPlaying((p) => !p);
      else if (c === 'reset') reset();
      else {
        const s = simRef.current;
        if (!s) return;
        setPlaying(false);
        const m = forwardMark(c);
        if (m) {
          let found = false;
          const job = timeJob(s, t('notice.searching', { what: markWords(t, m) }), s.durationNs, (until) => {
            const r = s.stepMarkUntil(m, until);
            found = r === 1;
            return r !== -1;
          });
          startLong(job, () => (found ? null : t('notice.noFurther', { what: markWords(t, m) })));
          return;
        }
        const b = backwardMark(c);
        if (b) {
          let found = false;
          const job = backJob(
            s,
            t('notice.searchingBack', { what: markWords(t, b) }),
            b,
            (f) => {
              found = f;
            },
            t,
          );
          startLong(job, () => (found ? null : t('notice.noEarlier', { what: markWords(t, b) })));
          return;
        }
        setNotice(applyStep(s, c, t));
        bump();
      }
    },
    [reset, stopLong, startLong, t],
  );
  /** Goes to a time at once (back: snapshot + replay; forward: one engine call). */
  const seekTimeNow = useCallback((tNs: number) => {
    const s = simRef.current;
    if (!s) return;
    setPlaying(false);
    s.seekTime(Math.max(0, Math.min(tNs, s.durationNs)));
    setNotice(null);
    bump();
  }, []);
  /** Jumps to a clicked time: back exactly at once, forward in slices with progress. */
  const seekTime = useCallback(
    (tNs: number) => {
      const s = simRef.current;
      if (!s) return;
      stopLong();
      const to = Math.max(0, Math.min(tNs, s.durationNs));
      if (to <= s.nowNs) return seekTimeNow(to);
      setNotice(null);
      const job = timeJob(s, t('notice.runningTo', { t: fmtMs(to) }), to, (until) => {
        s.runUntil(until);
        return false;
      });
      startLong(job, () => null);
    },
    [stopLong, startLong, seekTimeNow, t],
  );

  /** A lesson step moves the cursor: paused, any long run stopped, then one refresh. */
  const drive = useCallback(
    (f: (s: Simulation) => void) => {
      const s = simRef.current;
      if (!s) return;
      stopLong();
      setPlaying(false);
      f(s);
      setNotice(null);
      bump();
    },
    [stopLong],
  );

  // The single frame loop: advance simulated time by wall time × speed.
  useEffect(() => {
    if (!playing) return;
    let raf = 0;
    let last = performance.now();
    staggerSlow(last);
    const frame = (ts: number) => {
      const s = simRef.current;
      if (!s) return;
      const dtMs = Math.min(100, ts - last);
      last = ts;
      slowTick(ts);
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
  }, [playing, speed]); // eslint-disable-line react-hooks/exhaustive-deps

  // Per frame only the light view: the selected CPU's trees, no task list.
  const view: SimView | null = sim ? sim.frame(cpuSel) : null;
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
      seekTime: seekTimeNow,
      stepMarkNow: (m: Mark) => {
        const found = simRef.current?.stepMark(m, true) ?? false;
        bump();
        return found;
      },
      scenarioJson: () => scenarioRef.current,
      migrations: (sinceNs: number, n: number) => simRef.current?.migrations(sinceNs, n) ?? [],
      placements: (n: number) => simRef.current?.placements(n) ?? [],
      decisions: (n: number) => simRef.current?.decisions(n, true) ?? [],
      traceHash: () => simRef.current?.traceHash() ?? '',
      partner: () => {
        const p = partner.simRef.current;
        return p ? { nowNs: p.nowNs, traceHash: p.traceHash(), report: p.report() } : null;
      },
      report: () => simRef.current?.report() ?? null,
      latencyCdfs: (n: number) => simRef.current?.latencyCdfs(n) ?? [],
    };
  }, [stepEvent, load, seekTimeNow]);

  // The report sorts every latency sample and the task table has hundreds of
  // rows: while playing, both refresh on the slow tick rather than every frame.
  // A long run (jump, search) refreshes like playing: its progress bumps the
  // version every slice, and a 256-CPU view cannot all redraw that often.
  const busy = playing || progress !== null;
  const slowKey = (i: number) => (busy ? `p${slow[i]}` : `v${version}`);
  const report = useMemo(() => simRef.current?.report() ?? null, [slowKey(0)]); // eslint-disable-line react-hooks/exhaustive-deps
  const cdfs = useMemo(() => simRef.current?.latencyCdfs(40) ?? [], [slowKey(0)]); // eslint-disable-line react-hooks/exhaustive-deps
  // Only the rows the table shows cross from wasm (10,000-thread runs).
  const tasks = useMemo(() => simRef.current?.listedTasks(busy ? PLAYING_ROWS : MAX_ROWS) ?? { rows: [], total: 0 }, [slowKey(1), busy]); // eslint-disable-line react-hooks/exhaustive-deps
  const violations = useMemo(() => report?.sanity_violations ?? [], [report]);
  // The history is copied out of wasm only when it gained buckets, and while
  // playing at most on the slow tick.
  const hKey = sim ? sim.historyKey() : '';
  const history = useMemo(() => simRef.current?.history() ?? null, [busy ? `p${slow[2]}` : hKey, meta]); // eslint-disable-line react-hooks/exhaustive-deps
  const topo = useMemo(() => simRef.current?.topology() ?? null, [meta]); // eslint-disable-line react-hooks/exhaustive-deps
  const pSim = partner.simRef.current;
  const pKey = `${partner.name}:${partnerValue(partner.kind)}:${pSim ? 'on' : 'off'}:${partner.builds}`;
  const partnerReport = useMemo(() => pSim?.report() ?? null, [slowKey(0), pKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const partnerHistory = useMemo(() => pSim?.history() ?? null, [busy ? `p${slow[2]}` : (pSim?.historyKey() ?? ''), pKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const partnerTopo = useMemo(() => pSim?.topology() ?? null, [pKey]); // eslint-disable-line react-hooks/exhaustive-deps
  const choosePartner = (k: PartnerKind | null) => {
    partner.build(k, scenarioRef.current);
    bump();
  };
  const share = useShare({
    simRef, scenarioRef, load, defaultScenario: () => presetJson(DEFAULT_PRESET), cpu: cpuSel, setCpu: setCpuSel, colourBy, setColourBy,
    partner: partner.kind, choosePartner, startLong, bump, lesson, setLesson,
    stop: () => {
      stopLong();
      setPlaying(false);
    },
  });
  const [library, setLibrary] = useState(false);
  const cpu = view?.cpus[Math.min(cpuSel, (view?.cpus.length ?? 1) - 1)];

  return (
    <div className={playing ? 'app playing' : 'app'} data-version={version} data-lesson-panel={(lesson && lessonMarks?.panel) || undefined}>
      <header className="top">
        {/* Row 1: what runs (scenario, partner, library, editor, file); row 2: how it is shown (lesson, share, language). */}
        <div className="top-row">
        <h1>schedlab</h1>
        <div className="scenario-pick">
          <select
            aria-label="preset"
            value={presets.some((p) => p.name === meta.name) ? meta.name : ''}
            onChange={(e) => load(presetJson(e.target.value))}
          >
            {!presets.some((p) => p.name === meta.name) && <option value="">{t('app.customScenario')}</option>}
            {presets.map((p) => (
              <option key={p.name} value={p.name}>
                {presetTitle(p)}
              </option>
            ))}
          </select>
          <label className="compare-pick">
            {t('app.compareWith')}{' '}
            <select aria-label="compare with" data-testid="compare-pick" value={partnerValue(partner.kind)} onChange={(e) => choosePartner(parsePartner(e.target.value))}>
              <option value="">{t('app.compareNothing')}</option>
              {(['bugs:linux-4.1-fixed', 'bugs:linux-4.1'] as const).map((v) => (
                <option key={v} value={v}>
                  {partnerLabel(parsePartner(v) as PartnerKind, presets, t)}
                </option>
              ))}
              {presets.map((p) => (
                <option key={p.name} value={`preset:${p.name}`}>
                  {presetTitle(p)}
                </option>
              ))}
            </select>
          </label>
          <button type="button" className="file" data-testid="open-editor" onClick={() => setEditing(true)}>
            {t('editor.open')}
          </button>
          <JsonFileButton label={t('app.openScenario')} onFile={(f) => void f.text().then(load)} />
        </div>
        <button className="library-button" data-testid="library-button" onClick={() => setLibrary(true)}>
          {t('lib.button')}
        </button>
        </div>
        <div className="top-row">
        <ClassroomBar lesson={lesson} setLesson={setLesson} />
        <ShareBar made={share.made} onShare={share.makeLink} />
        <label className="lang-pick">
          {t('app.language')}{' '}
          <select aria-label="language" data-testid="lang-pick" value={lang} onChange={(e) => isLang(e.target.value) && setLang(e.target.value)}>
            {LANGS.map((l) => (
              <option key={l} value={l}>
                {l === 'en' ? 'English' : '中文'}
              </option>
            ))}
          </select>
        </label>
        </div>
      </header>
      {editing && <ScenarioEditor initialText={scenarioJson} onApply={load} onClose={() => setEditing(false)} />}
      <p className="description">
        {/* A built-in preset is described in the interface language by the library's note; other scenarios by their own text. */}
        <b>{meta.name}</b> — {builtInNote && lang !== 'en' ? builtInNote.text[lang] : meta.description}
      </p>
      {share.openProblem && <LinkProblem problem={share.openProblem} onDismiss={share.dismissProblem} />}
      {library && (
        <LibraryPanel presets={presets} current={meta.name} onOpen={(name) => {
            load(presetJson(name));
            setLibrary(false);
          }} onClose={() => setLibrary(false)} />
      )}
      {error !== null && (
        <div className="error" data-testid="error" role="alert">
          <b>{t('app.cannotRun')}</b>
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
          {progress && <ProgressBar progress={progress} onCancel={cancelLong} />}
          {help && <HelpOverlay onClose={() => setHelp(false)} />}
          {lesson && (
            <LessonRunner
              lesson={lesson}
              setLesson={setLesson}
              current={meta.name}
              loadPreset={(name) => load(presetJson(name))}
              drive={drive}
              onMarks={setLessonMarks}
              onSelectCpu={setCpuSel}
            />
          )}
          {report && <MetricsStrip report={report} />}
          <RunExports sim={sim} scenarioName={meta.name} />
          {partner.error !== null && (
            <div className="error" data-testid="compare-error" role="alert">
              <b>{t('app.partnerCannotRun')}</b>
              <pre>{partner.error}</pre>
            </div>
          )}
          {report && partnerReport && pSim && partnerTopo && topo && (
            <ComparePanel
              nameA={meta.name}
              nameB={partner.name}
              reportA={report}
              reportB={partnerReport}
              historyA={history}
              historyB={partnerHistory}
              cpusA={topo.cpus}
              cpusB={partnerTopo.cpus}
              nowNs={view.now_ns}
              durationA={sim.durationNs}
              durationB={pSim.durationNs}
              onSeek={seekTime}
              machines={{ simA: sim, simB: pSim, topoA: topo, topoB: partnerTopo }}
            />
          )}
          <LabPanels
            sim={sim}
            view={view}
            cpu={cpu}
            topo={topo ?? sim.topology()}
            version={version}
            playing={busy}
            colourBy={colourBy}
            onColourBy={setColourBy}
            onSelectCpu={setCpuSel}
            onSeek={seekTime}
            history={history}
            violations={violations}
            tasks={tasks}
            report={report}
            cdfs={cdfs}
            lessonCpus={lesson ? lessonMarks?.cpus : undefined}
          />
        </>
      )}
    </div>
  );
}
