"""A refused scenario raises ScenarioError with the field path and the message `schedsim` prints."""

import json

import pytest

import schedlab


def nice_99():
    s = schedlab.preset("cfs-nice-levels")
    s["processes"][0]["nice"] = 99
    return s


def test_refusal_names_the_field():
    with pytest.raises(schedlab.ScenarioError) as caught:
        schedlab.run(nice_99())
    e = caught.value
    assert isinstance(e, ValueError)
    assert e.field == "processes[0].nice"
    assert e.reason == "must be between -20 and 19 (got 99)"
    assert str(e) == "processes[0].nice: must be between -20 and 19 (got 99)"
    assert e.problems == [("processes[0].nice", "must be between -20 and 19 (got 99)")]


def test_every_problem_is_listed():
    s = nice_99()
    s["processes"][1]["nice"] = -21
    with pytest.raises(schedlab.ScenarioError) as caught:
        schedlab.run(s)
    fields = [f for f, _ in caught.value.problems]
    assert "processes[0].nice" in fields and "processes[1].nice" in fields
    assert str(caught.value).splitlines() == [f"{f}: {r}" for f, r in caught.value.problems]


def test_text_that_is_not_json_is_refused_with_a_field():
    with pytest.raises(schedlab.ScenarioError) as caught:
        schedlab.run('{"version": 1, "duration_ms": "long"}')
    assert caught.value.field


def test_the_message_is_what_schedsim_prints(schedsim, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(nice_99()), encoding="utf-8")
    cli = schedsim("run", str(path))
    assert cli.returncode == 2
    with pytest.raises(schedlab.ScenarioError) as caught:
        schedlab.run(nice_99())
    # schedsim prints a header naming the file, then each problem indented by two spaces.
    assert cli.stderr.splitlines()[1:] == ["  " + line for line in str(caught.value).splitlines()]


def test_a_scenario_of_another_type_is_a_type_error():
    with pytest.raises(TypeError):
        schedlab.run(42)


@pytest.mark.parametrize("seed", [-1, 2**64, -(2**70)])
def test_a_seed_out_of_range_is_refused_as_a_field(seed):
    # pyo3 alone raises OverflowError here, which is not a ValueError and names no field.
    with pytest.raises(schedlab.ScenarioError) as caught:
        schedlab.run(schedlab.preset("cfs-nice-levels"), seed=seed)
    assert caught.value.field == "seed"
    assert str(caught.value) == f"seed: must be an integer from 0 to {2**64 - 1} (got {seed})"


def test_the_largest_seed_runs_and_a_seed_that_is_not_an_integer_is_a_type_error():
    assert schedlab.run(schedlab.preset("cfs-nice-levels"), seed=2**64 - 1).seed == 2**64 - 1
    for bad in ("7", 7.0, True):
        with pytest.raises(TypeError):
            schedlab.run(schedlab.preset("cfs-nice-levels"), seed=bad)
