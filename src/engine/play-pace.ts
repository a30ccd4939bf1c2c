// How far Play asks the engine to go, and how fast it actually went. Pure
// (wall time is passed in), so it is unit-tested without a browser.
//
// Simulated time is owed at the wall clock × the chosen speed, but never more
// than MAX_OWED_MS of wall time's worth: while a request is in flight the
// debt stops growing, so an engine slower than the clock plays slower than
// wall time instead of asking for ever bigger jumps (which once held a
// 10,000-thread run for 25 s in one request). Each request also stops after
// PLAY_REQUEST_MS of work in the worker, so Pause and Step get in at once.

/** The most wall time one play request asks to simulate (× speed). */
export const MAX_OWED_MS = 250;
/** Wall time one play request may take in the worker before it answers where it got to. */
export const PLAY_REQUEST_MS = 40;
/** The achieved speed is measured over this much wall time. */
const RATE_WINDOW_MS = 1500;
/** Below this fraction of the speed asked for, the controls say the play is slow. */
export const SLOW_FRACTION = 0.5;

/** One request's goal and where the cursor was when it was asked (the test hook reads these). */
export interface PlayAsk {
  fromNs: number;
  toNs: number;
  speed: number;
}

export class PlayPace {
  private owedNs = 0;
  private lastTs: number;
  /** (wall ms, simulated ns) of answers within the rate window, oldest first. */
  private seen: [number, number][] = [];

  constructor(
    readonly speed: number,
    startTs: number,
  ) {
    this.lastTs = startTs;
  }

  /** The most simulated time one request asks for. */
  get capNs(): number {
    return MAX_OWED_MS * 1e6 * this.speed;
  }

  /** Wall time has reached `ts` (an animation frame): the debt grows, up to the cap. */
  tick(ts: number): void {
    // A frame more than 100 ms late (a background tab) counts as 100 ms.
    const dt = Math.max(0, Math.min(100, ts - this.lastTs));
    this.lastTs = ts;
    this.owedNs = Math.min(this.capNs, this.owedNs + dt * 1e6 * this.speed);
  }

  /** The next request, from the cursor at `nowNs`: everything owed, which is then paid. */
  take(nowNs: number): PlayAsk {
    const ask = { fromNs: nowNs, toNs: nowNs + this.owedNs, speed: this.speed };
    this.owedNs = 0;
    return ask;
  }

  /**
   * An answer arrived at wall `ts` with the cursor at `nowNs`. Returns the
   * speed achieved (simulated per wall time) over the last RATE_WINDOW_MS,
   * or null until that much wall time has been seen.
   */
  observe(ts: number, nowNs: number): number | null {
    this.seen.push([ts, nowNs]);
    // Keep one sample at or before the window's start, so the span covers the whole window.
    while (this.seen.length > 2 && ts - this.seen[1][0] >= RATE_WINDOW_MS) this.seen.shift();
    const [t0, ns0] = this.seen[0];
    if (ts - t0 < RATE_WINDOW_MS) return null;
    return (nowNs - ns0) / ((ts - t0) * 1e6);
  }
}

/** Whether an achieved speed is far enough under the asked one to say so. */
export const isSlow = (achieved: number | null, speed: number): boolean =>
  achieved !== null && achieved < speed * SLOW_FRACTION;

/** A speed as "0.023" / "1.5" / "40": two significant digits, no exponent. */
export function fmtSpeed(x: number): string {
  if (x <= 0) return '0';
  if (x >= 10) return Math.round(x).toString();
  const digits = Math.min(8, Math.max(0, 1 - Math.floor(Math.log10(x))));
  return x.toFixed(digits);
}
