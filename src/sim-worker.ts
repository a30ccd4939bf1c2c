// The engine worker's entry: the engine's message loop with every feature's
// handlers (worker-features.ts). main.tsx starts it.
import { serve } from './engine/serve';
import { WORKER_FEATURES } from './worker-features';

serve(WORKER_FEATURES);
