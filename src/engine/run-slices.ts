// Run slices as the engine gives them: one flat Float64Array of quads
// [cpu, pid, start_ns, end_ns, …] (wasm-core/src/api/views/frame.rs), transferred
// from the worker and read in place, never inflated into objects.

/** Numbers per slice. */
export const SLICE_FIELDS = 4;

/** Calls `f` with each slice of `flat`, in order. */
export function forEachSlice(
  flat: Float64Array,
  f: (cpu: number, pid: number, startNs: number, endNs: number) => void,
): void {
  for (let i = 0; i + SLICE_FIELDS <= flat.length; i += SLICE_FIELDS) f(flat[i], flat[i + 1], flat[i + 2], flat[i + 3]);
}

/** The number of slices in `flat`. */
export function sliceCount(flat: Float64Array): number {
  return Math.floor(flat.length / SLICE_FIELDS);
}
