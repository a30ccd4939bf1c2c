"""Scenarios as the engine reads them: JSON text, from a dict, a string or a file, and the built-in presets."""

import json
import os
from typing import Any, Dict, Optional, Union

from . import _engine
from .errors import ScenarioError

Scenario = Union[Dict[str, Any], str, "os.PathLike[str]"]


def scenario_path(scenario: Scenario) -> Optional[str]:
    """The file's path when ``scenario`` names one: a path object, or a string that is not JSON text (a scenario's
    text is an object, so it starts with ``{``). None for a dict or JSON text; ``TypeError`` for anything else."""
    if isinstance(scenario, dict):
        return None
    if isinstance(scenario, os.PathLike):
        return os.fspath(scenario)
    if isinstance(scenario, str):
        return None if scenario.lstrip("\ufeff \t\r\n").startswith("{") else scenario
    raise TypeError(f"a scenario is a dict, JSON text or a path, not {type(scenario).__name__}")


def without_bom(text: str) -> str:
    """JSON text without a leading UTF-8 byte order mark, which Windows editors write and the engine's JSON parser
    refuses ("expected value at line 1 column 1"); a file is read without it too (``read_scenario``)."""
    return text[1:] if text.startswith("\ufeff") else text


def read_scenario(path: str) -> str:
    """The text of the scenario file at ``path`` as ``schedsim run FILE`` reads it: its size checked first, a byte
    order mark dropped, and a ``policy.source_file`` read, relative to the file, into ``policy.source``. A file that
    is not there raises ``FileNotFoundError``; a policy file that cannot be read, ``ScenarioError`` naming
    ``policy.source_file``."""
    try:
        return _engine.read_scenario(path)
    except _engine.InvalidScenario as e:
        raise ScenarioError(*e.args) from None


def scenario_text(scenario: Scenario) -> str:
    """The JSON text of a scenario given as a dict, as JSON text, or as the path of a JSON file."""
    if isinstance(scenario, dict):
        return json.dumps(scenario)
    path = scenario_path(scenario)
    return without_bom(scenario) if path is None else read_scenario(path)


def presets() -> Dict[str, str]:
    """The built-in presets, name to title, in ``schedsim list``'s order."""
    return dict(_engine.preset_list())


def preset(name: str) -> Dict[str, Any]:
    """A built-in preset's scenario as a dict (``schedsim preset NAME``), to run or to change first."""
    return json.loads(_engine.preset_json(name))
