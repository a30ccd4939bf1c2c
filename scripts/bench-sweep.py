#!/usr/bin/env python3
"""Sweep throughput (runs per second) on a Dask LocalCluster of 1 worker, then of 2, and the ratio.

Not a test: it times. Each measurement is the whole of `schedlab.sweep` on a fresh cluster — the probe, the chunks,
the rows gathered into the frame — with the cache off, so every run is made. The workers are processes of one thread
each (as a cluster's workers would be); `--threads` makes them threads of this process instead.

    .venv/bin/python scripts/bench-sweep.py [--seeds 150] [--threads]      (npm run bench:sweep)
"""

import argparse
import time

from dask.distributed import Client, LocalCluster

import schedlab

# The Group Imbalance bug's `make` preset (64 CPUs, 8 nodes), shortened to 1 s so that a run takes some tens of
# milliseconds: with and without the bug, at two tick rates, over the seeds. 4 × 150 seeds = 600 runs fill several
# seconds' tasks per worker.
GRID = {"bugs": ["linux-4.1", "linux-4.1-fixed"], "hz": [250, 1000]}


def scenario():
    s = schedlab.preset("group-imbalance-make")
    s["duration_ms"] = 1000
    return s


def measure(workers: int, seeds: int, processes: bool):
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes, dashboard_address=None) as cluster:
        with Client(cluster) as client:
            client.wait_for_workers(workers)
            started = time.perf_counter()
            frame = schedlab.sweep(scenario(), GRID, seeds=range(1, seeds + 1), client=client, cache=False)
            took = time.perf_counter() - started
    return frame, took


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=150, help="seeds per combination (4 combinations)")
    parser.add_argument("--threads", action="store_true", help="workers as threads of this process")
    opts = parser.parse_args()
    results = {}
    for workers in (1, 2):
        frame, took = measure(workers, opts.seeds, not opts.threads)
        results[workers] = (frame, len(frame) / took)
        print(
            f"{workers} worker(s): {len(frame)} runs in {took:.2f} s = {len(frame) / took:.1f} runs/s "
            f"(chunks of {frame.attrs['chunk_size']} runs)",
            flush=True,
        )
    # The same rows at either size, or the figures compare different work.
    assert results[1][0].equals(results[2][0]), "1 and 2 workers gave different rows"
    print(f"ratio 2/1 workers: {results[2][1] / results[1][1]:.2f}x")


if __name__ == "__main__":
    main()
