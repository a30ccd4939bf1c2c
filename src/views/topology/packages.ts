// Which NUMA nodes share a package, read from the distance matrix (the
// engine's machines name no sockets): nodes nearer each other than the
// farthest distance belong together. A uniform machine, or one whose nearer
// pairs connect every node, is one package.

/** The packages as lists of node numbers, ascending, in the order of their first node. */
export function packagesOf(distance: number[][]): number[][] {
  const n = distance.length;
  let far = 0;
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) far = Math.max(far, distance[i][j]);
  const pkg = new Array<number>(n).fill(-1);
  const out: number[][] = [];
  for (let start = 0; start < n; start++) {
    if (pkg[start] >= 0) continue;
    // Every node reachable from `start` through pairs nearer than the farthest distance.
    const members = [start];
    pkg[start] = out.length;
    for (let k = 0; k < members.length; k++) {
      for (let j = 0; j < n; j++) {
        if (pkg[j] < 0 && distance[members[k]][j] < far) {
          pkg[j] = out.length;
          members.push(j);
        }
      }
    }
    out.push(members.sort((a, b) => a - b));
  }
  // No nearer pairs at all (a uniform machine): one package, not one per node.
  return out.every((p) => p.length === 1) ? [Array.from({ length: n }, (_, i) => i)] : out;
}
