"""A sweep's rows as one DataFrame, Arrow-backed, with the columns of ``schedsim sweep --csv`` in its order:
seed, one column per ``--set`` path, the run's figures, ``share:NAME`` per process, and ``error``. Times stay in
integer nanoseconds (``sim_time_ns``, ``wasted_core_ns``), as the package's other frames keep them, and shares are
fractions; a process a run does not have has a null share, and a run that ran to its end a null error.
"""

import json
from typing import Any, Dict, List, Sequence

import pandas as pd
import pyarrow as pa

FIGURES = [
    ("events", pa.int64()),
    ("trace_hash", pa.string()),
    ("sim_time_ns", pa.int64()),
    ("wasted_core_ns", pa.int64()),
    ("sanity_violations", pa.int64()),
    ("migrations", pa.int64()),
]


def set_column(values_json: List[str]) -> pa.Array:
    """One ``--set`` path's values: typed as Arrow infers them (ints, strings, lists...) when they share a type,
    else as the CLI's table shows them (a string as it is, anything else as compact JSON)."""
    values = [json.loads(v) for v in values_json]
    try:
        return pa.array(values)
    except (pa.ArrowInvalid, pa.ArrowTypeError, TypeError):
        return pa.array([v if isinstance(v, str) else text for v, text in zip(values, values_json)], pa.string())


def sweep_frame(
    seeds: Sequence[int],
    set_paths: Sequence[str],
    set_values: Sequence[Sequence[str]],
    process_names: Sequence[str],
    rows: Sequence[Dict[str, Any]],
) -> pd.DataFrame:
    """The frame of ``rows`` (plan order); ``set_values[i]`` is run ``i``'s values as JSON text, path by path."""
    columns: Dict[str, pa.Array] = {"seed": pa.array(seeds, pa.uint64())}
    for k, path in enumerate(set_paths):
        columns[path] = set_column([values[k] for values in set_values])
    for name, kind in FIGURES:
        columns[name] = pa.array([r[name] for r in rows], kind)
    shares = [{p["name"]: p["share"] for p in r["processes"]} for r in rows]
    for name in process_names:
        columns[f"share:{name}"] = pa.array([s.get(name) for s in shares], pa.float64())
    columns["error"] = pa.array([r["error"] for r in rows], pa.string())
    return pa.table(columns).to_pandas(types_mapper=pd.ArrowDtype)
