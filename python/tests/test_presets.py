"""presets() and preset(name): every built-in scenario, as `schedsim list` and `schedsim preset` give them."""

import json

import pytest

import schedlab
from conftest import WASM_CORE


def test_presets_lists_every_preset_file():
    files = sorted(p.stem for p in (WASM_CORE / "presets").glob("*.json"))
    assert sorted(schedlab.presets()) == files
    assert all(title for title in schedlab.presets().values())


def test_preset_is_the_scenario_of_its_name():
    for name in schedlab.presets():
        scenario = schedlab.preset(name)
        assert scenario["name"] == name
        assert scenario == json.loads((WASM_CORE / "presets" / f"{name}.json").read_text(encoding="utf-8"))


def test_presets_in_schedsim_list_order(schedsim):
    listed = [line.split()[0] for line in schedsim("list").stdout.splitlines() if line.strip()]
    assert list(schedlab.presets()) == listed


def test_unknown_preset_is_a_key_error():
    with pytest.raises(KeyError, match="unknown preset 'nope'"):
        schedlab.preset("nope")
