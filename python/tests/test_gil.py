"""The engine runs without the GIL: other Python threads go on while a run or a batch is in the engine.

Shown by what must happen, not by timing. The engine is handed a scenario file that is a FIFO; it reads it as it
reads any scenario file, inside the one stretch without the GIL in which it also checks and runs every scenario of
the call (`py.allow_threads` in batch.rs). Only the main thread writes the FIFO, so the call cannot return before
that thread has run Python code again, which it can do only while the engine does not hold the GIL. Holding it, the
two threads would wait for each other for ever: the check runs in a child process, so that such a deadlock fails
the test at the child's timeout instead of hanging the session. A working engine never comes near the timeout,
however loaded the machine.
"""

import json
import subprocess
import sys

import pytest

from conftest import golden_hash

CHILD = r"""
import json, os, sys, threading
import schedlab

fifo, call = sys.argv[1], sys.argv[2]
scenario = schedlab.preset("cfs-nice-levels")
os.mkfifo(fifo)
hashes = []

def in_the_engine():
    if call == "run":
        hashes.append(schedlab.run(fifo).trace_hash)
    else:
        hashes.extend(r.trace_hash for r in schedlab.run_batch([scenario, fifo, scenario], seeds=[None, None, 1]))

worker = threading.Thread(target=in_the_engine)
worker.start()
# open() waits, without the GIL, for the engine to open the FIFO; writing it then needs the GIL.
with open(fifo, "w", encoding="utf-8") as f:
    f.write(json.dumps(scenario))
worker.join()
print(json.dumps(hashes))
"""


@pytest.mark.parametrize("call, runs", [("run", 1), ("run_batch", 3)])
def test_another_thread_runs_python_while_the_engine_works(call, runs, tmp_path):
    try:
        child = subprocess.run(
            [sys.executable, "-c", CHILD, str(tmp_path / "scenario.json"), call],
            capture_output=True,
            text=True,
            timeout=600,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{call} held the GIL: the thread that writes its scenario never ran")
    assert child.returncode == 0, child.stderr
    # The scenario the main thread wrote is the one that ran (cfs-nice-levels' seed is 1).
    assert json.loads(child.stdout) == [golden_hash("cfs-nice-levels")] * runs
