// The lesson runner: a card over the lab with the step's narration, Back /
// Next, and for question steps the choices, Reveal and the verdict with the
// engine's reason. Arriving at a step puts the cursor at its anchor (loading
// the step's preset first); the question's answer is computed in the engine
// worker by running a copy of the simulation forward (predict.ts) — the
// reveal moves the cursor there.
import { useEffect, useState } from 'react';
import { useT } from '../i18n/i18n';
import { partnerAt, presetAt, type Anchor, type PanelId } from './lesson';
import { partnerValue, type PartnerKind } from '../compare/variants';
import { lessonById } from './lessons';
import type { Prediction, Question } from './predict';
import { useLatest } from '../stores/use-latest';
import { LessonQuestion, type Asked } from './lesson-question';
import { useLessonStepKeys } from './lesson-keys';

export interface LessonState {
  id: string;
  step: number;
}

/** What the lab shows highlighted for the step. */
export interface LessonMarks {
  panel: PanelId | null;
  cpus: number[];
}

export interface LessonRunnerProps {
  lesson: LessonState;
  /** Counts the lab's resets (and links opened at this step): each puts the run back at the step's anchor. */
  resets: number;
  setLesson: (l: LessonState | null) => void;
  /** The preset the lab runs now (its name). */
  current: string;
  /** Loads a preset into the lab; false if it could not. */
  loadPreset: (name: string) => Promise<boolean>;
  /** The compare partner now (its <select> value), and how to run another beside the lab. */
  partner: string;
  choosePartner: (k: PartnerKind | null) => Promise<void>;
  /** The lab's simulation, paused and moved by the engine worker. */
  engine: LessonEngine;
  onMarks: (m: LessonMarks | null) => void;
  onSelectCpu: (cpu: number) => void;
  /** Zooms the lanes to `spanNs` ending at the cursor. */
  onLanes: (spanNs: number) => void;
}

export interface LessonEngine {
  /** Puts the cursor at an anchor: whether its mark was found, and the event count there. */
  anchor: (a: Anchor) => Promise<{ found: boolean; events: number }>;
  seekEvent: (n: number) => void;
  /** A question's answer from a copy of the lab's run at `events`. */
  predict: (events: number, q: Question) => Promise<Prediction | null>;
}

export function LessonRunner(p: LessonRunnerProps) {
  const t = useT();
  const lesson = lessonById(p.lesson.id);
  const index = Math.max(0, Math.min(p.lesson.step, (lesson?.steps.length ?? 1) - 1));
  const step = lesson?.steps[index];
  const key = `${p.lesson.id}:${index}`;
  // A question belongs to one arrival at its step: a reset of the run asks it afresh.
  const askKey = `${key}#${p.resets}`;
  const [asked, setAsked] = useState<Asked | null>(null);
  useLessonStepKeys(index, lesson?.steps.length ?? 0, (to) => p.setLesson({ id: p.lesson.id, step: to }));
  const onMarks = useLatest(p.onMarks);
  const [missing, setMissing] = useState(false);

  // Arriving at a step: its preset, its anchor, its highlights, its question.
  useEffect(() => {
    if (!lesson || !step) return;
    let gone = false;
    const preset = presetAt(lesson, index);
    void (async () => {
      if (p.current !== preset && !(await p.loadPreset(preset))) return;
      // Moved on while it loaded: the next step anchors its own run.
      if (gone) return;
      // A lesson that compares sets its partner at each step (after the preset: it is built from it).
      const partner = partnerAt(lesson, index);
      if (lesson.steps.some((s) => s.partner !== undefined) && partnerValue(partner) !== p.partner) {
        await p.choosePartner(partner);
        if (gone) return;
      }
      const { found, events } = await p.engine.anchor(step.anchor);
      if (gone) return;
      setMissing(!found);
      if (step.selectCpu !== undefined) p.onSelectCpu(step.selectCpu);
      if (step.lanesMs !== undefined) p.onLanes(step.lanesMs * 1e6);
      p.onMarks({ panel: step.panel ?? null, cpus: step.cpus ?? [] });
      if (!step.question) return;
      const prediction = await p.engine.predict(events, step.question);
      if (!gone) setAsked({ key: askKey, prediction, pick: null, revealed: false });
    })();
    return () => {
      gone = true;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new step (or a reset of the run) re-anchors; a language switch or new callbacks keep the cursor
  }, [key, p.resets]);
  // Leaving the lesson: nothing stays highlighted.
  useEffect(() => () => onMarks.current(null), [onMarks]);

  if (!lesson || !step) return null;
  const last = index === lesson.steps.length - 1;
  const q = asked?.key === askKey ? asked : null;
  const pr = q?.prediction ?? null;
  const reveal = () => {
    if (!q || !pr || q.pick === null) return;
    p.engine.seekEvent(pr.atEvent);
    p.onMarks({ panel: step.panel ?? null, cpus: pr.cpus });
    setAsked({ ...q, revealed: true });
  };
  return (
    // A region of the lab (not an <aside>: it sits inside <main>); the step and
    // its narration are announced when they change, the verdict when it comes.
    <section className="lesson-card" data-testid="lesson" aria-labelledby="lesson-title">
      <header className="panel-head">
        <h2 id="lesson-title">{t(`lesson.${lesson.id}.title`)}</h2>
        <span className="meta" data-testid="lesson-step">
          {t('cls.step', { n: index + 1, of: lesson.steps.length })}
        </span>
        <button
          className="close"
          data-testid="lesson-exit"
          onClick={() => p.setLesson(null)}
          title={t('cls.exit')}
          aria-label={t('aria.leaveLesson')}
        >
          ×
        </button>
      </header>
      <p className="narration" data-testid="narration" aria-live="polite" aria-atomic="true">
        <span className="sr-only">{t('cls.step', { n: index + 1, of: lesson.steps.length })}: </span>
        {t(`lesson.${lesson.id}.${step.id}`)}
      </p>
      {missing && <p className="meta">{t('cls.markMissing')}</p>}
      {step.question && (
        <LessonQuestion
          textKey={`lesson.${lesson.id}.${step.id}.q`}
          q={q}
          onPick={(i) => q && setAsked({ ...q, pick: i })}
          onReveal={reveal}
        />
      )}
      <footer className="lesson-nav">
        <button
          data-testid="lesson-prev"
          disabled={index === 0}
          onClick={() => p.setLesson({ id: lesson.id, step: index - 1 })}
        >
          {t('cls.prev')}
        </button>
        {last ? (
          <button className="primary" data-testid="lesson-finish" onClick={() => p.setLesson(null)}>
            {t('cls.finish')}
          </button>
        ) : (
          <button
            className="primary"
            data-testid="lesson-next"
            onClick={() => p.setLesson({ id: lesson.id, step: index + 1 })}
          >
            {t('cls.next')}
          </button>
        )}
      </footer>
    </section>
  );
}
