"""run_batch: many runs at once, each the run `run` makes of its scenario and seed, in the order given; a refused
scenario raises what `run` raises for it, naming its place in the batch, before anything runs."""

import json

import pytest

import schedlab
from test_hash import RANDOM_SLEEPS


def batch_and_seeds(tmp_path):
    """Scenarios of every kind `run` takes, the longest first, so that runs finish out of the order given."""
    path = tmp_path / "sleeps.json"
    path.write_text(json.dumps(RANDOM_SLEEPS), encoding="utf-8")
    scenarios = [schedlab.preset("gi-colocation"), schedlab.preset("group-imbalance-make")]
    scenarios += [RANDOM_SLEEPS, json.dumps(RANDOM_SLEEPS), path, str(path)] * 3
    scenarios += [schedlab.preset("cfs-nice-levels")]
    seeds = [None, 3] + list(range(1, 13)) + [None]
    return scenarios, seeds


def test_a_batch_is_the_runs_one_by_one_in_order(tmp_path):
    scenarios, seeds = batch_and_seeds(tmp_path)
    batch = schedlab.run_batch(scenarios, seeds)
    one_by_one = [schedlab.run(s, seed) for s, seed in zip(scenarios, seeds)]
    assert len(batch) == len(scenarios)
    assert [r.trace_hash for r in batch] == [r.trace_hash for r in one_by_one]
    for got, want in zip(batch, one_by_one):
        assert got.report == want.report
    # Not one run repeated: the seeds and scenarios make other runs, in the order given.
    assert len({r.trace_hash for r in batch}) == len(batch)
    assert [r.report["scenario"] for r in batch[:3]] == ["gi-colocation", "group-imbalance-make", "random-sleeps"]
    assert [r.seed for r in batch[2:14]] == list(range(1, 13))


def test_seeds_none_one_for_all_or_one_each():
    scenarios = [RANDOM_SLEEPS, dict(RANDOM_SLEEPS, seed=5)]
    assert [r.seed for r in schedlab.run_batch(scenarios)] == [1, 5]
    assert [r.seed for r in schedlab.run_batch(scenarios, seeds=9)] == [9, 9]
    assert [r.seed for r in schedlab.run_batch(scenarios, seeds=[None, 2])] == [1, 2]
    assert [r.trace_hash for r in schedlab.run_batch(scenarios, seeds=range(7, 9))] == [
        schedlab.run(RANDOM_SLEEPS, seed=7).trace_hash,
        schedlab.run(RANDOM_SLEEPS, seed=8).trace_hash,
    ]
    assert schedlab.run_batch([]) == []
    with pytest.raises(ValueError, match="3 seeds for 2 scenarios"):
        schedlab.run_batch(scenarios, seeds=[1, 2, 3])


def nice(value):
    s = schedlab.preset("cfs-nice-levels")
    s["processes"][0]["nice"] = value
    return s


def test_a_refused_scenario_raises_what_run_raises_naming_its_index():
    with pytest.raises(schedlab.ScenarioError) as alone:
        schedlab.run(nice(99))
    # Two refused: the first by index is the one named.
    with pytest.raises(schedlab.ScenarioError) as caught:
        schedlab.run_batch([nice(0), RANDOM_SLEEPS, nice(99), nice(-99)])
    e = caught.value
    assert e.index == 2 and alone.value.index is None
    assert e.problems == alone.value.problems and e.field == "processes[0].nice"
    assert str(e) == "scenarios[2]: " + str(alone.value)


def test_every_line_of_a_refusal_names_the_index():
    s = nice(99)
    s["processes"][1]["nice"] = -21
    with pytest.raises(schedlab.ScenarioError) as caught:
        schedlab.run_batch([RANDOM_SLEEPS, s])
    lines = str(caught.value).splitlines()
    assert len(lines) == len(caught.value.problems) >= 2
    assert lines == [f"scenarios[1]: {f}: {r}" for f, r in caught.value.problems]


def test_a_bad_seed_or_file_names_its_index(tmp_path):
    with pytest.raises(schedlab.ScenarioError) as caught:
        schedlab.run_batch([RANDOM_SLEEPS] * 3, seeds=[1, None, -1])
    assert caught.value.index == 2 and caught.value.field == "seed"
    assert str(caught.value).startswith("scenarios[2]: seed: must be an integer from 0 to")
    with pytest.raises(FileNotFoundError, match=r"^scenarios\[1\]: cannot read .*nope\.json"):
        schedlab.run_batch([RANDOM_SLEEPS, tmp_path / "nope.json"])
    with pytest.raises(TypeError, match=r"^scenarios\[1\]: a scenario is a dict"):
        schedlab.run_batch([RANDOM_SLEEPS, 42])
    with pytest.raises(TypeError, match="run one with schedlab.run"):
        schedlab.run_batch(RANDOM_SLEEPS)
