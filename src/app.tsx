// The lab: one simulation, stepped or played, and the views of its state at
// the cursor. The simulation lives in the engine worker; the UI never changes
// its state except through the engine's commands (step, run, reset by
// re-creating), and draws the frames the worker reads after each of them.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLatest } from './stores/use-latest';
import { listPresets, presetJson } from './engine/engine';
import type { Mark, PresetInfo } from './engine/types';
import { RunNotes } from './views/run-notes';
import { stagePanel, useBringIntoView, useStageTop, useStageZoom } from './classroom/stage';
import { backwardMark, forwardMark, markWords, stepCommand } from './views/commands';
import type { EngineClient } from './engine/client';
import type { GanttWindow } from './engine/frame';
import type { JobProgress, JobSpec } from './engine/jobs';
import type { Command as EngineCommand, Read } from './engine/protocol';
import { useLabEngine, usePlayLoop } from './stores/use-lab-engine';
import type { Anchor } from './classroom/lesson';
import type { Prediction, Question } from './classroom/predict';
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
import { ClippedText } from './views/clipped-text';
import { MAX_SCENARIO_BYTES, mebibytes, readScenarioFile, ScenarioFileTooBig } from './views/scenario-file';
import { traceLimit } from './engine/real-run';
import { FileDrop, TraceOpenButton } from './trace/trace-open';
import { OnlySimulations, TraceBanner, TraceShareNote, type OpenTrace } from './trace/trace-banner';
import { callOp, extCommand } from './engine/extensions';
import { ANCHOR, PREDICT } from './classroom/engine-keys';

const DEFAULT_PRESET = 'cfs-nice-levels';
const GANTT_WINDOW_NS = 200e6;

interface ScenarioMeta {
  name: string;
  description: string;
}

