"""A run here is the run `schedsim` makes: same scenario and seed, same trace hash."""

import json

import schedlab
from conftest import golden_hash

# A small scenario that draws from the seeded PRNG (exponential sleeps), so its seed moves its trace.
RANDOM_SLEEPS = {
    "version": 1,
    "name": "random-sleeps",
    "duration_ms": 200,
    "machine": {"preset": "laptop-2c4t"},
    "policy": {"kind": "cfs"},
    "processes": [
        {"name": "hog", "program": [{"body": [{"run_us": 100000}]}]},
        {"name": "sleeper", "threads": 3, "program": [{"body": [{"run_us": {"exp": 800}}, {"sleep_us": {"exp": 3000}}]}]},
    ],
}


def test_preset_hash_is_the_golden_one():
    r = schedlab.run(schedlab.preset("cfs-nice-levels"))
    assert r.report["trace_hash"] == golden_hash("cfs-nice-levels")


def test_preset_hash_is_the_one_schedsim_run_prints(schedsim, tmp_path):
    scenario = tmp_path / "s.json"
    scenario.write_text(schedsim("preset", "cfs-nice-levels").stdout, encoding="utf-8")
    cli = schedsim("run", str(scenario), "--json")
    assert cli.returncode == 0, cli.stderr
    cli_report = json.loads(cli.stdout)
    r = schedlab.run(schedlab.preset("cfs-nice-levels"))
    assert r.report["trace_hash"] == cli_report["trace_hash"]
    # Not only the hash: the whole report is the CLI's.
    assert r.report == cli_report


def test_a_scenario_as_text_or_file_runs_as_the_dict(tmp_path):
    scenario = schedlab.preset("cfs-nice-levels")
    path = tmp_path / "s.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    want = schedlab.run(scenario).trace_hash
    assert schedlab.run(json.dumps(scenario)).trace_hash == want
    assert schedlab.run(path).trace_hash == want


def test_same_seed_same_hash_other_seed_other_hash():
    a = schedlab.run(RANDOM_SLEEPS, seed=7)
    b = schedlab.run(RANDOM_SLEEPS, seed=7)
    c = schedlab.run(RANDOM_SLEEPS, seed=8)
    assert a.report["seed"] == 7 and c.report["seed"] == 8
    assert a.trace_hash == b.trace_hash
    assert a.trace_hash != c.trace_hash
    # The override is the scenario's own seed field set to it.
    assert schedlab.run(dict(RANDOM_SLEEPS, seed=8)).trace_hash == c.trace_hash


def test_seed_override_is_the_run_schedsim_sweep_makes(schedsim, tmp_path):
    path = tmp_path / "s.json"
    path.write_text(json.dumps(RANDOM_SLEEPS), encoding="utf-8")
    cli = schedsim("sweep", str(path), "--seeds", "7..8", "--json")
    assert cli.returncode == 0, cli.stderr
    rows = json.loads(cli.stdout)
    assert [row["trace_hash"] for row in rows] == [schedlab.run(RANDOM_SLEEPS, seed=s).trace_hash for s in (7, 8)]
