// The policy guest (wasm-core/guest/): the very host `schedsim run` runs
// sched_ext policies with (boa, the runtime, the guard's limits), compiled to
// a wasm module of its own. The engine worker compiles it only when a request
// carries a policy (serve.ts), and gives each policy an instance of its own.
//
// A policy inside the guest holds nothing of this worker: the module's only
// imports are the few that boa's date code declares and never calls under
// the guest's hooks, and each is a function that throws. So the policy has
// no global object, network, clock or chance, whatever it writes, and its
// limits (steps per callback, nesting, call depth, memory) are counted in
// Rust where it cannot read or write them. Since the page runs what the CLI
// runs, a link gives the same trace in both by construction.
//
// A trap (the guest's memory ceiling, a stack overflow in the interpreter,
// one allocation past the hard cap) ends that policy with a message; its
// instance is dropped, and the next run gets a fresh one.

/** What the engine calls: NaN from `call` / `initTask` means the policy failed (`error()` says why). */
export interface PolicyHost {
  call(op: number, a: number, b: number, c: number, d: number): number;
  initTask(now: number, pid: number, weight: number, nice: number, cpus: string): number;
  kicks(): string;
  error(): string;
}

interface GuestExports {
  memory: WebAssembly.Memory;
  scx_start(): void;
  scx_input(len: number): number;
  scx_output(): number;
  scx_output_len(): number;
  scx_fatal(): number;
  scx_fatal_len(): number;
  scx_boot(nrCpus: number, seed: number): number;
  scx_call(op: number, a: number, b: number, c: number, d: number): number;
  scx_init_task(now: number, pid: number, weight: number, nice: number): number;
  scx_kicks(): number;
}

let compiled: WebAssembly.Module | null = null;
/** The compiled module's imports, each answered by a function that throws (`nothingOutside`). */
let imports: WebAssembly.Imports = {};
let compiling: Promise<WebAssembly.Module> | null = null;
/** Why the last load failed, for the policy that then cannot boot. */
let failure = '';

/** The guest's module, as the build ships it beside the engine's (scripts/build-wasm.sh). */
export const GUEST_URL = new URL('../../wasm-core/pkg/schedlab_guest.wasm', import.meta.url);

/**
 * Compiles the guest once: from `bytes`, or fetched with `get` (the worker hands in its fetch before it gives the
 * network up). Later calls wait for the first.
 */
export function loadGuest(from: BufferSource | ((url: URL) => Promise<Response>)): Promise<WebAssembly.Module> {
  if (compiled) return Promise.resolve(compiled);
  compiling ??= (
    typeof from === 'function'
      ? from(GUEST_URL).then((r) => {
          if (!r.ok) throw new Error(`the policy interpreter did not download (HTTP ${r.status})`);
          return r.arrayBuffer();
        })
      : Promise.resolve(from)
  )
    .then((bytes) => WebAssembly.compile(bytes))
    .then((m) => {
      imports = nothingOutside(m);
      return (compiled = m);
    })
    .catch((e: unknown) => {
      failure = e instanceof Error ? e.message : String(e);
      throw e;
    })
    .finally(() => {
      compiling = null;
    });
  return compiling;
}

/** True once the guest is compiled: policies can then be booted synchronously. */
export const guestLoaded = (): boolean => compiled !== null;

/** Every import the module declares, as a function that throws: the guest reaches nothing of the page. */
function nothingOutside(module: WebAssembly.Module): WebAssembly.Imports {
  const imports: Record<string, Record<string, () => never>> = {};
  for (const { module: from, name, kind } of WebAssembly.Module.imports(module)) {
    if (kind !== 'function') throw new Error(`the policy guest asks for a ${kind} import (${from}.${name})`);
    (imports[from] ??= {})[name] = () => {
      throw new Error(`the policy guest has no outside world (${name})`);
    };
  }
  return imports;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/** Why a trap ended the policy, in the guest's words when it knew (its allocator's line), else the trap's. */
function trapped(g: GuestExports, e: unknown): string {
  const n = g.scx_fatal_len();
  const at = g.scx_fatal();
  if (n > 0) return decoder.decode(new Uint8Array(g.memory.buffer, at, n));
  const what = e instanceof Error ? e.message : String(e);
  if (e instanceof RangeError || /stack/i.test(what))
    return `the policy went deeper than the interpreter's stack allows (${what})`;
  if (/memory|out of bounds|unreachable/i.test(what))
    return `the policy's interpreter ran out of memory (its ceiling is 1 GiB) and stopped (${what})`;
  return `the policy's interpreter stopped: ${what}`;
}

/** Boots a policy in an instance of its own; throws (with the reason) if it does not load. */
export function makePolicyHost(source: string, nrCpus: number, seed: number): PolicyHost {
  if (!compiled)
    throw new Error(
      `the policy does not load: the policy interpreter did not load in this worker${failure ? ` (${failure})` : ''}`,
    );
  const instance = new WebAssembly.Instance(compiled, imports);
  const g = instance.exports as unknown as GuestExports;
  let dead: string | null = null;
  const output = () => {
    const at = g.scx_output();
    return decoder.decode(new Uint8Array(g.memory.buffer, at, g.scx_output_len()));
  };
  const write = (text: string) => {
    const bytes = encoder.encode(text);
    // The buffer is made first: making it may grow the memory, which detaches an earlier view of it.
    const at = g.scx_input(bytes.length);
    new Uint8Array(g.memory.buffer, at, bytes.length).set(bytes);
  };
  /** Runs `f` unless a trap has ended the policy; a trap ends it (the instance is not used again). */
  const guarded = (f: () => number): number => {
    if (dead !== null) return NaN;
    try {
      return f();
    } catch (e) {
      dead = trapped(g, e);
      return NaN;
    }
  };
  let booted: number;
  try {
    g.scx_start();
    write(source);
    booted = g.scx_boot(nrCpus, seed);
  } catch (e) {
    // Named as the CLI names a limit broken while the policy boots (host_boa.rs).
    throw new Error(`init: ${trapped(g, e)}`, { cause: e });
  }
  if (booted !== 0) throw new Error(output());
  return {
    call: (op, a, b, c, d) => guarded(() => g.scx_call(op, a, b, c, d)),
    initTask: (now, pid, weight, nice, cpus) =>
      guarded(() => {
        write(cpus);
        return g.scx_init_task(now, pid, weight, nice);
      }),
    kicks: () => {
      if (guarded(() => g.scx_kicks()) !== 0) throw new Error(dead ?? output());
      return output();
    },
    error: () => dead ?? output(),
  };
}
