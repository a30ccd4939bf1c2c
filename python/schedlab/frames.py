"""The report's tables as pandas DataFrames with Arrow-backed columns (``pd.ArrowDtype``).

Each table has an explicit Arrow schema, so its columns have the same types whatever the run holds (an empty
table, a column that is null throughout). Times stay in integer nanoseconds, as the report gives them.
"""

from typing import Any, Dict, List

import pandas as pd
import pyarrow as pa

# One column per field of the report's ProcessReport; the wakeup-latency percentiles [p50, p90, p99, max]
# spread over four columns, null for a process that never woke up.
PROCESS_SCHEMA = pa.schema(
    [
        ("tgid", pa.int64()),
        ("name", pa.string()),
        ("threads", pa.int64()),
        ("cpu_time_ns", pa.int64()),
        ("share", pa.float64()),
        ("wait_time_ns", pa.int64()),
        ("nvcsw", pa.int64()),
        ("nivcsw", pa.int64()),
        ("migrations", pa.int64()),
        ("completion_ns", pa.int64()),
        ("wakeup_p50_ns", pa.int64()),
        ("wakeup_p90_ns", pa.int64()),
        ("wakeup_p99_ns", pa.int64()),
        ("wakeup_max_ns", pa.int64()),
    ]
)

CPU_SCHEMA = pa.schema([("cpu", pa.int64()), ("busy_ns", pa.int64()), ("idle_ns", pa.int64())])

WAKEUP_COLUMNS = ["wakeup_p50_ns", "wakeup_p90_ns", "wakeup_p99_ns", "wakeup_max_ns"]


def _frame(rows: List[Dict[str, Any]], schema: pa.Schema) -> pd.DataFrame:
    table = pa.Table.from_pylist(rows, schema=schema)
    return table.to_pandas(types_mapper=pd.ArrowDtype)


def processes_frame(report: Dict[str, Any]) -> pd.DataFrame:
    rows = []
    for p in report["processes"]:
        row = {k: p[k] for k in PROCESS_SCHEMA.names if k in p}
        row.update(zip(WAKEUP_COLUMNS, p.get("wakeup_latency_ns") or [None] * 4))
        rows.append(row)
    return _frame(rows, PROCESS_SCHEMA)


def cpus_frame(report: Dict[str, Any]) -> pd.DataFrame:
    return _frame(report["cpus"], CPU_SCHEMA)
