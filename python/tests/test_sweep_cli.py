"""A sweep on a Dask cluster of 2 workers is `schedsim sweep`'s table, row for row, and run again it makes no run;
a failed run is the CLI's row with its reason."""

import json

import pandas as pd
import pytest

import schedlab
from schedlab import _engine
from sweep_scenario import CLI_ARGS, GRID, SCENARIO, SEEDS


@pytest.fixture(scope="module")
def client():
    distributed = pytest.importorskip("dask.distributed")
    # Threads, not processes: the engine runs without the GIL, so two single-threaded workers in this process use
    # both cores, start in a fraction of a second, and share the counter of simulated runs the tests read.
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


@pytest.fixture(scope="module")
def cli_rows(schedsim, tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "s.json"
    path.write_text(json.dumps(SCENARIO), encoding="utf-8")
    done = schedsim("sweep", str(path), *CLI_ARGS, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def assert_rows_are_the_cli_s(frame: pd.DataFrame, cli_rows):
    assert len(frame) == len(cli_rows) >= 200
    names = [c[len("share:") :] for c in frame.columns if c.startswith("share:")]
    assert names == ["hog", "sleeper"]
    for i, want in enumerate(cli_rows):
        got = frame.iloc[i]
        assert int(got["seed"]) == want["seed"]
        for path, value in want["set"].items():
            assert got[path] == value, (i, path)
        for column in ("events", "trace_hash", "sim_time_ns", "wasted_core_ns", "sanity_violations", "migrations"):
            assert got[column] == want[column], (i, column)
        shares = {p["name"]: p["share"] for p in want["processes"]}
        assert {n: got[f"share:{n}"] for n in names} == shares, i
        assert (None if pd.isna(got["error"]) else got["error"]) == want["error"]


def test_a_sweep_on_two_workers_is_schedsim_sweep_and_runs_once(client, cli_rows, tmp_path):
    before = _engine.runs_simulated()
    first = schedlab.sweep(SCENARIO, GRID, seeds=SEEDS, client=client, cache=tmp_path)
    assert first.attrs["runs"] == 200 and first.attrs["simulated"] == 200
    assert _engine.runs_simulated() - before == 200
    assert_rows_are_the_cli_s(first, cli_rows)
    # The seeds move the runs: the table is not one run repeated.
    assert first["trace_hash"].nunique() == 200

    again_before = _engine.runs_simulated()
    again = schedlab.sweep(SCENARIO, GRID, seeds=SEEDS, client=client, cache=tmp_path)
    assert _engine.runs_simulated() == again_before
    assert again.attrs["simulated"] == 0 and again.attrs["cached"] == 200
    pd.testing.assert_frame_equal(again, first)


def test_rows_do_not_depend_on_how_the_runs_are_cut(client, cli_rows):
    # task_seconds=0: one run per task, 200 tasks in whatever order the workers finish them.
    one_by_one = schedlab.sweep(SCENARIO, GRID, seeds=SEEDS, client=client, cache=False, task_seconds=0)
    # The probe makes at most an eighth of the runs (a quarter of a thread's share); the rest go one run a task.
    assert one_by_one.attrs["chunk_size"] == 1 and one_by_one.attrs["tasks"] >= 1 + 200 - 200 // 8
    assert_rows_are_the_cli_s(one_by_one, cli_rows)
    # And without a cluster, on this machine's threads.
    pd.testing.assert_frame_equal(schedlab.sweep(SCENARIO, GRID, seeds=SEEDS, cache=False), one_by_one)


def test_a_run_whose_policy_failed_is_the_cli_s_row_with_its_reason(schedsim, tmp_path):
    # A sched_ext policy that does not parse: its runs stop at once, and their rows say why, as the CLI's do.
    broken = {"kind": "ext", "source": "this is not ( javascript"}
    path = tmp_path / "s.json"
    path.write_text(json.dumps(SCENARIO), encoding="utf-8")
    policies = json.dumps({"kind": "cfs"}) + "," + json.dumps(broken)
    cli = schedsim("sweep", str(path), "--seeds", "1..2", "--set", f"policy={policies}", "--json")
    assert cli.returncode == 3, cli.stderr
    cli_rows = json.loads(cli.stdout)
    with pytest.warns(UserWarning, match=r"2 of 4 runs failed; the first, row 2 \(seed 1\)"):
        frame = schedlab.sweep(SCENARIO, {"policy": [{"kind": "cfs"}, broken]}, seeds="1..2", cache=False)
    assert [None if pd.isna(e) else e for e in frame["error"]] == [r["error"] for r in cli_rows]
    assert frame["error"].isna().tolist() == [True, False, True, False]
    assert frame["trace_hash"].tolist() == [r["trace_hash"] for r in cli_rows]