export function App({ client }: { client: EngineClient }) {
  const [presets] = useState<PresetInfo[]>(() => listPresets());
  const [scenarioJson, setScenarioJson] = useState<string>(() => presetJson(DEFAULT_PRESET));
  const scenarioRef = useRef(scenarioJson);
  const [meta, setMeta] = useState<ScenarioMeta>({ name: DEFAULT_PRESET, description: '' });
  const [error, setError] = useState<string | null>(null);
  const [speed, setSpeed] = useState(0.1);
  const [cpuSel, setCpuSel] = useState(0);
  const [gantt, setGantt] = useState<GanttWindow>({ spanNs: GANTT_WINDOW_NS, endNs: null });
  const [colourBy, setColourBy] = useState<ColourBy>('nr_running');
  const t = useT();
  const [lang, setLang] = useLang();
  const formatDetail = useCallback(
    (p: JobProgress, spec: JobSpec) =>
      spec.kind === 'prev-mark'
        ? t('progress.searchedBack', { at: p.at, of: p.of })
        : p.unit === 'events'
          ? `${p.at} / ${p.of}`
          : `${(p.at / 1e6).toFixed(3)} / ${(p.of / 1e6).toFixed(3)} ms`,
    [t],
  );
  const engine = useLabEngine(client, { cpu: cpuSel, gantt }, formatDetail);
  const { playing, setPlaying, progress, version, api } = engine;
  const play = usePlayLoop(engine, speed);
  const partner = usePartner(engine);
  const { kindRef: partnerKindRef, build: buildPartner } = partner;
  const { dataRef } = engine.api;
  /** A preset's title in the interface language (the library's), else the engine's. */
  // The library's note describes a built-in preset as shipped (own property
  // only: a scenario may be named "constructor"), not an edited copy of it.
  const builtInNote = useMemo(
    () =>
      Object.hasOwn(PRESET_NOTES, meta.name) &&
      presets.some((p) => p.name === meta.name) &&
      presetJson(meta.name) === scenarioJson
        ? PRESET_NOTES[meta.name]
        : null,
    [meta.name, scenarioJson, presets],
  );
  const [lesson, setLesson] = useState<{ id: string; step: number } | null>(null);
  const [lessonMarks, setLessonMarks] = useState<LessonMarks | null>(null);
  // Loading a scenario other than the lesson step's (preset pick, library,
  // file, editor, link) leaves the lesson; the lesson's own loads match it.
  const lessonRef = useLatest(lesson);
  useEffect(() => {
    const l = lessonRef.current;
    if (!l) return;
    const def = lessonById(l.id);
    if (!def || presetAt(def, Math.min(l.step, def.steps.length - 1)) !== meta.name) setLesson(null);
  }, [meta.name, lessonRef]);
  const presetTitle = (p: PresetInfo) =>
    Object.hasOwn(PRESET_NOTES, p.name) ? PRESET_NOTES[p.name].title[lang] : p.title;
  useStageTop(lesson !== null);
  useStageZoom(lesson !== null);
  useBringIntoView(lesson ? lessonMarks?.panel : null, lesson ? `${lesson.id}:${lesson.step}` : '');
  /** The real trace the lab shows instead of a simulation, if any. */
  const [trace, setTrace] = useState<OpenTrace | null>(null);
  /** The trace file being read and parsed in the worker (a large one takes seconds). */
  const [reading, setReading] = useState<string | null>(null);
  const traceRef = useLatest(trace);

  /** Replaces the simulation; the engine's message if it refused the scenario (the old one then keeps running). */
  const tryLoad = useCallback(
    async (json: string): Promise<string | null> => {
      try {
        await api.load(json);
      } catch (e) {
        return e instanceof Error ? e.message : String(e);
      }
      const parsed = JSON.parse(json) as Partial<ScenarioMeta>;
      setMeta({ name: String(parsed.name ?? ''), description: String(parsed.description ?? '') });
      setScenarioJson(json);
      scenarioRef.current = json;
      setTrace(null);
      setError(null);
      setCpuSel(0);
      // "The lab's scenario, simulated" is a partner for a real trace only: beside the simulation itself it goes.
      const k = partnerKindRef.current;
      if (k) await buildPartner(k.kind === 'scenario' ? null : k, json);
      return null;
    },
    [api, partnerKindRef, buildPartner],
  );
  /** As tryLoad, showing the engine's message; true if loaded. */
  const load = useCallback(
    async (json: string): Promise<boolean> => {
      const problem = await tryLoad(json);
      if (problem !== null) setError(problem);
      return problem === null;
    },
    [tryLoad],
  );

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- the first load; it sets state only once the worker answered
    void load(scenarioJson);
  }, []); // eslint-disable-line react-hooks/exhaustive-deps -- once on mount; later loads go through the controls
  // A new CPU to show or a new lanes' window: the same state read again.
  const shown = useRef({ cpuSel, gantt });
  useEffect(() => {
    if (shown.current.cpuSel === cpuSel && shown.current.gantt === gantt) return;
    shown.current = { cpuSel, gantt };
    if (api.dataRef.current) void api.refresh();
  }, [cpuSel, gantt, api]);

  const data = api.dataRef.current;
  const [notice, setNotice] = useState<string | null>(null);
  const [help, setHelp] = useState(false);
  const [editing, setEditing] = useState(false);
  // A reset during a lesson puts the run back at the step's anchor once reloaded (the step's words describe it).
  const [resets, setResets] = useState(0);
  const reset = useCallback(() => void load(scenarioRef.current).then((ok) => ok && setResets((n) => n + 1)), [load]);
  const cancelLong = useCallback(() => {
    void api.cancel().then(() => setNotice(t('notice.cancelled', { t: fmtMs(api.dataRef.current?.frame.nowNs ?? 0) })));
  }, [api, t]);
  /** A scenario file from the header's picker: one larger than a scenario may be is refused by its size, unread. */
  const openFile = (f: File) =>
    void readScenarioFile(f).then(load, (e: unknown) =>
      setError(
        e instanceof ScenarioFileTooBig
          ? t('app.fileTooBig', { file: f.name, size: mebibytes(e.bytes), max: mebibytes(MAX_SCENARIO_BYTES) })
          : String(e),
      ),
    );
  /** A real trace from the picker or a drop: refused by its size unread, else streamed and parsed in the worker. */
  const openTrace = useCallback(
    (f: File) => {
      const max = traceLimit();
      if (f.size > max)
        return setError(t('trace.tooBig', { file: f.name, size: mebibytes(f.size), max: mebibytes(max) }));
      setPlaying(false);
      setReading(f.name);
      api
        .openTrace(f, f.name)
        .finally(() => setReading(null))
        .then(
          (info) => {
            setTrace({ info, file: f });
            setError(null);
            setNotice(null);
            setCpuSel(0);
            setLesson(null);
            // The whole recording in the lanes at first.
            const d = api.dataRef.current?.frame.durationNs ?? GANTT_WINDOW_NS;
            setGantt({ spanNs: Math.max(d, 50e3), endNs: null });
          },
          (e: unknown) => setError(`${t('trace.cannotOpen')}: ${e instanceof Error ? e.message : String(e)}`),
        );
    },
    [api, setPlaying, t, setLesson],
  );
  /** Runs a command now, paused; its answer is whether it found where to go. */
  const drive = useCallback(
    (c: EngineCommand): Promise<boolean> => {
      setPlaying(false);
      setNotice(null);
      return api.command(c);
    },
    [api, setPlaying],
  );

  const command = useCallback(
    (c: Command) => {
      if (c === 'help') return setHelp((h) => !h);
      // A recorded trace has nothing to play or step through (the controls say so).
      if (traceRef.current) return;
      if (c === 'play') {
        if (progress) void api.cancel();
        return setPlaying((p) => !p);
      }
      if (c === 'reset') return reset();
      setPlaying(false);
      const m = forwardMark(c);
      if (m) {
        void api.job({ kind: 'next-mark', mark: m }, t('notice.searching', { what: markWords(t, m) })).then((end) => {
          if (!end.cancelled) setNotice(end.found ? null : t('notice.noFurther', { what: markWords(t, m) }));
        });
        return;
      }
      const b = backwardMark(c);
      if (b) {
        void api
          .job({ kind: 'prev-mark', mark: b }, t('notice.searchingBack', { what: markWords(t, b) }))
          .then((end) => {
            if (!end.cancelled) setNotice(end.found ? null : t('notice.noEarlier', { what: markWords(t, b) }));
          });
        return;
      }
      const step = stepCommand(c);
      if (step) {
        void api
          .command(step)
          .then((found) => setNotice(step.kind === 'back' && !found ? t('notice.firstEvent') : null));
      }
    },
    [reset, api, progress, setPlaying, t, traceRef],
  );
  /** Goes to a time at once (back: snapshot + replay; forward: one engine call). */
  const seekTimeNow = useCallback((tNs: number) => drive({ kind: 'seek-time', ns: tNs }), [drive]);
  /** Jumps to a clicked time: back exactly at once, forward in slices with progress. */
  const seekTime = useCallback(
    (tNs: number) => {
      const f = api.dataRef.current?.frame;
      if (!f) return;
      const to = Math.max(0, Math.min(tNs, f.durationNs));
      // A trace is read whole: any time is one step away.
      if (to <= f.nowNs || traceRef.current) return void seekTimeNow(to);
      setNotice(null);
      void api.job({ kind: 'run-to', toNs: to }, t('notice.runningTo', { t: fmtMs(to) }));
    },
    [api, seekTimeNow, t, traceRef],
  );

  const hasView = data !== null;
  useEffect(() => {
    // Marks the first render with controls and views for npm run bench:ui.
    if (hasView && performance.getEntriesByName('schedlab-interactive').length === 0)
      performance.mark('schedlab-interactive');
  }, [hasView]);
  const stepEvent = useCallback(() => drive({ kind: 'step' }), [drive]);
  useEffect(() => {
    // A documented test hook: browser tests drive and read the engine through
    // it. Every method answers a promise, settled once the worker answered
    // and its frame was taken in.
    const read = <T,>(r: Read) => api.read<T>(r);
    (window as unknown as { __schedlab: unknown }).__schedlab = {
      view: async () => (api.dataRef.current ? (JSON.parse(await read<string>({ kind: 'view' })) as unknown) : null),
      stepEvent,
      loadScenarioJson: load,
      runUntil: (ns: number) => drive({ kind: 'run-until', ns }),
      seekEvent: (n: number) => drive({ kind: 'seek-event', n }),
      seekTime: seekTimeNow,
      stepMarkNow: (m: Mark) => drive({ kind: 'step-mark', mark: m }),
      scenarioJson: () => scenarioRef.current,
      /** Where the shown frame is: cheap, with no engine round trip (a 10,000-task view is not). */
      cursor: () => {
        const f = api.dataRef.current?.frame;
        return f ? { now_ns: f.nowNs, events: f.events } : null;
      },
      migrations: (sinceNs: number, n: number) => read({ kind: 'migrations', sinceNs, n }),
      placements: (n: number) => read({ kind: 'placements', n }),
      decisions: (n: number) => read({ kind: 'decisions', n }),
      traceHash: () => read({ kind: 'trace-hash' }),
      partner: () => read({ kind: 'partner-summary' }),
      report: () => read({ kind: 'report' }),
      latencyCdfs: (n: number) => read({ kind: 'latency-cdfs', points: n }),
      /** An open real trace's `{format, report}` as `schedsim real-trace --json` prints it (JSON text). */
      realReport: () => read({ kind: 'real-report' }),
      /** The current (or last) play's requests: where each asked to run from and to, at which speed. */
      playAsks: () => play.asks.current.slice(),
    };
  }, [stepEvent, load, seekTimeNow, drive, api, play.asks]);

  const busy = engine.busy;
  const report = data?.report ?? null;
  const violations = useMemo(() => report?.sanity_violations ?? [], [report]);
  const pData = data?.partner ?? null;
  const choosePartner = (k: PartnerKind | null) => void partner.build(k, scenarioRef.current);
  const share = useShare({
    engine,
    scenarioRef,
    tryLoad,
    load,
    defaultScenario: () => presetJson(DEFAULT_PRESET),
    cpu: cpuSel,
    setCpu: setCpuSel,
    colourBy,
    setColourBy,
    partner: partner.kind,
    choosePartner: (k) => partner.build(k, scenarioRef.current),
    lesson,
    setLesson,
    reanchorLesson: () => setResets((n) => n + 1),
    stop: () => {
      if (engine.progress) void api.cancel();
      setPlaying(false);
    },
  });
  const lessonEngine = useMemo(
    () => ({
      anchor: async (a: Anchor) => ({
        found: await drive(extCommand(ANCHOR, a)),
        events: dataRef.current?.frame.events ?? 0,
      }),
      seekEvent: (n: number) => void drive({ kind: 'seek-event', n }),
      predict: async (events: number, question: Question) =>
        (await api.request<Prediction | null>(callOp(PREDICT, { events, question, lang }))).value,
    }),
    [drive, api, lang, dataRef],
  );
  const [library, setLibrary] = useState(false);
  // The header's menu on narrow screens: closed at first so the lab is on screen.
  const [menuOpen, setMenuOpen] = useState(false);
  const view = data?.frame.view ?? null;
  const cpu = view?.cpus[Math.min(cpuSel, (view?.cpus.length ?? 1) - 1)];

  return (
    <div
      className={playing ? 'app playing' : 'app'}
      data-version={version}
      data-lesson-panel={(lesson && lessonMarks?.panel) || undefined}
      data-stage-panel={lesson ? stagePanel(lessonMarks?.panel) : undefined}
    >
      {/* Moves the focus itself: following "#lab" would put a fragment in the address bar, which is where share links live. */}
      <a
        className="skip-link"
        href="#lab"
        data-testid="skip-link"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('lab')?.focus();
        }}
      >
        {t('a11y.skip')}
      </a>
      <header className="top">
        <div className="brand">
          <h1>schedlab</h1>
          {/* Narrow screens: the two rows fold behind this button (styles.css hides it on wide ones). */}
          <button
            type="button"
            className="menu-button"
            data-testid="menu-button"
            aria-expanded={menuOpen}
            aria-controls="lab-menu"
            onClick={() => setMenuOpen((o) => !o)}
          >
            <span aria-hidden="true">☰</span> {t('a11y.menu')}
          </button>
        </div>
        {/* Row 1: what runs (scenario, partner, library, editor, file); row 2: how it is shown (lesson, share, language). */}
        <nav id="lab-menu" className={menuOpen ? 'menu open' : 'menu'} aria-label={t('a11y.menuLabel')}>
          <div className="top-row">
            <div className="scenario-pick">
              <select
                aria-label={t('aria.preset')}
                data-testid="preset-pick"
                value={presets.some((p) => p.name === meta.name) ? meta.name : ''}
                onChange={(e) => void load(presetJson(e.target.value))}
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
                <select
                  aria-label={t('aria.compareWith')}
                  data-testid="compare-pick"
                  value={partnerValue(partner.kind)}
                  onChange={(e) => choosePartner(parsePartner(e.target.value))}
                >
                  <option value="">{t('app.compareNothing')}</option>
                  {trace && (
                    <option value="scenario">
                      {t('trace.cmpScenario')}: {meta.name}
                    </option>
                  )}
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
              <JsonFileButton label={t('app.openScenario')} onFile={openFile} testId="open-scenario" />
              <TraceOpenButton onFile={openTrace} />
            </div>
            <button className="library-button" data-testid="library-button" onClick={() => setLibrary(true)}>
              {t('lib.button')}
            </button>
          </div>
          <div className="top-row">
            <ClassroomBar lesson={lesson} setLesson={setLesson} />
            {trace ? (
              <TraceShareNote file={trace.file} />
            ) : (
              <ShareBar made={share.made} onShare={() => void share.makeLink()} />
            )}
            <label className="lang-pick">
              {t('app.language')}{' '}
              <select
                aria-label={t('aria.language')}
                data-testid="lang-pick"
                value={lang}
                onChange={(e) => isLang(e.target.value) && setLang(e.target.value)}
              >
                {LANGS.map((l) => (
                  <option key={l} value={l}>
                    {l === 'en' ? 'English' : '中文'}
                  </option>
                ))}
              </select>
            </label>
          </div>
        </nav>
      </header>
      <FileDrop onTrace={openTrace} onScenario={openFile} />
      <main id="lab" tabIndex={-1}>
        {editing && <ScenarioEditor initialText={scenarioJson} onApply={load} onClose={() => setEditing(false)} />}
        {reading !== null && (
          <p className="only-sim" data-testid="trace-reading" role="status">
            {t('trace.reading', { file: reading })}
          </p>
        )}
        {trace && <TraceBanner trace={trace} durationNs={data?.frame.durationNs ?? 0} onClose={reset} />}
        <p className="description" hidden={trace !== null}>
          {/* A built-in preset is described in the interface language by the library's note; other scenarios by their own text. */}
          {/* A scenario's own text may be megabytes long: past 1,500 characters (the presets' are shorter) its start is shown, the rest on demand. */}
          <b>{meta.name}</b> —{' '}
          <ClippedText
            text={builtInNote && lang !== 'en' ? builtInNote.text[lang] : meta.description}
            limit={1500}
            preview={500}
            label={t('editor.description')}
            testId="description-text"
          />
        </p>
        {share.openProblem && <LinkProblem problem={share.openProblem} onDismiss={share.dismissProblem} />}
        {library && (
          <LibraryPanel
            presets={presets}
            current={meta.name}
            onOpen={(name) => {
              void load(presetJson(name));
              setLibrary(false);
            }}
            onClose={() => setLibrary(false)}
          />
        )}
        {error !== null && (
          <div className="error" data-testid="error" role="alert">
            <b>{t('app.cannotRun')}</b>
            <pre>{error}</pre>
          </div>
        )}
        {data && view && cpu && (
          <>
            <fieldset
              className="recorded-controls"
              disabled={trace !== null}
              title={trace ? t('trace.recorded') : undefined}
            >
              <Controls
                nowNs={view.now_ns}
                durationNs={data.frame.durationNs}
                events={view.events}
                playing={playing}
                finished={view.finished}
                speed={speed}
                achieved={play.achieved}
                notice={notice}
                onCommand={command}
                onSpeed={setSpeed}
              />
            </fieldset>
            {progress && <ProgressBar progress={progress} onCancel={cancelLong} />}
            {help && <HelpOverlay onClose={() => setHelp(false)} />}
            {lesson && (
              <LessonRunner
                lesson={lesson}
                resets={resets}
                setLesson={setLesson}
                current={meta.name}
                loadPreset={(name) => load(presetJson(name))}
                engine={lessonEngine}
                onMarks={setLessonMarks}
                onSelectCpu={setCpuSel}
              />
            )}
            {report && <MetricsStrip report={report} />}
            {report && <RunNotes notes={report.notes ?? []} />}
            {trace ? <OnlySimulations what="exports" /> : <RunExports read={api.read} scenarioName={meta.name} />}
            {partner.error !== null && (
              <div className="error" data-testid="compare-error" role="alert">
                <b>{t('app.partnerCannotRun')}</b>
                <pre>{partner.error}</pre>
              </div>
            )}
            {report && pData?.report && (
              <ComparePanel
                nameA={trace ? trace.info.name : meta.name}
                loadTitleA={trace ? t('trace.loadTitle') : undefined}
                nameB={partner.name}
                reportA={report}
                reportB={pData.report}
                historyA={data.history}
                historyB={pData.history}
                cpusA={data.topology.cpus}
                cpusB={pData.topology.cpus}
                nowNs={view.now_ns}
                durationA={data.frame.durationNs}
                durationB={pData.frame.durationNs}
                onSeek={seekTime}
                machines={{ a: data, b: pData }}
              />
            )}
            <LabPanels
              data={data}
              cpu={cpu}
              version={version}
              playing={busy}
              colourBy={colourBy}
              onColourBy={setColourBy}
              onSelectCpu={setCpuSel}
              onSeek={seekTime}
              gantt={gantt}
              onGantt={setGantt}
              violations={violations}
              lessonCpus={lesson ? lessonMarks?.cpus : undefined}
              recorded={trace !== null}
            />
          </>
        )}
      </main>
    </div>
  );
}
