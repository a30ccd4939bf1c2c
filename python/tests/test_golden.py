"""Every preset's trace hash is the one the engine's golden test pins (wasm-core/tests/it/snapshots/): the
binding adds nothing to a run and leaves nothing out."""

import pytest

import schedlab
from conftest import golden_hash


@pytest.mark.parametrize("name", list(schedlab.presets()))
def test_preset_hash_is_golden(name):
    assert schedlab.run(schedlab.preset(name)).trace_hash == golden_hash(name)
