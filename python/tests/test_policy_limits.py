"""A hostile sched_ext policy run from Python fails its run, never the process: its heap is counted against the same
64 MiB as under `schedsim` (a single request past twice that is let through and the policy ends at its next step),
and the engine's threads have `schedsim`'s 256 MiB stack, so a deep structure read by boa does not overflow it.

Each policy runs in a child Python: a crash (an abort, a stack overflow, the OOM killer) is then this test's failure
with the child's status and stderr, not the end of the test session. The engine's threads are the process's own: a
forked child starts its own rather than wait on threads it does not have.
"""

import json
import subprocess
import sys

import pytest

import schedlab

ALLOCATION_LOOP = (
    'function init() { var a = []; while (true) a.push({ n: a.length, s: "aaaaaaaaaaaaaaaa" + a.length }); }'
)
PROTOTYPE_CHAIN = "function init() { var o = {}; for (var i = 0; i < 100000; i++) o = Object.create(o); return o.x; }"
STRING_DOUBLING = 'function init() { var s = "x"; for (var i = 0; i < 40; i++) s = s + s; }'

MEMORY = "init: the policy's memory went past its limit of 64 MiB"


def with_policy(source: str) -> dict:
    """A small preset (one CPU, four tasks) for 50 ms under the policy."""
    s = schedlab.preset("cfs-nice-levels")
    s["policy"] = {"kind": "ext", "source": source}
    s["duration_ms"] = 50
    return s


CHILD = r"""
import json, sys
import schedlab

call, scenarios = sys.argv[1], json.loads(sys.stdin.read())
if call == "run":
    runs = [schedlab.run(scenarios[0])]
elif call == "run_batch":
    runs = schedlab.run_batch(scenarios)
elif call == "file":
    runs = [schedlab.run(sys.argv[2])]
else:  # the export replays the run in the engine
    runs = [schedlab.run(scenarios[0])]
    runs[0].to_perfetto(sys.argv[2])
print(json.dumps([{"notes": r.report["notes"], "trace_hash": r.trace_hash} for r in runs]))
"""


def in_a_child(call: str, sources, *extra: str):
    """What each run's report says, the runs made in a child Python by `call`; fails with the child's status and
    stderr if it did not exit 0."""
    try:
        child = subprocess.run(
            [sys.executable, "-c", CHILD, call, *extra],
            input=json.dumps([with_policy(s) for s in sources]),
            capture_output=True,
            text=True,
            timeout=600,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{call} did not end in 600 s")
    assert child.returncode == 0, f"the Python process ended with status {child.returncode}: {child.stderr[-3000:]}"
    return json.loads(child.stdout)


def policy_failure(notes) -> str:
    """The note that says the policy failed, or ''."""
    return next((n for n in notes if "the sched_ext policy failed" in n), "")


def test_an_allocation_loop_fails_its_policy_at_the_memory_limit():
    (run,) = in_a_child("run", [ALLOCATION_LOOP])
    assert MEMORY in policy_failure(run["notes"]), run["notes"]


def test_a_string_doubled_past_the_hard_cap_fails_its_policy_not_the_process():
    (run,) = in_a_child("run", [STRING_DOUBLING])
    assert MEMORY in policy_failure(run["notes"]), run["notes"]


def test_a_deep_prototype_chain_runs_and_its_export_too(tmp_path):
    (run,) = in_a_child("run", [PROTOTYPE_CHAIN])
    assert policy_failure(run["notes"]) == "", run["notes"]
    # chrome_trace replays the run in the engine: the same stack there.
    out = tmp_path / "proto.trace.json"
    (exported,) = in_a_child("chrome_trace", [PROTOTYPE_CHAIN], str(out))
    assert exported["trace_hash"] == run["trace_hash"]
    assert json.loads(out.read_text(encoding="utf-8"))["traceEvents"]


def test_a_deep_prototype_chain_gives_the_clis_trace_hash(schedsim, tmp_path):
    path = tmp_path / "proto.json"
    path.write_text(json.dumps(with_policy(PROTOTYPE_CHAIN)), encoding="utf-8")
    cli = schedsim("run", str(path), "--json")
    assert cli.returncode == 0, cli.stderr
    (run,) = in_a_child("run", [PROTOTYPE_CHAIN])
    assert run["trace_hash"] == json.loads(cli.stdout)["trace_hash"]


def test_a_batch_of_hostile_policies_keeps_its_order():
    sources = [ALLOCATION_LOOP, PROTOTYPE_CHAIN, STRING_DOUBLING]
    batch = in_a_child("run_batch", sources)
    assert len(batch) == 3
    assert MEMORY in policy_failure(batch[0]["notes"]), batch[0]["notes"]
    assert policy_failure(batch[1]["notes"]) == "", batch[1]["notes"]
    assert MEMORY in policy_failure(batch[2]["notes"]), batch[2]["notes"]
    # Each is the run `run` makes of it alone.
    alone = [in_a_child("run", [s])[0]["trace_hash"] for s in sources]
    assert [r["trace_hash"] for r in batch] == alone


def test_a_policy_file_nested_past_any_stack_is_refused_by_the_guard(tmp_path):
    # Read as `schedsim` reads it, the file's syntax is checked by boa's parser, which recurses on each bracket:
    # 30,000 of them would overflow even the engine's 256 MiB stack, so the guard refuses them unparsed.
    depth = 30_000
    (tmp_path / "deep.js").write_text(f"function enqueue(p) {{ var x = {'(' * depth}1{')' * depth}; }}\n")
    scenario = with_policy("")
    scenario["policy"] = {"kind": "ext", "source_file": "deep.js"}
    path = tmp_path / "deep.json"
    path.write_text(json.dumps(scenario), encoding="utf-8")
    (run,) = in_a_child("file", [], str(path))
    assert f"the policy's brackets nest {depth + 1} deep" in policy_failure(run["notes"]), run["notes"]


FORKED = r"""
import os, sys
import schedlab

s = schedlab.preset("cfs-nice-levels")
s["duration_ms"] = 50
parent = schedlab.run(s).trace_hash  # the parent's engine threads are started
pid = os.fork()
if pid == 0:  # the child has the parent's memory but none of its threads: it starts its own
    os._exit(0 if schedlab.run(s).trace_hash == parent else 1)
_, status = os.waitpid(pid, 0)
sys.exit(os.waitstatus_to_exitcode(status))
"""


def test_a_forked_child_runs_on_threads_of_its_own():
    try:
        child = subprocess.run([sys.executable, "-c", FORKED], capture_output=True, text=True, timeout=300)
    except subprocess.TimeoutExpired:
        pytest.fail("the forked child waited on its parent's engine threads")
    assert child.returncode == 0, child.stderr
