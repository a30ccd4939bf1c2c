// What the lab lends share links (share/use-share.ts): its loads, the view a
// link carries (read when a link is made), and how a link's view is restored.
import { presetJson } from '../engine/engine';
import type { ShareHost } from '../share/use-share';
import { DEFAULT_PRESET, type Lab } from './lab';

export function shareHost(lab: Lab): ShareHost {
  return {
    engine: lab.engine,
    scenario: () => lab.scenario.get().json,
    tryLoad: lab.tryLoad,
    load: lab.load,
    defaultScenario: () => presetJson(DEFAULT_PRESET),
    view: () => {
      const { cpu, colourBy } = lab.view.get();
      return { cpu, colourBy, partner: lab.partner.store.get().kind, lesson: lab.lesson.get().lesson };
    },
    setCpu: lab.selectCpu,
    setColourBy: (colourBy) => lab.view.set({ colourBy }),
    choosePartner: lab.choosePartner,
    setLesson: (lesson) => lab.lesson.set({ lesson }),
    reanchorLesson: lab.reanchorLesson,
    stop: lab.stop,
  };
}
