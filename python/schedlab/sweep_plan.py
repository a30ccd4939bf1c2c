"""A sweep's plan as ``schedsim sweep`` reads it: the scenario text, the seed range and the ``--set`` arguments.

The engine expands and checks the plan (``_engine.sweep_plan``); this module only turns Python's grid and seeds
into the CLI's arguments, so that ``{"processes.0.nice": [0, 5]}`` is ``--set processes.0.nice=0,5``.
"""

import json
from dataclasses import dataclass
from typing import Any, List, Mapping, Optional, Tuple, Union

from . import _engine
from .errors import ScenarioError, SweepError
from .seeds import seed_problem

Seeds = Union[None, int, range, str]


@dataclass(frozen=True)
class PlanArgs:
    """What rebuilds the plan anywhere (a Dask worker too): plain strings and integers, which pickle."""

    text: str
    seeds: Optional[Tuple[int, int]]
    specs: Tuple[str, ...]

    def call(self, engine_fn, *more):
        """``engine_fn(text, seeds, specs, *more)``, the engine's refusals raised as the package's exceptions."""
        try:
            return engine_fn(self.text, self.seeds, list(self.specs), *more)
        except _engine.SweepError as e:
            raise SweepError(str(e)) from None
        except _engine.InvalidScenario as e:
            raise ScenarioError(*e.args) from None


def set_spec(path: str, values: Any) -> str:
    """One ``--set`` argument. A string is the CLI's own text (``"100,250"``: two values, each JSON or else a
    string); a list or tuple is the values themselves, each written as JSON; anything else is one JSON value."""
    if isinstance(values, str):
        return f"{path}={values}"
    if not isinstance(values, (list, tuple)):
        values = [values]
    return f"{path}=" + ",".join(json.dumps(v, separators=(",", ":")) for v in values)


def seed_range(seeds: Seeds) -> Optional[Tuple[int, int]]:
    """``--seeds``: None (the scenario's own seed), one seed, a ``range`` of step 1, or the CLI's ``"A..B"``."""
    if seeds is None:
        return None
    if isinstance(seeds, bool):
        raise TypeError("seeds is an int, a range, 'A..B' or None, not a bool")
    if isinstance(seeds, int):
        return _checked((seeds, seeds), seeds)
    if isinstance(seeds, range):
        if seeds.step != 1 or seeds.stop <= seeds.start:  # not len(): a range past 2**63 has none
            raise SweepError(f"seeds {seeds!r}: a sweep's seeds are a non-empty range of step 1")
        return _checked((seeds.start, seeds.stop - 1), seeds)
    if isinstance(seeds, str):
        try:
            return _engine.sweep_seeds(seeds)
        except _engine.SweepError as e:
            raise SweepError(str(e)) from None
    raise TypeError(f"seeds is an int, a range, 'A..B' or None, not {type(seeds).__name__}")


def _checked(bounds: Tuple[int, int], seeds: Any) -> Tuple[int, int]:
    """``bounds`` when both are seeds, else ``SweepError`` (not the ``OverflowError`` the engine's call would raise)."""
    for bound in bounds:
        problem = seed_problem(bound)
        if problem is not None:
            raise SweepError(f"seeds {seeds!r}: every seed {problem}")
    return bounds


@dataclass(frozen=True)
class Plan:
    """The checked plan: its arguments, its size and its columns."""

    args: PlanArgs
    runs: int
    seeds: Tuple[int, int]
    set_paths: List[str]
    process_names: List[str]


def make_plan(text: str, grid: Optional[Mapping[str, Any]], seeds: Seeds) -> Plan:
    """The plan of ``text`` over ``grid`` and ``seeds``, checked as ``schedsim sweep`` checks it before any run."""
    specs = tuple(set_spec(path, values) for path, values in (grid or {}).items())
    args = PlanArgs(text, seed_range(seeds), specs)
    runs, resolved, paths, names = args.call(_engine.sweep_plan)
    # From here on the seed range is explicit: a worker need not read the scenario's own seed again.
    return Plan(PlanArgs(text, tuple(resolved), specs), runs, tuple(resolved), list(paths), list(names))

