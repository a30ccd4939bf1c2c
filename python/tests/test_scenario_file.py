"""A scenario file is read as `schedsim run FILE` reads it: its `policy.source_file` relative to the file, wherever
the caller's working directory is, and a path given as a string is a path."""

import json
import os
import shutil

import pytest

import schedlab
from conftest import WASM_CORE

SCENARIO = {
    "version": 1,
    "name": "ext-from-a-file",
    "duration_ms": 50,
    "machine": {"preset": "laptop-2c4t"},
    "policy": {"kind": "ext", "source_file": "policies/fifo.js"},
    "processes": [
        {"name": "hog", "program": [{"body": [{"run_us": 5000}]}]},
        {"name": "sleeper", "threads": 3, "program": [{"body": [{"run_us": {"exp": 300}}, {"sleep_us": {"exp": 900}}]}]},
    ],
}


@pytest.fixture
def scenario_dir(tmp_path, monkeypatch):
    """The scenario in a directory of its own with its policy beside it, the working directory elsewhere."""
    here = tmp_path / "study"
    (here / "policies").mkdir(parents=True)
    shutil.copy(WASM_CORE / "policies" / "global-fifo.js", here / "policies" / "fifo.js")
    (here / "s.json").write_text(json.dumps(SCENARIO), encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    return here


def test_the_policy_file_is_read_relative_to_the_scenario_file(scenario_dir, schedsim):
    path = scenario_dir / "s.json"
    cli = schedsim("run", str(path), "--json")
    assert cli.returncode == 0, cli.stderr
    want = json.loads(cli.stdout)
    for given in (path, str(path), os.path.relpath(path)):
        r = schedlab.run(given)
        assert r.report == want, given
    # It is the policy in the file that ran: the same scenario with the source inline is the same run.
    inline = dict(SCENARIO, policy={"kind": "ext", "source": (scenario_dir / "policies" / "fifo.js").read_text()})
    assert schedlab.run(inline).trace_hash == want["trace_hash"]
    # And a sweep of the file reads it too.
    assert schedlab.sweep(path, seeds=SCENARIO.get("seed", 1), cache=False)["trace_hash"][0] == want["trace_hash"]


def test_a_missing_policy_file_names_the_field_as_schedsim_does(scenario_dir, schedsim):
    (scenario_dir / "policies" / "fifo.js").unlink()
    path = scenario_dir / "s.json"
    cli = schedsim("run", str(path))
    assert cli.returncode != 0
    with pytest.raises(schedlab.ScenarioError) as refused:
        schedlab.run(path)
    assert refused.value.field == "policy.source_file"
    assert refused.value.reason.startswith('"policies/fifo.js": ')
    assert str(refused.value) in cli.stderr


def test_a_missing_scenario_file_is_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError):
        schedlab.run(tmp_path / "nope.json")
    with pytest.raises(FileNotFoundError):
        schedlab.run(str(tmp_path / "nope.json"))


def test_json_text_is_not_taken_for_a_path():
    text = json.dumps(schedlab.preset("cfs-nice-levels"), indent=1)
    assert schedlab.run("\n  " + text).trace_hash == schedlab.run(schedlab.preset("cfs-nice-levels")).trace_hash


def test_json_text_with_a_byte_order_mark_runs_as_a_file_with_one_does(tmp_path):
    # Windows editors start UTF-8 text with U+FEFF; the engine's JSON parser refuses it ("expected value at line 1
    # column 1"). Text handed over directly is read as a file is: without it.
    text = json.dumps(dict(SCENARIO, policy={"kind": "cfs"}))
    path = tmp_path / "bom.json"
    path.write_text("\ufeff" + text, encoding="utf-8")
    plain = schedlab.run(text)
    assert schedlab.run("\ufeff" + text).trace_hash == plain.trace_hash
    assert schedlab.run(str(path)).trace_hash == plain.trace_hash
    assert schedlab.run_batch(["\ufeff" + text])[0].trace_hash == plain.trace_hash
