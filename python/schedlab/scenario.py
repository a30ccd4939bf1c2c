"""Scenarios as the engine reads them: JSON text, from a dict, a string or a file, and the built-in presets."""

import json
import os
from typing import Any, Dict, Union

from . import _engine

Scenario = Union[Dict[str, Any], str, "os.PathLike[str]"]


def scenario_text(scenario: Scenario) -> str:
    """The JSON text of a scenario given as a dict, as JSON text, or as the path of a JSON file."""
    if isinstance(scenario, dict):
        return json.dumps(scenario)
    if isinstance(scenario, os.PathLike):
        with open(scenario, encoding="utf-8") as f:
            return f.read()
    if isinstance(scenario, str):
        return scenario
    raise TypeError(f"a scenario is a dict, JSON text or a path, not {type(scenario).__name__}")


def presets() -> Dict[str, str]:
    """The built-in presets, name to title, in ``schedsim list``'s order."""
    return dict(_engine.preset_list())


def preset(name: str) -> Dict[str, Any]:
    """A built-in preset's scenario as a dict (``schedsim preset NAME``), to run or to change first."""
    return json.loads(_engine.preset_json(name))
