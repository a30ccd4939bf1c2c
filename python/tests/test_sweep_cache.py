"""The sweep cache: a repeated sweep makes no run, an extended one makes only the runs it adds, and a row is found
by what decides it (engine, scenario as run, seed), not by the plan that asked for it."""

import pandas as pd

import schedlab
from schedlab import _engine
from schedlab.sweep_cache import run_key
from sweep_scenario import SCENARIO

GRID = {"processes.1.threads": [1, 3]}


def simulated_by(call):
    before = _engine.runs_simulated()
    frame = call()
    return frame, _engine.runs_simulated() - before


def test_an_extended_sweep_makes_only_the_runs_it_adds(tmp_path):
    small, made = simulated_by(lambda: schedlab.sweep(SCENARIO, GRID, seeds=range(1, 4), cache=tmp_path))
    assert made == 6 and small.attrs["simulated"] == 6
    # Two more seeds and one more value: 5 × 3 = 15 runs, of which the 6 above are in the cache.
    wider = {"processes.1.threads": [1, 3, 4]}
    large, made = simulated_by(lambda: schedlab.sweep(SCENARIO, wider, seeds="1..5", cache=tmp_path))
    assert made == 9 and large.attrs == {**large.attrs, "simulated": 9, "cached": 6}
    # The cached rows are the rows a sweep without the cache makes.
    fresh = schedlab.sweep(SCENARIO, wider, seeds="1..5", cache=False)
    pd.testing.assert_frame_equal(large, fresh)


def test_the_same_run_reached_by_another_plan_is_found(tmp_path):
    schedlab.sweep(SCENARIO, {"processes.1.threads": [2]}, seeds=7, cache=tmp_path)
    # The scenario's sleeper already has 2 threads: no --set reaches the same run.
    frame, made = simulated_by(lambda: schedlab.sweep(SCENARIO, seeds=7, cache=tmp_path))
    assert made == 0
    assert list(frame.columns[:2]) == ["seed", "events"]  # and the frame has no --set column the other plan had


def test_without_a_cache_every_run_is_made(tmp_path):
    for _ in range(2):
        _, made = simulated_by(lambda: schedlab.sweep(SCENARIO, GRID, seeds=range(1, 3), cache=False))
        assert made == 4


def test_the_key_changes_with_each_part():
    base = run_key("0.1.0+src.a", '{"seed":1}', 1)
    assert run_key("0.1.0+src.a", '{"seed":1}', 1) == base
    assert len({base, run_key("0.1.0+src.b", '{"seed":1}', 1), run_key("0.1.0+src.a", '{"seed":2}', 1),
                run_key("0.1.0+src.a", '{"seed":1}', 2)}) == 4


def test_the_engine_version_is_a_digest_of_its_sources():
    version = _engine.engine_version()
    crate, _, digest = version.partition("+src.")
    assert crate == "0.1.0" and len(digest) == 16 and int(digest, 16) >= 0
