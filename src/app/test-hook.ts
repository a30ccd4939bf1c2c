// A documented test hook: browser tests drive and read the engine through
// window.__schedlab. Every method answers a promise, settled once the worker
// answered and its frame was taken in. The interface never reads it.
import type { Mark } from '../engine/types';
import type { Read } from '../engine/protocol';
import type { Lab } from './lab';

export function installTestHook(lab: Lab): void {
  const { engine } = lab;
  const read = <T>(r: Read) => engine.read<T>(r);
  (window as unknown as { __schedlab: unknown }).__schedlab = {
    view: async () => (engine.data ? (JSON.parse(await read<string>({ kind: 'view' })) as unknown) : null),
    stepEvent: () => lab.drive({ kind: 'step' }),
    loadScenarioJson: lab.load,
    runUntil: (ns: number) => lab.drive({ kind: 'run-until', ns }),
    seekEvent: (n: number) => lab.drive({ kind: 'seek-event', n }),
    seekTime: lab.seekTimeNow,
    stepMarkNow: (m: Mark) => lab.drive({ kind: 'step-mark', mark: m }),
    scenarioJson: () => lab.scenario.get().json,
    /** Where the shown frame is: cheap, with no engine round trip (a 10,000-task view is not). */
    cursor: () => {
      const f = engine.data?.frame;
      return f ? { now_ns: f.nowNs, events: f.events } : null;
    },
    migrations: (sinceNs: number, n: number) => read({ kind: 'migrations', sinceNs, n }),
    placements: (n: number) => read({ kind: 'placements', n }),
    decisions: (n: number) => read({ kind: 'decisions', n }),
    traceHash: () => read({ kind: 'trace-hash' }),
    partner: () => read({ kind: 'partner-summary' }),
    report: () => read({ kind: 'report' }),
    latencyCdfs: (n: number) => read({ kind: 'latency-cdfs', points: n }),
    /** An open real trace's `{format, report}` as `schedsim real-trace --json` prints it (JSON text). */
    realReport: () => read({ kind: 'real-report' }),
    /** The current (or last) play's requests: where each asked to run from and to, at which speed. */
    playAsks: () => engine.asks.slice(),
  };
}
