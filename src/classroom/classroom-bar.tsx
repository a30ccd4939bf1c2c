// The header's classroom controls: pick a lesson or an exercise, presentation mode (large
// type, high contrast: a class on the root element, styled in styles.css,
// remembered) and fullscreen (with a note when the browser refuses it).
import { useEffect, useState } from 'react';
import { useT } from '../i18n/i18n';
import type { LessonState } from './lesson-runner';
import { EXERCISES } from './exercises';
import { LESSONS } from './lessons';

const PRESENT_KEY = 'schedlab.presenting';

function savedPresenting(): boolean {
  try {
    return localStorage.getItem(PRESENT_KEY) === '1';
  } catch {
    return false;
  }
}

export interface ClassroomBarProps {
  lesson: LessonState | null;
  setLesson: (l: LessonState | null) => void;
  /** The built-in exercise loaded (its id; '' for none). */
  exercise: string;
  openExercise: (id: string) => void;
}

export function ClassroomBar(p: ClassroomBarProps) {
  const t = useT();
  const [presenting, setPresenting] = useState(savedPresenting);
  const [full, setFull] = useState(false);
  const [refused, setRefused] = useState(false);
  useEffect(() => {
    document.documentElement.classList.toggle('presenting', presenting);
    try {
      localStorage.setItem(PRESENT_KEY, presenting ? '1' : '0');
    } catch {
      // Not remembered, but still applied.
    }
  }, [presenting]);
  useEffect(() => {
    const onChange = () => setFull(document.fullscreenElement !== null);
    document.addEventListener('fullscreenchange', onChange);
    return () => document.removeEventListener('fullscreenchange', onChange);
  }, []);
  const toggleFull = () => {
    setRefused(false);
    if (document.fullscreenElement) {
      void document.exitFullscreen().catch(() => undefined);
      return;
    }
    const el = document.documentElement;
    if (!el.requestFullscreen) return setRefused(true);
    el.requestFullscreen().catch(() => setRefused(true));
  };
  return (
    <div className="classroom-bar">
      <label>
        {t('cls.lessons')}{' '}
        <select
          data-testid="lesson-pick"
          aria-label={t('aria.lesson')}
          value={p.lesson?.id ?? ''}
          onChange={(e) => p.setLesson(e.target.value ? { id: e.target.value, step: 0 } : null)}
        >
          <option value="">{t('cls.noLesson')}</option>
          {LESSONS.map((l) => (
            <option key={l.id} value={l.id}>
              {t(`lesson.${l.id}.title`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        {t('ex.pick')}{' '}
        <select
          data-testid="exercise-pick"
          aria-label={t('ex.pick')}
          value={p.exercise}
          onChange={(e) => e.target.value && p.openExercise(e.target.value)}
        >
          <option value="">{t('ex.none')}</option>
          {EXERCISES.map((x) => (
            <option key={x.id} value={x.id}>
              {t(`ex.${x.id}.title`)}
            </option>
          ))}
        </select>
      </label>
      <button
        data-testid="btn-present"
        className={presenting ? 'on' : ''}
        aria-pressed={presenting}
        title={t('cls.presentTitle')}
        onClick={() => setPresenting((v) => !v)}
      >
        {t('cls.present')}
      </button>
      <button data-testid="btn-fullscreen" onClick={toggleFull}>
        {full ? t('cls.exitFullscreen') : t('cls.fullscreen')}
      </button>
      {refused && (
        <span className="notice" role="status" data-testid="fullscreen-refused">
          {t('cls.fullscreenRefused')}
        </span>
      )}
    </div>
  );
}
