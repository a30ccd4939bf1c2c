"""Every notebook under docs/notebooks runs from top to bottom on a fresh kernel (nbclient): a cell that raises, an
assertion of the notebook's own included, fails the test. Notebooks are kept without their outputs, so that a change
to one reads as a change to its code."""

import pytest

from conftest import ROOT

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = sorted((ROOT / "docs" / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert NOTEBOOKS, "docs/notebooks has no notebook"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_notebook_is_kept_without_outputs(path):
    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [] and cell.execution_count is None, f"{path.name}: strip the outputs"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_the_notebook_runs(path, monkeypatch):
    # Matplotlib draws off screen (the kernel inherits the variable; ipykernel keeps a backend that is set).
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    # The timeout only stops a cell that hangs; each of these takes seconds.
    client = nbclient.NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(path.parent)}}
    )
    client.execute()  # raises CellExecutionError, with the cell and its traceback, when a cell raises
    assert all(not any(o.get("output_type") == "error" for o in c.get("outputs", [])) for c in nb.cells)
