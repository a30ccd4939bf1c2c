// CPU sets as the engine sends them: a bitmap of 32-bit words, CPU c at bit
// c % 32 of word c / 32 (wasm-core/src/api/views/inspector.rs, `CpuBits`), and the
// kernel's cpulist text ("0-7,16-23", as in /sys) the views write them in.

/** The CPUs set in `bits`, ascending. */
export function cpusOf(bits: readonly number[]): number[] {
  const out: number[] = [];
  bits.forEach((word, w) => {
    for (let b = 0; b < 32; b++) if ((word >>> b) & 1) out.push(w * 32 + b);
  });
  return out;
}

/** How many CPUs `bits` holds. */
export function cpuCount(bits: readonly number[]): number {
  let n = 0;
  for (let word of bits) {
    for (word >>>= 0; word !== 0; word >>>= 1) n += word & 1;
  }
  return n;
}

/** Compresses CPU numbers into a cpulist ("0-7,16"); a CPU listed twice is written once. */
export function toCpuList(cpus: readonly number[]): string {
  const s = [...new Set(cpus)].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let i = 0; i < s.length; i++) {
    let j = i;
    while (j + 1 < s.length && s[j + 1] === s[j] + 1) j++;
    parts.push(i === j ? `${s[i]}` : `${s[i]}-${s[j]}`);
    i = j;
  }
  return parts.join(',');
}

/** The cpulist text of a bitmap. */
export function cpuListText(bits: readonly number[]): string {
  return toCpuList(cpusOf(bits));
}
