"""The sweep cache: one small JSON file per run, under a directory, named by the digest of what decides the run.

A run's row depends on the engine, the scenario as run (its seed and ``--set`` values written in) and the seed, and
on nothing else: the engine is deterministic. So the key is a SHA-256 of the engine's version (a digest of its
sources, ``_engine.engine_version()``), the scenario's canonical text (compact, keys sorted, as the engine writes
it) and the seed. A repeated sweep finds every row; an extended one (more seeds, another value) finds the runs it
shares with the earlier one, whatever the order or the grid they came in.

Only the run's own figures are stored, not the ``--set`` columns: those belong to the plan that asks (two plans can
reach one scenario, e.g. by setting a field to the value it already had).
"""

import hashlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any, Dict, Optional, Union

from . import _engine

CacheSpec = Union[bool, None, str, "os.PathLike[str]"]


def default_directory() -> Path:
    """``$SCHEDLAB_CACHE_DIR``, else ``$XDG_CACHE_HOME/schedlab/sweeps``, else ``~/.cache/schedlab/sweeps``."""
    if os.environ.get("SCHEDLAB_CACHE_DIR"):
        return Path(os.environ["SCHEDLAB_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "schedlab" / "sweeps"


def run_key(engine_version: str, scenario_text: str, seed: int) -> str:
    digest = hashlib.sha256()
    for part in (engine_version, scenario_text, str(seed)):
        # Each part's length first, so that no two different triples can write the same bytes.
        data = part.encode("utf-8")
        digest.update(len(data).to_bytes(8, "little"))
        digest.update(data)
    return digest.hexdigest()


class RowCache:
    """Rows by key in ``directory`` (made when first written to). Files are written whole and renamed into place,
    so a sweep interrupted, or two sweeps sharing the directory, never leave a half-written row behind."""

    def __init__(self, directory: Union[str, "os.PathLike[str]"]):
        self.directory = Path(directory)
        self.engine_version = _engine.engine_version()

    def key(self, scenario_text: str, seed: int) -> str:
        return run_key(self.engine_version, scenario_text, seed)

    def _path(self, key: str) -> Path:
        # Two hex digits of fan-out: a 10,000-run sweep is 256 directories of about 40 files, not one of 10,000.
        return self.directory / key[:2] / f"{key}.json"

    def get(self, key: str) -> Optional[Dict[str, Any]]:
        try:
            with open(self._path(key), encoding="utf-8") as f:
                stored = json.load(f)
        except (FileNotFoundError, json.JSONDecodeError):
            return None
        return stored.get("row") if stored.get("engine") == self.engine_version else None

    def put(self, key: str, row: Dict[str, Any]) -> None:
        path = self._path(key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            json.dump({"engine": self.engine_version, "row": row}, f)
        os.replace(tmp, path)


def open_cache(spec: CacheSpec) -> Optional[RowCache]:
    """``True``: the default directory; ``False`` or ``None``: no cache; a path: that directory."""
    if spec is True:
        return RowCache(default_directory())
    if spec is False or spec is None:
        return None
    return RowCache(spec)
