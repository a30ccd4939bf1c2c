// Share links' part of the engine worker: placing the cursor a link names,
// at once or in slices (cursor.ts). A real trace cannot be linked to.
import { RealRun } from '../engine/real-run';
import type { WorkerFeature } from '../engine/extensions';
import { cursorJob, placeCursor } from './cursor';
import { CURSOR_JOB, PLACE_CURSOR } from './engine-keys';

export const shareWorker: WorkerFeature = (r) => {
  r.command(PLACE_CURSOR, (lab, cursor) => {
    const run = lab.run();
    if (run instanceof RealRun) return false;
    placeCursor(run, cursor);
    return true;
  });
  r.job(CURSOR_JOB, (lab, cursor) => cursorJob(lab.sim(), cursor));
};
