"""schedlab: a deterministic Linux CPU scheduler simulator.

    import schedlab
    r = schedlab.run(schedlab.preset("cfs-nice-levels"))
    r.report["trace_hash"]        # the hash `schedsim run` prints
    r.processes, r.cpus           # pandas DataFrames, Arrow-backed
    r.to_perfetto("run.json")
    schedlab.sweep(scenario, {"processes.0.nice": [0, 5]}, seeds=range(1, 51))  # `schedsim sweep`'s rows

The same scenario and seed give the same run, here, in `schedsim` and in the browser.
"""

from typing import Optional

from . import _engine
from .errors import ScenarioError, SweepError
from .result import Run
from .scenario import Scenario, preset, presets, scenario_text
from .seeds import checked_seed
from .sweep import sweep

__all__ = ["run", "sweep", "preset", "presets", "Run", "ScenarioError", "SweepError"]


def run(scenario: Scenario, seed: Optional[int] = None) -> Run:
    """Runs ``scenario`` (a dict, JSON text or a file's path, read as ``schedsim`` reads it) to its end; ``seed``
    replaces the scenario's own.

    Raises ``ScenarioError`` naming each refused field (``seed`` too: an integer from 0 to 2**64 - 1). The engine
    runs without the GIL.
    """
    seed = checked_seed(seed)
    text = scenario_text(scenario)
    try:
        report_json = _engine.run(text, seed)
    except _engine.InvalidScenario as e:
        raise ScenarioError(*e.args) from None
    return Run(text, seed, report_json)
