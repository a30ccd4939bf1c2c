"""Seeds as the engine takes them: unsigned 64-bit integers, checked here so that a bad one is refused as a
scenario's bad field is (a ``ValueError`` naming it), not as pyo3's ``OverflowError`` on the way in."""

import operator
from typing import Any, Optional

from .errors import ScenarioError

MAX_SEED = 2**64 - 1


def seed_problem(seed: Any, field: str = "seed") -> Optional[str]:
    """Why ``seed`` is not a seed (None: it is one). Raises ``TypeError`` for a value that is not an integer."""
    if isinstance(seed, bool) or not hasattr(type(seed), "__index__"):
        raise TypeError(f"{field} is an integer, not {type(seed).__name__}")
    value = operator.index(seed)
    if 0 <= value <= MAX_SEED:
        return None
    return f"must be an integer from 0 to {MAX_SEED} (got {value})"


def checked_seed(seed: Any, field: str = "seed") -> Optional[int]:
    """``seed`` as an int for the engine, None kept (the scenario's own); else ``ScenarioError`` naming ``field``."""
    if seed is None:
        return None
    problem = seed_problem(seed, field)
    if problem is not None:
        raise ScenarioError(f"{field}: {problem}", [(field, problem)])
    return operator.index(seed)
