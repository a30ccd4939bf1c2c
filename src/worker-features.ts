// Every feature's part of the engine worker, handed to the host at startup
// (sim-worker.ts; the unit tests join a host with the same list). A new
// feature with work in the worker adds its WorkerFeature here; the engine
// itself stays unaware of it (engine/extensions.ts).
import type { WorkerFeature } from './engine/extensions';
import { classroomWorker } from './classroom/worker';
import { shareWorker } from './share/worker';

export const WORKER_FEATURES: readonly WorkerFeature[] = [classroomWorker, shareWorker];
