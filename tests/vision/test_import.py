"""`import vision` is cheap and does not need OpenCV; a missing OpenCV or ONNX Runtime is
reported clearly."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from tools.generators.synthetic_photos import make_photo

ROOT = Path(__file__).resolve().parents[2]


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_import_does_not_load_cv2():
    r = _run("import sys, vision; assert 'cv2' not in sys.modules, 'cv2 imported'; "
             "assert 'flask' not in sys.modules and 'referee' not in sys.modules; print('ok')")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


@pytest.mark.parametrize("missing", ["cv2", "onnxruntime"])
def test_vision_unavailable_without_cv2_or_onnxruntime(missing):
    r = _run(f"import sys; sys.modules['{missing}'] = None\n"
             "import vision\n"
             "try:\n"
             "    vision.read_hand(b'x')\n"
             "except vision.VisionUnavailable as e:\n"
             "    assert isinstance(e, RuntimeError)\n"
             "    print(e)\n")
    assert r.returncode == 0, r.stderr
    assert "pip install -e '.[vision]'" in r.stdout


def test_reading_does_not_import_web_layer():
    """No module of the package imports Flask or the web app."""
    r = _run("import importlib, pkgutil, sys, vision\n"
             "for m in pkgutil.iter_modules(vision.__path__):\n"
             "    importlib.import_module('vision.' + m.name)\n"
             "assert 'vision.pipeline' in sys.modules\n"
             "assert 'flask' not in sys.modules and 'referee' not in sys.modules\n"
             "print('ok')")
    assert r.returncode == 0, r.stderr


def test_errors_are_the_documented_types():
    import vision

    assert issubclass(vision.PhotoError, ValueError)
    assert issubclass(vision.VisionUnavailable, RuntimeError)


@pytest.mark.parametrize("network", ["tile_net.WEIGHTS", "tile_finder.WEIGHTS", "tile_finder.TABLE_WEIGHTS"])
def test_each_trained_network_ships_with_the_package(network):
    """Each trained network (the tile network, the hands' finder, the tables' finder) is
    a file of the package, small, and named in the package data (or a wheel would leave
    it out and every reading would fail)."""
    import importlib
    import tomllib

    module, name = network.split(".")
    weights = getattr(importlib.import_module(f"vision.{module}"), name)
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert weights.name in config["tool"]["setuptools"]["package-data"]["vision"]
    assert weights.parent == ROOT / "vision"
    assert 0 < weights.stat().st_size < 2_000_000


def test_taking_read_hand_readies_the_reader_and_import_alone_does_not():
    """`from vision import read_hand` loads OpenCV and the three networks before the first photo
    (pipeline.ready), so that a photo read first in a fresh process is not charged for them;
    `import vision` alone loads neither (the web app only checks the extra is there)."""
    r = _run("import sys, vision\n"
             "assert 'onnxruntime' not in sys.modules\n"
             "from vision import read_hand\n"
             "from vision import pipeline, tile_net\n"
             "assert pipeline._readied and tile_net._session.cache_info().currsize == 3\n"
             "assert 'numpy.ma' in sys.modules  # the warm-up ran to its end\n"
             "assert read_hand.__name__ == 'read_hand' and vision.read_hand is read_hand\n"
             "print('ok')")
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "ok"


def test_a_network_that_cannot_be_loaded_is_answered_as_an_unavailable_counter(tmp_path):
    """A damaged network file: taking read_hand still works, and reading a photo says the
    counter cannot be used (VisionUnavailable, which the app answers as a missing extra),
    not that the photo is at fault; each reading tries the networks again."""
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(make_photo(np.random.default_rng(7), n_tiles=4, size=(1000, 750), style="ivory",
                                 background="felt", layout="scatter").encode("jpeg"))
    bad = tmp_path / "net.onnx"
    bad.write_bytes(b"not a network")
    r = _run("import vision\n"
             "from pathlib import Path\n"
             "from vision import tile_finder, tile_net\n"
             f"tile_net.WEIGHTS = tile_finder.WEIGHTS = Path({str(bad)!r})\n"
             "from vision import read_hand\n"
             "for _ in range(2):\n"
             "    try:\n"
             f"        read_hand(Path({str(photo)!r}).read_bytes())\n"
             "    except vision.VisionUnavailable as e:\n"
             "        print('refused:', e)\n")
    assert r.returncode == 0, r.stderr
    assert r.stdout.count("refused: photo counting is not available") == 2
    assert "its networks could not be loaded" in r.stdout
