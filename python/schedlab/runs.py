"""``run`` and ``run_batch``: scenarios run to their end by the engine, a batch on every core, without the GIL."""

import json
import numbers
import os
from typing import Any, Iterable, List, Optional, Sequence, Tuple

from . import _engine
from .errors import ScenarioError
from .result import Run
from .scenario import Scenario, scenario_path, without_bom
from .seeds import checked_seed, seed_problem


def _source(scenario: Scenario) -> Tuple[str, str]:
    """What the engine is handed: ("file", path), read there as ``schedsim`` reads it, or ("text", JSON text)."""
    path = scenario_path(scenario)
    if path is not None:
        return ("file", path)
    return ("text", json.dumps(scenario) if isinstance(scenario, dict) else without_bom(scenario))


def _alone(refused: BaseException) -> BaseException:
    """The exception ``run`` raises for a scenario the engine refused."""
    if isinstance(refused, _engine.InvalidScenario):
        return ScenarioError(*refused.args)
    return refused  # the file could not be read: OSError, FileNotFoundError...


def _in_batch(index: int, refused: BaseException) -> BaseException:
    """The same exception, its message naming the scenario's place in the batch."""
    where = f"scenarios[{index}]: "
    if isinstance(refused, ScenarioError):
        lines = str(refused).splitlines() or [""]
        return ScenarioError("\n".join(where + line for line in lines), refused.problems, index)
    return type(refused)(where + str(refused))


def run(scenario: Scenario, seed: Optional[int] = None) -> Run:
    """Runs ``scenario`` (a dict, JSON text or a file's path, read as ``schedsim`` reads it) to its end; ``seed``
    replaces the scenario's own.

    Raises ``ScenarioError`` naming each refused field (``seed`` too: an integer from 0 to 2**64 - 1). The engine
    runs without the GIL.
    """
    seed = checked_seed(seed)
    try:
        ((text, report),) = _engine.run_batch([_source(scenario)], [seed])
    except _engine.BatchRefused as e:
        raise _alone(e.args[1]) from None
    return Run(text, seed, report)


def _batch_seeds(seeds: Any, count: int) -> List[Optional[int]]:
    """One seed (or None) per scenario: None for every scenario's own, one integer for all, or one each."""
    if seeds is None:
        return [None] * count
    if isinstance(seeds, (str, bytes)):
        raise TypeError("seeds is None, an integer, or one seed (or None) per scenario, not a string")
    if isinstance(seeds, numbers.Integral):
        return [checked_seed(seeds)] * count
    each = list(seeds)
    if len(each) != count:
        raise ValueError(f"{len(each)} seeds for {count} scenarios: give one per scenario, one for all, or None")
    for i, seed in enumerate(each):
        problem = None if seed is None else seed_problem(seed)
        if problem is not None:
            raise ScenarioError(f"scenarios[{i}]: seed: {problem}", [("seed", problem)], i)
    return [checked_seed(seed) for seed in each]


def run_batch(scenarios: Iterable[Scenario], seeds: Any = None) -> List[Run]:
    """Runs every scenario to its end, at once on this machine's cores (rayon's threads, ``RAYON_NUM_THREADS`` caps
    them), without the GIL, and returns their runs in the scenarios' order: ``run_batch(s, seeds)[i]`` is
    ``run(s[i], seeds[i])``, the same report and trace hash.

    ``seeds``: None (each scenario's own), one integer for every scenario, or a sequence of one seed (or None) per
    scenario. Every scenario is read and checked before any runs: the first refused one (by index) raises what
    ``run`` raises for it — ``ScenarioError`` with the same fields, its ``index`` set and each line of its message
    starting ``scenarios[INDEX]: `` — and nothing runs.
    """
    if isinstance(scenarios, (dict, str, os.PathLike)):
        raise TypeError("run_batch takes a sequence of scenarios; run one with schedlab.run")
    scenarios = list(scenarios)
    each_seed = _batch_seeds(seeds, len(scenarios))
    sources: List[Tuple[str, str]] = []
    for i, scenario in enumerate(scenarios):
        try:
            sources.append(_source(scenario))
        except TypeError as e:
            raise TypeError(f"scenarios[{i}]: {e}") from None
    try:
        done: Sequence[Tuple[str, str]] = _engine.run_batch(sources, each_seed)
    except _engine.BatchRefused as e:
        index, refused = e.args
        raise _in_batch(index, _alone(refused)) from None
    return [Run(text, seed, report) for (text, report), seed in zip(done, each_seed)]
