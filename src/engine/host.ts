// The engine's side of the worker: it owns the lab's simulation and its
// compare partner, carries out requests in the order they come, and runs long
// jobs in slices of wall time so that a Cancel or a newer command can get in
// between. It knows nothing of workers: sim-worker.ts wires it to `self`, and
// the unit tests wire it straight to a client.
import { Simulation } from './engine';
import { RealRun } from './real-run';
import { makeJob, type Job } from './jobs';
import { readFrame, settledQuery, transferables, type FrameQuery, type PostedFrame } from './frame';
import type { Command, FromWorker, JobEnd, Loaded, Moved, Read, Request } from './protocol';
import { Extensions, type Lab, type WorkerFeature } from './extensions';
import { runBounded } from './bounded-run';

/** Wall time per slice of a job before the worker looks at its messages again. */
const SLICE_MS = 16;
/** Least wall time between two Progress frames of a job. */
const PROGRESS_MS = 30;

interface Running {
  id: number;
  job: Job;
  q: FrameQuery | undefined;
  /** The page drew the last frame sent: the next Progress may carry one. */
  acked: boolean;
  lastPost: number;
}

export class EngineHost {
  /** The lab's run: a simulation, or a real trace opened in the lab (the partner is always a simulation). */
  private sim: Simulation | RealRun | null = null;
  private partner: Simulation | null = null;
  private running: Running | null = null;
  /** Loads so far, of the lab's simulation and of partners: frames say which one they show. */
  private gen = 0;
  private partnerGen = 0;

  private readonly extensions: Extensions;
  /** What features' handlers see of the lab's run. */
  private readonly lab: Lab = { run: () => this.need(), sim: () => this.needSim() };

  /**
   * `post` sends to the page, handing over `transfer` (a frame's arrays); `later` runs a function after pending messages (setTimeout 0);
   * `features` register their commands, jobs and calls (src/worker-features.ts).
   */
  constructor(
    private readonly post: (m: FromWorker, transfer?: ArrayBuffer[]) => void,
    private readonly later: (f: () => void) => void,
    features: readonly WorkerFeature[] = [],
  ) {
    this.extensions = new Extensions(features);
  }

  handle(req: Request): void {
    try {
      this.dispatch(req);
    } catch (e) {
      this.post({ reply: { id: req.id, ok: false, error: e instanceof Error ? e.message : String(e) } });
    }
  }

  private reply(id: number, value: unknown, q?: FrameQuery): void {
    const frame = q ? this.frame(q) : null;
    this.post({ reply: { id, ok: true, value, frame } }, frame ? transferables(frame) : []);
  }

  private frame(q: FrameQuery): PostedFrame | null {
    if (!this.sim) return null;
    return readFrame(
      { sim: this.sim, gen: this.gen },
      q,
      this.partner ? { sim: this.partner, gen: this.partnerGen } : null,
    );
  }

  private need(): Simulation | RealRun {
    if (!this.sim) throw new Error('no scenario loaded');
    return this.sim;
  }

  /** The lab's simulation, for what a recorded trace cannot do (jobs, lessons, exports). */
  private needSim(): Simulation {
    const s = this.need();
    if (s instanceof RealRun) throw new Error('only for simulations: a real trace is open');
    return s;
  }

  private dispatch(req: Request): void {
    switch (req.op) {
      case 'load': {
        const next = new Simulation(req.json);
        this.endJob(true);
        this.sim?.dispose();
        this.sim = next;
        this.gen++;
        const loaded: Loaded = { topology: next.topology(), gen: this.gen };
        return this.reply(req.id, loaded, req.q);
      }
      case 'open-trace': {
        if (req.text === undefined) throw new Error('the trace was not read');
        const next = new RealRun(req.text, req.name);
        this.endJob(true);
        this.sim?.dispose();
        this.sim = next;
        this.gen++;
        this.syncPartner();
        const loaded: Loaded = { topology: next.topology(), gen: this.gen, trace: next.info() };
        return this.reply(req.id, loaded, req.q);
      }
      case 'partner': {
        this.partner?.dispose();
        this.partner = null;
        if (req.json === null) return this.reply(req.id, null, req.q);
        this.partner = new Simulation(req.json);
        this.partnerGen++;
        this.syncPartner();
        const loaded: Loaded = { topology: this.partner.topology(), gen: this.partnerGen };
        return this.reply(req.id, loaded, req.q);
      }
      case 'command': {
        this.endJob(true);
        const moved = this.command(this.need(), req.command);
        this.syncPartner();
        return this.reply(req.id, moved, req.q);
      }
      case 'job': {
        this.endJob(true);
        const r: Running = {
          id: req.id,
          job:
            req.job.kind === 'ext'
              ? this.extensions.run('job', req.job.name, this.lab, req.job.arg)
              : makeJob(this.needSim(), req.job),
          q: req.q,
          acked: true,
          lastPost: performance.now(),
        };
        this.running = r;
        return this.slice(r);
      }
      case 'cancel':
        this.endJob(true);
        return this.reply(req.id, null, req.q);
      case 'ack':
        if (this.running) {
          this.running.acked = true;
          this.running.q = req.q;
        }
        return;
      case 'frame':
        return this.reply(req.id, null, req.q);
      case 'read':
        return this.reply(req.id, this.read(req.read));
      case 'files': {
        // In a worker: its own script and what it fetched (Node tests have neither).
        const here = (globalThis as { location?: { href: string } }).location?.href;
        const fetched =
          typeof performance.getEntriesByType === 'function'
            ? performance.getEntriesByType('resource').map((e) => e.name)
            : [];
        return this.reply(req.id, here ? [here, ...fetched] : fetched);
      }
      case 'call':
        return this.reply(req.id, this.extensions.run('call', req.name, this.lab, req.arg));
    }
  }

