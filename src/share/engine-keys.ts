// Share links' handlers in the engine worker, by name: the page sends these
// keys, share/worker.ts answers them (extensions.ts).
import { commandKey, jobKey } from '../engine/extensions';
import type { Cursor } from './share-link';

/** Puts the cursor where a link names it, at once (the sender's own state). */
export const PLACE_CURSOR = commandKey<Cursor>('share.place-cursor');

/** Replays to a link's cursor in slices, with progress (the receiver). */
export const CURSOR_JOB = jobKey<Cursor>('share.cursor');
