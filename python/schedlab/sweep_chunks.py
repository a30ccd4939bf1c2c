"""Where a sweep's runs are made: on this machine's cores or on a Dask cluster, in chunks of consecutive runs.

A task that lasts milliseconds costs the cluster more in scheduling than it computes, so chunks are sized from
the measured cost of a run: a first task (the probe) runs runs one by one for about ``PROBE_SECONDS``, or a share of
them, and reports how long they took; the rest are cut into chunks of about ``task_seconds`` each, their number
rounded up to a multiple of the cluster's threads so that the last round keeps every thread busy. How the runs are
cut changes when they are made, never what a row holds: every row is keyed by its index in the plan and the frame
puts them in plan order.
"""

import json
import math
import os
import time
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import as_completed as futures_completed
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

from . import _engine
from .sweep_plan import PlanArgs

# How long the probe runs before the chunks are sized: long enough to measure a run of a few milliseconds to a few
# percent, short enough that the other threads wait a fraction of one task.
PROBE_SECONDS = 0.5
# ... and it makes at most 1/(PROBE_SHARE × threads) of the runs.
PROBE_SHARE = 4

Rows = Dict[int, Dict[str, Any]]


def run_chunk(args: PlanArgs, indices: Sequence[int], stop_after: Optional[float] = None) -> Tuple[Rows, float]:
    """Runs ``indices`` (a task: this runs on a worker) and returns their rows by index and the seconds taken.
    With ``stop_after``, runs them one at a time and stops once that many seconds have passed (the probe)."""
    started = time.perf_counter()
    if stop_after is None:
        rows = json.loads(args.call(_engine.sweep_rows, list(indices)))
        return dict(zip(indices, rows)), time.perf_counter() - started
    done: Rows = {}
    for i in indices:
        done[i] = json.loads(args.call(_engine.sweep_rows, [i]))[0]
        if time.perf_counter() - started >= stop_after:
            break
    return done, time.perf_counter() - started


def chunk_size(seconds_per_run: float, runs: int, threads: int, task_seconds: float) -> int:
    """Runs per chunk so that a chunk takes about ``task_seconds``, in a number of chunks that is a multiple of
    ``threads`` (a sweep shorter than one task per thread is cut into one chunk per thread)."""
    if runs <= 0:
        return 1
    per_task = max(1, math.floor(task_seconds / max(seconds_per_run, 1e-9)))
    chunks = math.ceil(runs / per_task)
    chunks = min(runs, math.ceil(chunks / threads) * threads)
    return math.ceil(runs / chunks)


def chunks_of(indices: Sequence[int], size: int) -> List[List[int]]:
    return [list(indices[k : k + size]) for k in range(0, len(indices), size)]


class LocalPool:
    """This machine's cores as the executor: threads, since the engine runs without the GIL."""

    def __init__(self, threads: Optional[int] = None):
        self.threads = threads or os.cpu_count() or 1
        self._pool = ThreadPoolExecutor(self.threads)

    def submit(self, fn: Callable, *args):
        return self._pool.submit(fn, *args)

    def completed(self, futures: Iterable):
        return futures_completed(list(futures))

    def close(self) -> None:
        self._pool.shutdown()


class DaskPool:
    """A ``dask.distributed.Client``'s cluster as the executor; its threads are counted when the sweep starts."""

    def __init__(self, client):
        self.client = client
        self.threads = max(1, sum(client.nthreads().values()))

    def submit(self, fn: Callable, *args):
        # pure=False: two chunks are never one result, whatever dask makes of their arguments.
        return self.client.submit(fn, *args, pure=False)

    def completed(self, futures: Iterable):
        from dask.distributed import as_completed

        return as_completed(list(futures))

    def close(self) -> None:
        pass


def compute(pool, args: PlanArgs, missing: Sequence[int], task_seconds: float, on_rows: Callable[[Rows], None]):
    """Makes the ``missing`` runs on ``pool``, handing each task's rows to ``on_rows`` as it finishes (the cache
    stores them then: an interrupted sweep keeps what it made). Returns the chunk size used and the number of tasks,
    the probe included ((0, 0): nothing to do)."""
    if not missing:
        return 0, 0
    # The probe takes at most a share of the runs, so that however cheap they are, every thread gets chunks.
    probe = list(missing[: max(1, len(missing) // (PROBE_SHARE * pool.threads))])
    first, seconds = pool.submit(run_chunk, args, probe, PROBE_SECONDS).result()
    on_rows(first)
    rest = list(missing[len(first) :])
    size = chunk_size(seconds / len(first), len(rest), pool.threads, task_seconds)
    futures = [pool.submit(run_chunk, args, chunk) for chunk in chunks_of(rest, size)]
    for future in pool.completed(futures):
        rows, _ = future.result()
        on_rows(rows)
    return size, 1 + len(futures)
