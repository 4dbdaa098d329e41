"""Shared fixtures for the photo pip counter tests."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("cv2", reason="the vision extra (OpenCV) is not installed")
pytest.importorskip("numpy", reason="the vision extra (numpy) is not installed")
pytest.importorskip("onnxruntime", reason="the vision extra (ONNX Runtime) is not installed")

#: Real photos, shared beside the repository (never copied into it).
PHOTOS = Path(__file__).parents[2].parent / "shared" / "photos"


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/vision/" in str(item.fspath).replace("\\", "/"):
            item.add_marker(pytest.mark.vision)


@pytest.fixture(scope="session")
def photos_dir() -> Path:
    if not (PHOTOS / "MANIFEST.tsv").exists():
        pytest.skip(f"real photos not available: {PHOTOS} is absent")
    return PHOTOS


@pytest.fixture(scope="session", autouse=True)
def readied_reader() -> None:
    """The pipeline readied before any test (as taking `read_hand` does): its warm-up
    reads a blank photo, which a test spying on the looks would otherwise count as its own."""
    from vision import pipeline

    pipeline.ready()
