// The editor's worker: checks scenario texts with the engine (and reads long
// ones into a form model) off the page's thread, so a 10,000-process scenario
// or a multi-megabyte description never holds the page. Requests that queued
// while a check ran are answered null, all but the newest (only the newest
// draft matters).
import init from '../../wasm-core/pkg/schedlab_core.js';
import { checkText, type CheckReply, type CheckRequest } from './check-text';

const ready = init();
let queue: CheckRequest[] = [];

function post(m: CheckReply): void {
  self.postMessage(m);
}

function work(): void {
  const batch = queue;
  queue = [];
  const newest = batch.pop();
  for (const r of batch) post({ id: r.id, result: null });
  if (newest) post({ id: newest.id, result: checkText(newest.text, newest.wantModel) });
}

self.onmessage = (e: MessageEvent<CheckRequest>) => {
  queue.push(e.data);
  // Messages that arrive before the work starts join this batch.
  if (queue.length === 1) void ready.then(() => setTimeout(work, 0));
};
