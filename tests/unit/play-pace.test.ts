// Play's pacing without a browser: owed simulated time is capped (it does not
// pile up while a request is in flight), the achieved speed is measured over
// a window, and a slow play is recognised.
import { describe, expect, it } from 'vitest';
import { MAX_OWED_MS, PlayPace, fmtSpeed, isSlow } from '../../src/engine/play-pace';

describe('play pace', () => {
  it('owes wall time × speed, and never more than the cap however long a request takes', () => {
    const p = new PlayPace(2, 0);
    p.tick(16);
    expect(p.take(1000)).toEqual({ fromNs: 1000, toNs: 1000 + 16e6 * 2, speed: 2 });
    // A request in flight for 25 s of frames: the next one still asks for the cap only.
    for (let ts = 16; ts <= 25000; ts += 16) p.tick(ts);
    const ask = p.take(5e6);
    expect(ask.toNs - ask.fromNs).toBe(MAX_OWED_MS * 1e6 * 2);
    expect(p.capNs).toBe(MAX_OWED_MS * 1e6 * 2);
    // Paid: nothing is owed until wall time passes again.
    expect(p.take(5e6).toNs).toBe(5e6);
  });

  it('measures the speed achieved over its window and says when it is slow', () => {
    const p = new PlayPace(1, 0);
    expect(p.observe(0, 0)).toBeNull();
    expect(p.observe(500, 1e6)).toBeNull();
    // 3 ms of simulated time in 1.5 s of wall time: 0.002× real time.
    const x = p.observe(1500, 3e6);
    expect(x).toBeCloseTo(0.002, 9);
    expect(isSlow(x, 1)).toBe(true);
    expect(isSlow(0.9, 1)).toBe(false);
    expect(isSlow(null, 1)).toBe(false);
    // The window slides: only the last 1.5 s count (from the answer at 1500 ms).
    expect(p.observe(3000, 3e6 + 1500e6)).toBeCloseTo(1, 9);
  });

  it('prints speeds with two significant digits', () => {
    expect(fmtSpeed(0.000754)).toBe('0.00075');
    expect(fmtSpeed(0.023)).toBe('0.023');
    expect(fmtSpeed(1.54)).toBe('1.5');
    expect(fmtSpeed(42.4)).toBe('42');
    expect(fmtSpeed(0)).toBe('0');
  });
});
