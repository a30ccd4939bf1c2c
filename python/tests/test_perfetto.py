"""to_perfetto writes the run as Chrome / Perfetto trace JSON, the file `schedsim run --perfetto` writes."""

import json

import schedlab


def test_to_perfetto_writes_valid_json(tmp_path):
    out = tmp_path / "run.trace.json"
    written = schedlab.run(schedlab.preset("cfs-nice-levels")).to_perfetto(out)
    trace = json.loads(out.read_text(encoding="utf-8"))
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    assert written == len(events) > 0
    assert all("ph" in e for e in events)


def test_to_perfetto_is_what_schedsim_writes(schedsim, tmp_path):
    scenario = tmp_path / "s.json"
    scenario.write_text(json.dumps(schedlab.preset("cfs-nice-levels")), encoding="utf-8")
    cli_out, py_out = tmp_path / "cli.json", tmp_path / "py.json"
    assert schedsim("run", str(scenario), "--perfetto", str(cli_out)).returncode == 0
    schedlab.run(scenario).to_perfetto(py_out)
    assert py_out.read_bytes() == cli_out.read_bytes()
