// The kernel's cpulist format ("0-7,16-23", as in /sys and the inspector's
// group spans) parsed into CPU numbers.

/** CPUs named by a cpulist such as "0-3,8,10-11"; malformed parts are skipped. */
export function parseCpuList(list: string): number[] {
  const out: number[] = [];
  for (const part of list.split(',')) {
    const m = /^\s*(\d+)\s*(?:-\s*(\d+)\s*)?$/.exec(part);
    if (!m) continue;
    const a = Number(m[1]);
    const b = m[2] === undefined ? a : Number(m[2]);
    // A bound keeps a hostile "0-999999999" from allocating without end.
    for (let c = a; c <= b && out.length < 4096; c++) out.push(c);
  }
  return out;
}
