"""A sweep's plan is `schedsim sweep`'s: its refusals are the CLI's messages, its chunks cover the runs once, and
the frame can go to Parquet and back."""

import json

import pandas as pd
import pytest

import schedlab
from schedlab.sweep_chunks import chunk_size, chunks_of
from schedlab.sweep_plan import seed_range, set_spec
from sweep_scenario import SCENARIO


def test_grid_entries_are_set_arguments():
    assert set_spec("processes.0.nice", [0, 5]) == "processes.0.nice=0,5"
    assert set_spec("policy.kind", "cfs,eevdf") == "policy.kind=cfs,eevdf"
    assert set_spec("processes.0.cpus", ["0-3,8", [0, 1]]) == 'processes.0.cpus="0-3,8",[0,1]'
    assert set_spec("hz", 250) == "hz=250"


def test_seeds_as_the_cli_reads_them():
    assert seed_range(None) is None
    assert seed_range(4) == (4, 4)
    assert seed_range(range(3, 9)) == (3, 8)
    assert seed_range("3..8") == (3, 8)
    for bad in ("8..3", "a..b", range(0, 10, 2)):
        with pytest.raises(schedlab.SweepError):
            seed_range(bad)


def test_seeds_out_of_range_are_a_sweep_error():
    # Not pyo3's OverflowError on the way into the engine: the sweep's own refusal, a ValueError.
    assert seed_range(range(2**64 - 2, 2**64)) == (2**64 - 2, 2**64 - 1)
    for bad in (-1, range(-1, 3), range(1, 2**64 + 1), 2**64):
        with pytest.raises(schedlab.SweepError, match=r"every seed must be an integer from 0 to 18446744073709551615"):
            schedlab.sweep(SCENARIO, seeds=bad, cache=False)


def test_a_refused_value_is_the_cli_s_message(schedsim, tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(SCENARIO), encoding="utf-8")
    cli = schedsim("sweep", str(path), "--set", "processes.0.nice=0,99")
    assert cli.returncode != 0
    with pytest.raises(schedlab.SweepError) as refused:
        schedlab.sweep(SCENARIO, {"processes.0.nice": [0, 99]}, cache=False)
    assert str(refused.value).startswith("--set processes.0.nice=99: processes[0].nice: must be between -20 and 19")
    assert str(refused.value) in cli.stderr


def test_a_refused_scenario_names_its_field():
    with pytest.raises(schedlab.ScenarioError) as refused:
        schedlab.sweep(dict(SCENARIO, duration_ms=-1), cache=False)
    assert refused.value.field == "duration_ms"


def test_chunks_last_about_the_task_s_seconds_and_fill_every_thread():
    # 1 ms a run, 2 s a task: 10,000 runs are 5 tasks' worth, made 6 so that 2 threads finish together.
    assert chunk_size(0.001, 10_000, 2, 2.0) == 1667
    assert chunk_size(0.001, 10_000, 1, 2.0) == 2000
    # A sweep shorter than one task per thread: one chunk per thread.
    assert chunk_size(0.001, 200, 2, 2.0) == 100
    # Runs longer than a task: one run a task.
    assert chunk_size(5.0, 40, 8, 2.0) == 1
    for cost, runs, threads in [(0.0004, 9_999, 3), (0.02, 777, 64), (1e-7, 10, 2)]:
        size = chunk_size(cost, runs, threads, 2.0)
        chunks = chunks_of(list(range(runs)), size)
        assert [i for c in chunks for i in c] == list(range(runs))
        assert size * cost <= 2.0


def test_the_frame_goes_to_parquet_and_back(tmp_path):
    path = tmp_path / "sweep.parquet"
    frame = schedlab.sweep(SCENARIO, {"processes.1.threads": [1, 3]}, seeds=range(1, 3), cache=False, parquet=path)
    back = pd.read_parquet(path, dtype_backend="pyarrow")
    pd.testing.assert_frame_equal(back, frame, check_dtype=False)
    assert list(back["processes.1.threads"]) == [1, 3, 1, 3]
    assert all(isinstance(t, pd.ArrowDtype) for t in frame.dtypes)
