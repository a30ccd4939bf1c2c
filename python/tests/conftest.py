"""Where the tests find the rest of the checkout: the golden snapshots, the presets' files and `schedsim`."""

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
WASM_CORE = ROOT / "wasm-core"


def golden_hash(preset: str) -> str:
    """The trace hash the engine's golden test pins for `preset` (wasm-core/tests/it/snapshots/)."""
    snap = WASM_CORE / "tests" / "it" / "snapshots" / f"it__golden__{preset}.snap"
    for line in snap.read_text(encoding="utf-8").splitlines():
        if line.startswith("trace_hash "):
            return line.split()[1]
    raise AssertionError(f"{snap} has no trace_hash line")


@pytest.fixture(scope="session")
def schedsim():
    """A runner of the native CLI: $SCHEDSIM, else wasm-core's release build; skips when neither is there
    (`npm test` builds it before these tests)."""
    exe = Path(os.environ.get("SCHEDSIM", WASM_CORE / "target" / "release" / "schedsim"))
    if not exe.is_file():
        pytest.skip(f"no schedsim binary at {exe} (cd wasm-core && cargo build --release --bin schedsim)")

    def call(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([str(exe), *args], capture_output=True, text=True, timeout=600)

    return call
