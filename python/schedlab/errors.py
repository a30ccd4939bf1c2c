"""The exception a refused scenario raises."""

from typing import List, Optional, Tuple


class ScenarioError(ValueError):
    """The engine refused the scenario.

    ``str(e)`` is the lines ``schedsim`` prints, one ``field: reason`` a problem
    (``processes[0].nice: must be between -20 and 19 (got 99)``); ``problems``
    holds the same as (field, reason) pairs, and ``field`` / ``reason`` the
    first one's, for code that checks which field was refused. Raised by ``run_batch``, ``index`` is the refused
    scenario's place in the batch and each line of the message starts ``scenarios[INDEX]: ``; the fields stay the
    scenario's own. ``index`` is None otherwise.
    """

    def __init__(self, message: str, problems: List[Tuple[str, str]], index: Optional[int] = None):
        super().__init__(message)
        self.problems = [(str(f), str(r)) for f, r in problems]
        self.index = index

    @property
    def field(self) -> str:
        return self.problems[0][0] if self.problems else ""

    @property
    def reason(self) -> str:
        return self.problems[0][1] if self.problems else ""


class SweepError(ValueError):
    """The engine refused the sweep: ``str(e)`` is the message ``schedsim sweep`` prints (a bad ``--set`` or
    ``--seeds``, too many runs, or the first combination of values the scenario refuses, naming its ``--set``)."""
