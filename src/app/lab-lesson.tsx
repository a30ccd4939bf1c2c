// The guided lesson's card, wired to the lab: its loads, its anchors and its
// questions go through the engine worker (the classroom's handlers there).
import { useMemo } from 'react';
import { ANCHOR, PREDICT } from '../classroom/engine-keys';
import { scenarioJson, type Anchor } from '../classroom/lesson';
import { LessonRunner, type LessonEngine } from '../classroom/lesson-runner';
import { lessonById } from '../classroom/lessons';
import type { Question } from '../classroom/predict';
import { extCommand } from '../engine/extensions';
import { useLang } from '../i18n/i18n';
import { useStore } from '../stores/store';
import { useLab } from './context';
import { partnerValue } from '../compare/variants';

export function LabLesson() {
  const lab = useLab();
  const [lang] = useLang();
  const { lesson, resets } = useStore(lab.lesson, (s) => s);
  const current = useStore(lab.scenario, (s) => s.name);
  const partner = useStore(lab.partner.store, (s) => partnerValue(s.kind));
  const engine: LessonEngine = useMemo(
    () => ({
      anchor: async (a: Anchor) => ({
        found: await lab.drive(extCommand(ANCHOR, a)),
        events: lab.engine.data?.frame.events ?? 0,
      }),
      seekEvent: (n: number) => void lab.drive({ kind: 'seek-event', n }),
      predict: (events: number, question: Question) => lab.engine.call(PREDICT, { events, question, lang }),
    }),
    [lab, lang],
  );
  if (!lesson) return null;
  return (
    <LessonRunner
      lesson={lesson}
      resets={resets}
      setLesson={(l) => lab.lesson.set({ lesson: l })}
      current={current}
      loadPreset={(name) => {
        const def = lessonById(lesson.id);
        return def ? lab.load(scenarioJson(def, name), true) : Promise.resolve(false);
      }}
      partner={partner}
      choosePartner={lab.choosePartner}
      engine={engine}
      onMarks={(marks) => lab.lesson.set({ marks })}
      onSelectCpu={lab.selectCpu}
      onLanes={(spanNs) => lab.setGantt(() => ({ spanNs, endNs: null }))}
    />
  );
}
