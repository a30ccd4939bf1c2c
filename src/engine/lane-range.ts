// Which CPUs the lanes draw. A lane under 4 px shows no task, so past
// MAX_LANES CPUs the lanes show the node of the selected CPU (CPUs are
// numbered node-major, so a node is a range), or on a node larger than that a
// block of MAX_LANES around it; the worker then reads the slices of those CPUs
// only. Pure, used by the worker (what to read) and the view (what it shows).

/** The most lanes drawn at once (about 2 px each in the lanes' 260 px would be unreadable). */
export const MAX_LANES = 128;

export interface LaneRange {
  /** First CPU drawn, and one past the last. */
  lo: number;
  hi: number;
}

/** The lanes' CPUs on a machine of `nrCpus` CPUs with `cpusPerNode` each, for the selected `cpu`. */
export function laneRange(nrCpus: number, cpusPerNode: number, cpu: number): LaneRange {
  if (nrCpus <= MAX_LANES) return { lo: 0, hi: nrCpus };
  const c = Math.min(Math.max(0, cpu), nrCpus - 1);
  const per = Math.max(1, cpusPerNode);
  const nodeLo = Math.floor(c / per) * per;
  const nodeHi = Math.min(nrCpus, nodeLo + per);
  if (nodeHi - nodeLo <= MAX_LANES) return { lo: nodeLo, hi: nodeHi };
  const lo = nodeLo + Math.floor((c - nodeLo) / MAX_LANES) * MAX_LANES;
  return { lo, hi: Math.min(nodeHi, lo + MAX_LANES) };
}
