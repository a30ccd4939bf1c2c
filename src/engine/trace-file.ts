// A trace file read as text in the engine worker: refused by its size before
// any byte is read, then decoded as it streams in (never a second whole copy
// of the bytes), and refused when it is not UTF-8 text (a binary perf.data or
// trace.dat has to go through `perf script` / `trace-cmd report` first).

/** Thrown for a file past the limit; the page words it (it checks the size itself first). */
export class TraceTooBig extends Error {
  constructor(
    readonly bytes: number,
    readonly limit: number,
  ) {
    super(`the trace is ${(bytes / 2 ** 20).toFixed(1)} MiB, larger than the ${limit / 2 ** 20} MiB the page opens`);
  }
}

export async function readTraceText(file: Blob, limit: number): Promise<string> {
  if (file.size > limit) throw new TraceTooBig(file.size, limit);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const parts: string[] = [];
  const reader = file.stream().getReader();
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      // A file that grew after it was picked.
      if (bytes > limit) throw new TraceTooBig(bytes, limit);
      parts.push(decoder.decode(value, { stream: true }));
    }
    parts.push(decoder.decode());
  } catch (e) {
    if (e instanceof TraceTooBig) throw e;
    throw new Error(
      'not text: a binary perf.data or trace.dat? convert it with `perf script` or `trace-cmd report` first',
      { cause: e },
    );
  } finally {
    reader.releaseLock();
  }
  return parts.join('');
}
