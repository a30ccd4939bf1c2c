// The lab: its named stores (what is loaded, how it is looked at, the
// lesson, the page's dialogs; the engine's frames and the compare partner)
// and the actions that change several of them at once. Created once at
// startup (main.tsx) and handed to the components by context (context.ts).
import { presetAt } from '../classroom/lesson';
import { lessonById } from '../classroom/lessons';
import type { PanelId } from '../classroom/lesson';
import { Partner } from '../compare/partner';
import type { PartnerKind } from '../compare/variants';
import type { EngineClient } from '../engine/client';
import { listPresets, presetJson } from '../engine/engine';
import type { GanttWindow } from '../engine/frame';
import type { Command as EngineCommand } from '../engine/protocol';
import { traceLimit } from '../engine/real-run';
import type { Translate } from '../i18n/translate';
import { LabEngine } from '../stores/lab-engine';
import { createLessonStore } from '../stores/lesson';
import { ownProblem, problemOf, type Problem } from '../stores/problem';
import { createScenarioStore } from '../stores/scenario';
import { createUiStore } from '../stores/ui';
import { createViewStore } from '../stores/view';
import { fmtMs } from '../views/colors';
import { backwardMark, forwardMark, markWords, stepCommand } from '../views/commands';
import { MAX_SCENARIO_BYTES, mebibytes, readScenarioFile, ScenarioFileTooBig } from '../views/scenario-file';
import type { Command } from '../views/shortcuts';

export const DEFAULT_PRESET = 'cfs-nice-levels';

export class Lab {
  readonly presets = listPresets();
  readonly scenario = createScenarioStore(presetJson(DEFAULT_PRESET), DEFAULT_PRESET);
  readonly view = createViewStore();
  readonly lesson = createLessonStore<PanelId>();
  readonly ui = createUiStore();
  readonly engine: LabEngine;
  readonly partner: Partner;

  constructor(client: EngineClient) {
    this.engine = new LabEngine(
      client,
      () => this.view.get(),
      () => this.view.get().speed,
    );
    this.partner = new Partner(this.engine);
    // A worker that broke the protocol was replaced by one that holds nothing: the lab starts over on the default
    // scenario (never the one it had, whose policy may be what broke it) and says why in the page's words.
    client.onReplaced = (e) => {
      this.stop();
      void this.load(presetJson(DEFAULT_PRESET)).then(() => this.notice(e.message));
    };
    // A new CPU to show or a new lanes' window: the same state read again.
    let shown = this.view.get();
    this.view.subscribe(() => {
      const v = this.view.get();
      if (v.cpu === shown.cpu && v.gantt === shown.gantt) return;
      shown = v;
      if (this.engine.data) void this.engine.refresh();
    });
  }

  /** The first load (the default scenario; a share link in the address then replaces it). */
  start(): void {
    void this.load(this.scenario.get().json);
  }

  /**
   * Replaces the simulation; the engine's message if it refused the scenario (the old one then keeps running).
   * `forLesson`: the lesson card (or a reset during it) asked for this load, so it never leaves the lesson —
   * the learner may have moved on a step while it loaded.
   */
  tryLoad = async (json: string, forLesson = false): Promise<Problem | null> => {
    try {
      await this.engine.load(json);
    } catch (e) {
      return problemOf(e);
    }
    const parsed = JSON.parse(json) as { name?: unknown; description?: unknown };
    const text = (v: unknown) => (typeof v === 'string' ? v : '');
    const name = text(parsed.name);
    this.scenario.set({ json, name, description: text(parsed.description), trace: null, error: null });
    this.view.set({ cpu: 0 });
    // Loading a scenario other than the lesson step's (preset pick, library,
    // file, editor, link) leaves the lesson.
    const l = this.lesson.get().lesson;
    const def = l && lessonById(l.id);
    if (l && !forLesson && (!def || presetAt(def, Math.min(l.step, def.steps.length - 1)) !== name))
      this.lesson.set({ lesson: null });
    // "The lab's scenario, simulated" is a partner for a real trace only: beside the simulation itself it goes.
    const k = this.partner.store.get().kind;
    if (k) await this.partner.build(k.kind === 'scenario' ? null : k, json);
    return null;
  };

  /** As tryLoad, showing the engine's message; true if loaded. */
  load = async (json: string, forLesson = false): Promise<boolean> => {
    const problem = await this.tryLoad(json, forLesson);
    if (problem !== null) this.scenario.set({ error: problem });
    return problem === null;
  };

  /** Loads the scenario again; during a lesson the run goes back to the step's anchor. */
  reset = (): void => {
    void this.load(this.scenario.get().json, true).then((ok) => {
      if (ok) this.reanchorLesson();
    });
  };

  reanchorLesson = (): void => this.lesson.set((s) => ({ resets: s.resets + 1 }));

