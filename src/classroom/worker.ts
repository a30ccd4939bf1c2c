// The classroom's part of the engine worker: anchoring a step and answering
// its question, both on the lab's simulation (a real trace has neither).
import { Simulation } from '../engine/engine';
import type { WorkerFeature } from '../engine/extensions';
import { translate } from '../i18n/translate';
import { applyAnchor } from './anchor';
import { ANCHOR, PREDICT } from './engine-keys';
import { predict } from './predict';

export const classroomWorker: WorkerFeature = (r) => {
  r.command(ANCHOR, (lab, anchor) => {
    const run = lab.run();
    return run instanceof Simulation && applyAnchor(run, anchor);
  });
  r.call(PREDICT, (lab, { events, question, lang }) =>
    predict(lab.sim(), events, question, (key, vars) => translate(lang, key, vars)),
  );
};
