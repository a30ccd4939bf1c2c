// The page's side of the editor's worker (check-worker.ts): a check as a
// promise, the newest request winning (an older one still waiting resolves
// null). If the worker cannot start (e.g. offline before it was ever
// fetched) the checks run on the page, which has the engine loaded too.
import { checkText, type CheckReply, type CheckRequest, type CheckResult } from './check-text';

interface Waiting {
  req: CheckRequest;
  resolve: (r: CheckResult | null) => void;
}

export class Checker {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, Waiting>();

  constructor() {
    try {
      this.worker = new Worker(new URL('./check-worker.ts', import.meta.url), { type: 'module' });
      this.worker.onmessage = (e: MessageEvent<CheckReply>) => this.settle(e.data.id, e.data.result);
      this.worker.onerror = (e) => {
        e.preventDefault();
        this.onPage();
      };
    } catch {
      this.worker = null;
    }
  }

  check(text: string, wantModel: boolean): Promise<CheckResult | null> {
    for (const id of [...this.waiting.keys()]) this.settle(id, null);
    const req: CheckRequest = { id: this.nextId++, text, wantModel };
    return new Promise((resolve) => {
      this.waiting.set(req.id, { req, resolve });
      if (this.worker) this.worker.postMessage(req);
      else setTimeout(() => this.answerHere(req.id), 0);
    });
  }

  dispose(): void {
    this.worker?.terminate();
    this.worker = null;
    for (const id of [...this.waiting.keys()]) this.settle(id, null);
  }

  private settle(id: number, result: CheckResult | null): void {
    const w = this.waiting.get(id);
    if (!w) return;
    this.waiting.delete(id);
    w.resolve(result);
  }

  private answerHere(id: number): void {
    const w = this.waiting.get(id);
    if (w) this.settle(id, checkText(w.req.text, w.req.wantModel));
  }

  /** The worker failed: this and later checks run on the page. */
  private onPage(): void {
    this.worker?.terminate();
    this.worker = null;
    for (const id of [...this.waiting.keys()]) setTimeout(() => this.answerHere(id), 0);
  }
}