  private command(sim: Simulation | RealRun, c: Command): Moved {
    switch (c.kind) {
      case 'step':
        return { found: sim.stepEvent() };
      case 'tick':
        return { found: sim.stepTick() };
      case 'back':
        if (sim.events === 0) return { found: false };
        sim.seekEvent(sim.events - 1);
        return { found: true };
      case 'run-until':
        if (c.maxMs !== undefined && sim instanceof Simulation) return { found: runBounded(sim, c.ns, c.maxMs) };
        sim.runUntil(c.ns);
        return { found: true };
      case 'seek-event':
        sim.seekEvent(c.n);
        return { found: true };
      case 'seek-time':
        sim.seekTime(Math.max(0, Math.min(c.ns, sim.durationNs)));
        return { found: true };
      case 'step-mark':
        return { found: sim.stepMark(c.mark, true) };
      case 'ext':
        return { found: this.extensions.run('command', c.name, this.lab, c.arg) };
    }
  }

  private read(r: Read): unknown {
    const run = this.need();
    if (run instanceof RealRun) return this.readTrace(run, r);
    const sim = run;
    switch (r.kind) {
      case 'view':
        // As text: posting the object graph of 10,000 tasks costs the page a second; parsing it, a tenth.
        return sim.viewJson();
      case 'trace-hash':
        return sim.traceHash();
      case 'report':
        return sim.report();
      case 'latency-cdfs':
        return sim.latencyCdfs(r.points);
      case 'decisions':
        return sim.decisions(r.n, true);
      case 'placements':
        return sim.placements(r.n);
      case 'migrations':
        return sim.migrations(r.sinceNs, r.n);
      case 'chrome-trace':
        return sim.chromeTrace();
      case 'metrics-csv':
        return sim.metricsCsv();
      case 'partner-summary': {
        const p = this.partner;
        return p ? { nowNs: p.nowNs, traceHash: p.traceHash(), report: p.report() } : null;
      }
      case 'real-report':
        throw new Error('no real trace is open');
    }
  }

  /** What a real trace answers; exports and model state exist only for simulations. */
  private readTrace(run: RealRun, r: Read): unknown {
    switch (r.kind) {
      case 'view':
        return run.viewJson();
      case 'trace-hash':
        return run.traceHash();
      case 'report':
        return run.report();
      case 'real-report':
        return run.realReportJson();
      case 'latency-cdfs':
        return run.latencyCdfs(r.points);
      case 'decisions':
        return run.decisions(r.n, true);
      case 'placements':
        return run.placements(r.n);
      case 'migrations':
        return run.migrations(r.sinceNs, r.n);
      case 'partner-summary': {
        const p = this.partner;
        return p ? { nowNs: p.nowNs, traceHash: p.traceHash(), report: p.report() } : null;
      }
      case 'chrome-trace':
      case 'metrics-csv':
        throw new Error('only for simulations: a real trace is open');
    }
  }

  /** The partner follows the lab's clock: forward by running, backward by its own exact rewind (its end at most). */
  private syncPartner(): void {
    const p = this.partner;
    const s = this.sim;
    if (p && s && p.nowNs !== Math.min(s.nowNs, p.durationNs)) p.seekTime(s.nowNs);
  }

  /** Ends the running job, if any, answering its request (cancelled when another request cut it short). */
  private endJob(cancelled: boolean): void {
    const r = this.running;
    if (!r) return;
    this.running = null;
    this.syncPartner();
    const end: JobEnd = { found: !cancelled && r.job.found(), cancelled };
    // The job's last frame is read as a paused lab reads one: its progress frames took the slow parts in turn.
    this.reply(r.id, end, r.q && settledQuery(r.q));
  }

  /** One slice of job `r`, unless it has ended (a slice of an ended job may still be scheduled). */
  private slice(r: Running): void {
    if (this.running !== r) return;
    try {
      if (this.sliceOnce(r)) this.later(() => this.slice(r));
    } catch (e) {
      // Whatever failed (a step, the last frame's read), the job's request is answered: the worker keeps its
      // uncaught errors from the page (worker-channel.ts), so a request left unanswered would wait for good.
      if (this.running === r) this.running = null;
      this.post({ reply: { id: r.id, ok: false, error: e instanceof Error ? e.message : String(e) } });
    }
  }

  /** Steps job `r` for a slice of wall time, ending it or posting its progress; true when it goes on. */
  private sliceOnce(r: Running): boolean {
    const start = performance.now();
    let done = false;
    while (!done && performance.now() - start < SLICE_MS) done = r.job.step();
    if (done) {
      this.endJob(false);
      return false;
    }
    const now = performance.now();
    if (r.acked && now - r.lastPost >= PROGRESS_MS) {
      r.acked = false;
      r.lastPost = now;
      this.syncPartner();
      const frame = r.q ? this.frame(r.q) : null;
      this.post({ progress: { id: r.id, progress: r.job.progress(), frame } }, frame ? transferables(frame) : []);
    }
    return true;
  }
}
