"""A finished run: its report, its tables, and the export of its trace."""

import json
import os
import warnings
from functools import cached_property
from typing import Any, Dict, Optional, Union

import pandas as pd

from . import _engine
from .frames import cpus_frame, processes_frame


class Run:
    """One run of a scenario to its end.

    ``report`` is the report of ``schedsim run --json`` as a dict (``report["trace_hash"]`` the run's
    fingerprint); ``processes`` and ``cpus`` are its per-process and per-CPU tables.
    """

    def __init__(self, text: str, seed: Optional[int], report_json: str):
        # The scenario's text and seed, kept so that the export can replay exactly this run.
        self._text = text
        self._seed = seed
        self.report: Dict[str, Any] = json.loads(report_json)

    @property
    def seed(self) -> int:
        return self.report["seed"]

    @property
    def trace_hash(self) -> str:
        return self.report["trace_hash"]

    @cached_property
    def processes(self) -> pd.DataFrame:
        return processes_frame(self.report)

    @cached_property
    def cpus(self) -> pd.DataFrame:
        return cpus_frame(self.report)

    def to_perfetto(self, path: Union[str, "os.PathLike[str]"]) -> int:
        """Writes the run as Chrome / Perfetto trace JSON (``schedsim run --perfetto``); returns the number of
        trace events written. Past 500,000 the export stops, with a warning saying when."""
        text, events, cut_at_ns = _engine.chrome_trace(self._text, self._seed, self.report["events"])
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        if cut_at_ns is not None:
            warnings.warn(f"the trace stops at {cut_at_ns / 1e6:.3f} ms: the export's cap is 500000 events")
        return events

    def __repr__(self) -> str:
        r = self.report
        return f"<schedlab.Run {r['scenario']!r} seed={r['seed']} events={r['events']} trace_hash={r['trace_hash']}>"
