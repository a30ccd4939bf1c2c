"""schedlab: a deterministic Linux CPU scheduler simulator.

    import schedlab
    r = schedlab.run(schedlab.preset("cfs-nice-levels"))
    r.report["trace_hash"]        # the hash `schedsim run` prints
    r.processes, r.cpus           # pandas DataFrames, Arrow-backed
    r.to_perfetto("run.json")
    schedlab.run_batch([a, b, c], seeds=[1, 2, 3])  # many runs at once on every core, in order
    schedlab.sweep(scenario, {"processes.0.nice": [0, 5]}, seeds=range(1, 51))  # `schedsim sweep`'s rows

The same scenario and seed give the same run, here, in `schedsim` and in the browser.
"""

from .errors import ScenarioError, SweepError
from .result import Run
from .runs import run, run_batch
from .scenario import preset, presets
from .sweep import sweep

__all__ = ["run", "run_batch", "sweep", "preset", "presets", "Run", "ScenarioError", "SweepError"]
