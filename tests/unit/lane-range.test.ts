// Which CPUs the lanes draw: all of a small machine, the selected CPU's node
// on a large one, and a block of MAX_LANES within a node larger than that.
import { describe, expect, it } from 'vitest';
import { MAX_LANES, laneRange } from '../../src/engine/lane-range';

describe('laneRange', () => {
  it('draws every CPU up to MAX_LANES', () => {
    expect(laneRange(64, 8, 17)).toEqual({ lo: 0, hi: 64 });
    expect(laneRange(MAX_LANES, 8, 0)).toEqual({ lo: 0, hi: MAX_LANES });
  });

  it('draws the selected CPU’s node past it', () => {
    expect(laneRange(1024, 64, 200)).toEqual({ lo: 192, hi: 256 });
    expect(laneRange(1024, 64, 0)).toEqual({ lo: 0, hi: 64 });
    expect(laneRange(1024, 64, 1023)).toEqual({ lo: 960, hi: 1024 });
  });

  it('draws a block of MAX_LANES around the CPU on a node larger than that', () => {
    expect(laneRange(1024, 1024, 300)).toEqual({ lo: 256, hi: 256 + MAX_LANES });
    expect(laneRange(1000, 1000, 999)).toEqual({ lo: 896, hi: 1000 });
  });

  it('keeps a CPU out of range inside the machine', () => {
    expect(laneRange(1024, 64, 5000)).toEqual({ lo: 960, hi: 1024 });
  });
});
