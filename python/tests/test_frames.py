"""The report's tables as Arrow-backed DataFrames."""

import pandas as pd
import pyarrow as pa

import schedlab

PROCESS_COLUMNS = [
    "tgid", "name", "threads", "cpu_time_ns", "share", "wait_time_ns", "nvcsw", "nivcsw", "migrations",
    "completion_ns", "wakeup_p50_ns", "wakeup_p90_ns", "wakeup_p99_ns", "wakeup_max_ns",
]


def run():
    return schedlab.run(schedlab.preset("cfs-nice-levels"))


def test_processes_frame():
    r = run()
    df = r.processes
    assert list(df.columns) == PROCESS_COLUMNS
    assert all(isinstance(t, pd.ArrowDtype) for t in df.dtypes)
    assert df["name"].dtype.pyarrow_dtype == pa.string()
    assert df["share"].dtype.pyarrow_dtype == pa.float64()
    assert df["cpu_time_ns"].dtype.pyarrow_dtype == pa.int64()
    assert list(df["name"]) == [p["name"] for p in r.report["processes"]]
    assert list(df["cpu_time_ns"]) == [p["cpu_time_ns"] for p in r.report["processes"]]
    # Nothing exits in this scenario: completion is null throughout, and the column keeps its type.
    assert df["completion_ns"].isna().all() and df["completion_ns"].dtype.pyarrow_dtype == pa.int64()
    sleeper = df.set_index("name").loc["sleeper"]
    assert sleeper["nvcsw"] > 0
    assert sleeper["wakeup_max_ns"] == r.report["processes"][3]["wakeup_latency_ns"][3]


def test_cpus_frame():
    r = run()
    df = r.cpus
    assert list(df.columns) == ["cpu", "busy_ns", "idle_ns"]
    assert [t.pyarrow_dtype for t in df.dtypes] == [pa.int64()] * 3
    assert len(df) == len(r.report["cpus"]) == 1
    assert int(df["busy_ns"].iloc[0] + df["idle_ns"].iloc[0]) == r.report["sim_time_ns"]
