// A large scenario built in the test (no preset is this big): `nodes` NUMA
// nodes of `cores` single-threaded cores, and `threads` threads in processes
// of 100 that run and sleep, started a millisecond apart, as in issue 19.
export function bigScenario(
  nodes: number,
  cores: number,
  threads: number,
  name = `big-${nodes}x${cores}-${threads}`,
): string {
  const processes = [];
  for (let i = 0; i * 100 < threads; i++) {
    processes.push({
      name: `svc${i}`,
      threads: Math.min(100, threads - i * 100),
      start_ms: i % 10,
      program: [{ body: [{ run_us: { exp: 2000 } }, { sleep_us: { exp: 8000 } }] }],
    });
  }
  return JSON.stringify({
    version: 1,
    name,
    description: `${nodes} nodes × ${cores} cores, ${threads} threads (built by the test)`,
    seed: 1,
    duration_ms: 1000,
    hz: 250,
    machine: { nodes, cores_per_node: cores, threads_per_core: 1 },
    processes,
  });
}