  selectCpu = (cpu: number): void => this.view.set({ cpu });
  setGantt = (f: (w: GanttWindow) => GanttWindow): void => this.view.set((v) => ({ gantt: f(v.gantt) }));
  setSpeed = (speed: number): void => {
    this.view.set({ speed });
    this.engine.restartPlay();
  };
  choosePartner = (k: PartnerKind | null): Promise<void> => this.partner.build(k, this.scenario.get().json);

  /** Pauses play and cancels a long run. */
  stop = (): void => {
    if (this.engine.store.get().progress) void this.engine.cancel();
    this.engine.setPlaying(false);
  };

  cancelLong = (t: Translate): void => {
    void this.engine
      .cancel()
      .then(() => this.notice(t('notice.cancelled', { t: fmtMs(this.engine.data?.frame.nowNs ?? 0) })));
  };

  notice = (text: string | null): void => this.ui.set({ notice: text });

  /** A scenario file from the header's picker: one larger than a scenario may be is refused by its size, unread. */
  openFile = (f: File, t: Translate): void => {
    readScenarioFile(f).then(this.load, (e: unknown) =>
      this.scenario.set({
        error: ownProblem(
          e instanceof ScenarioFileTooBig
            ? t('app.fileTooBig', { file: f.name, size: mebibytes(e.bytes), max: mebibytes(MAX_SCENARIO_BYTES) })
            : String(e),
        ),
      }),
    );
  };

  /** A real trace from the picker or a drop: refused by its size unread, else streamed and parsed in the worker. */
  openTrace = (f: File, t: Translate): void => {
    const max = traceLimit();
    if (f.size > max) {
      this.scenario.set({
        error: ownProblem(t('trace.tooBig', { file: f.name, size: mebibytes(f.size), max: mebibytes(max) })),
      });
      return;
    }
    this.engine.setPlaying(false);
    this.scenario.set({ reading: f.name });
    this.engine
      .openTrace(f, f.name)
      .finally(() => this.scenario.set({ reading: null }))
      .then(
        (info) => {
          this.scenario.set({ trace: { info, file: f }, error: null });
          this.ui.set({ notice: null });
          this.lesson.set({ lesson: null });
          // The whole recording in the lanes at first.
          const d = this.engine.data?.frame.durationNs ?? 0;
          this.view.set({ cpu: 0, gantt: { spanNs: Math.max(d, 50e3), endNs: null } });
        },
        (e: unknown) => this.scenario.set({ error: problemOf(e, t('trace.cannotOpen')) }),
      );
  };

  /** Runs a command now, paused; its answer is whether it found where to go. */
  drive = (c: EngineCommand): Promise<boolean> => {
    this.engine.setPlaying(false);
    this.notice(null);
    return this.engine.command(c);
  };

  /** A control's command (button or key). */
  command = (c: Command, t: Translate): void => {
    if (c === 'help') return this.ui.set((u) => ({ help: !u.help }));
    // A recorded trace has nothing to play or step through (the controls say so).
    if (this.scenario.get().trace) return;
    if (c === 'play') {
      if (this.engine.store.get().progress) void this.engine.cancel();
      return this.engine.setPlaying((p) => !p);
    }
    if (c === 'reset') return this.reset();
    this.engine.setPlaying(false);
    const m = forwardMark(c);
    if (m) {
      const what = markWords(t, m);
      void this.engine.job({ kind: 'next-mark', mark: m }, t('notice.searching', { what })).then((end) => {
        if (!end.cancelled) this.notice(end.found ? null : t('notice.noFurther', { what }));
      });
      return;
    }
    const b = backwardMark(c);
    if (b) {
      const what = markWords(t, b);
      const detail = (p: { at: number; of: number }) => t('progress.searchedBack', { at: p.at, of: p.of });
      void this.engine.job({ kind: 'prev-mark', mark: b }, t('notice.searchingBack', { what }), detail).then((end) => {
        if (!end.cancelled) this.notice(end.found ? null : t('notice.noEarlier', { what }));
      });
      return;
    }
    const step = stepCommand(c);
    if (step) {
      void this.engine
        .command(step)
        .then((found) => this.notice(step.kind === 'back' && !found ? t('notice.firstEvent') : null));
    }
  };

  /** Goes to a time at once (back: snapshot + replay; forward: one engine call). */
  seekTimeNow = (ns: number): Promise<boolean> => this.drive({ kind: 'seek-time', ns });

  /** Jumps to a clicked time: back exactly at once, forward in slices with progress. */
  seekTime = (ns: number, t: Translate): void => {
    const f = this.engine.data?.frame;
    if (!f) return;
    const to = Math.max(0, Math.min(ns, f.durationNs));
    // A trace is read whole: any time is one step away.
    if (to <= f.nowNs || this.scenario.get().trace) return void this.seekTimeNow(to);
    this.notice(null);
    void this.engine.job({ kind: 'run-to', toNs: to }, t('notice.runningTo', { t: fmtMs(to) }));
  };
}
