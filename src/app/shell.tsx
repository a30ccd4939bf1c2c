// The page's outer element: whether the lab plays, the frame count, the
// panel a lesson step points at (the stage's layout reads it), the skip link,
// and the stage's own hooks (classroom/stage.ts). It re-renders on every
// frame; the page inside it is passed in as children and does not.
import type { ReactNode } from 'react';
import { stagePanel, useBringIntoView, useStageTop, useStageZoom } from '../classroom/stage';
import { useT } from '../i18n/i18n';
import { useStore } from '../stores/store';
import { useLab } from './context';

export function Shell({ children }: { children: ReactNode }) {
  const lab = useLab();
  const t = useT();
  const playing = useStore(lab.engine.store, (s) => s.playing);
  const version = useStore(lab.engine.store, (s) => s.version);
  const { lesson, marks } = useStore(lab.lesson, (s) => s);
  useStageTop(lesson !== null);
  useStageZoom(lesson !== null);
  useBringIntoView(lesson ? marks?.panel : null, lesson ? `${lesson.id}:${lesson.step}` : '');
  return (
    <div
      className={playing ? 'app playing' : 'app'}
      data-version={version}
      data-lesson-panel={(lesson && marks?.panel) ?? undefined}
      data-stage-panel={lesson ? stagePanel(marks?.panel) : undefined}
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
      {children}
    </div>
  );
}
