"""``schedlab.sweep``: ``schedsim sweep`` from Python, cached, and on a Dask cluster when given one."""

import os
import warnings
from typing import Any, Dict, Mapping, Optional, Union

import pandas as pd

from . import _engine
from .scenario import Scenario, scenario_text
from .sweep_cache import CacheSpec, open_cache
from .sweep_chunks import DaskPool, LocalPool, Rows, compute
from .sweep_frame import sweep_frame
from .sweep_plan import Seeds, make_plan


def sweep(
    scenario: Scenario,
    grid: Optional[Mapping[str, Any]] = None,
    seeds: Seeds = None,
    client=None,
    cache: CacheSpec = True,
    parquet: Union[None, str, "os.PathLike[str]"] = None,
    task_seconds: float = 2.0,
) -> pd.DataFrame:
    """Runs ``scenario`` for every seed and every combination of ``grid``'s values: ``schedsim sweep`` with one
    ``--set`` per grid entry, and the same rows, in the same order (seeds outermost, the last path fastest).

    ``grid`` maps a dotted path (``"processes.0.nice"``, ``"machine.preset"``) to its values: a list of values, or
    a string written as on the command line (``"100,250"``). ``seeds``: one seed, a ``range``, ``"A..B"`` (both
    included), or None for the scenario's own. ``client``: a ``dask.distributed.Client`` to run on (else this
    machine's cores), in chunks of about ``task_seconds`` each. ``cache``: True for the default directory
    (``$SCHEDLAB_CACHE_DIR`` or ``~/.cache/schedlab/sweeps``), a directory, or False; runs already there are not
    made again. ``parquet``: a path to write the frame to as well.

    ``frame.attrs`` says how the rows came: ``runs``, ``simulated`` (made now), ``cached`` (found in the cache),
    ``chunk_size`` and ``tasks`` (how the runs made were cut, the first task measuring a run's cost), and
    ``engine_version``. Raises ``SweepError`` (or ``ScenarioError``) before any run when the
    plan or one of its combinations is refused.
    """
    plan = make_plan(scenario_text(scenario), grid, seeds)
    runs = _engine_runs(plan)
    store = open_cache(cache)
    keys = [store.key(text, seed) for seed, text, _ in runs] if store else []
    rows: Rows = {}
    for i, key in enumerate(keys):
        found = store.get(key)
        if found is not None:
            rows[i] = found
    missing = [i for i in range(plan.runs) if i not in rows]

    def keep(made: Rows) -> None:
        for i, row in made.items():
            row.pop("set", None)  # the plan's columns, not the run's: see sweep_cache
            rows[i] = row
            if store:
                store.put(keys[i], row)

    pool = DaskPool(client) if client is not None else LocalPool()
    try:
        size, tasks = compute(pool, plan.args, missing, task_seconds, keep)
    finally:
        pool.close()
    frame = sweep_frame(
        [seed for seed, _, _ in runs],
        plan.set_paths,
        [values for _, _, values in runs],
        plan.process_names,
        [rows[i] for i in range(plan.runs)],
    )
    frame.attrs.update(_attrs(plan.runs, len(missing), size, tasks))
    _warn_of_failures(frame)
    if parquet is not None:
        frame.to_parquet(parquet)
    return frame


def _engine_runs(plan):
    """(seed, canonical scenario text, --set values as JSON) of every run, in plan order."""
    return plan.args.call(_engine.sweep_runs)


def _warn_of_failures(frame: pd.DataFrame) -> None:
    """A run whose sched_ext policy failed stopped where it failed: its figures are not a result. Its row says why;
    the warning says so once, as ``schedsim sweep`` does before it exits with 3."""
    failed = frame.index[frame["error"].notna()]
    if len(failed):
        first = failed[0]
        warnings.warn(
            f"{len(failed)} of {len(frame)} runs failed; the first, row {first + 1} (seed {frame['seed'][first]}): "
            f"{frame['error'][first]}",
            stacklevel=3,
        )


def _attrs(runs: int, simulated: int, chunk_size: int, tasks: int) -> Dict[str, Any]:
    return {
        "runs": runs,
        "simulated": simulated,
        "cached": runs - simulated,
        "chunk_size": chunk_size,
        "tasks": tasks,
        "engine_version": _engine.engine_version(),
    }
