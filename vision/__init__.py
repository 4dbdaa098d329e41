"""Photo pip counter for dominoes (OpenCV), independent of the web app.

    from vision import read_hand
    hand = read_hand(photo_bytes)
    hand.tiles        # [Tile(a, b, polygon, confidence), ...]
    hand.pips         # raw total, [0|0] counts 0
    hand.annotated()  # JPEG bytes with every tile outlined and labelled

Importing this package does not import OpenCV (the web app checks that the extra is
installed without loading it). Taking `read_hand` from it (`from vision import read_hand`)
loads the reader, OpenCV, ONNX Runtime and the two networks, and readies them on a blank
photo (reader.ready: about 0.2 s, once), so that the first photo is then read as fast as
the next; used as `vision.read_hand(data)`, the first call does that before reading.
`read_hand` raises VisionUnavailable (a RuntimeError) with an install hint when OpenCV,
numpy, Pillow or ONNX Runtime is missing, or a network cannot be loaded.
Unreadable input raises PhotoError (a ValueError) with a readable message.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from .errors import INSTALL_HINT, PhotoError, VisionUnavailable

if TYPE_CHECKING:  # handed out by __getattr__ (below), when first asked for
    from .result import Hand

__all__ = ["read_hand", "read_file", "PhotoError", "VisionUnavailable", "INSTALL_HINT", "REQUIRED", "Hand", "Tile"]

#: The modules of the vision extra that reading needs (a caller such as the web app checks
#: they are installed before offering to read a photo).
REQUIRED = ("cv2", "numpy", "onnxruntime", "PIL.Image")


def _reader():
    try:
        for name in REQUIRED:
            importlib.import_module(name)
    except ImportError as exc:
        raise VisionUnavailable(str(exc)) from None
    from . import reader

    return reader


def _read_hand(data: bytes):
    """Read the tiles in a photo of a hand laid face up. Returns a `Hand` with `.tiles`,
    `.pips` and `.annotated()`. Raises PhotoError for bytes that are not a readable photo
    and VisionUnavailable when OpenCV or ONNX Runtime is not installed."""
    reader = _reader()
    reader.ready()
    return reader.read_hand_bytes(data)


_read_hand.__name__ = _read_hand.__qualname__ = "read_hand"


def read_file(path) -> Hand:
    """read_hand on the contents of a file."""
    from pathlib import Path

    try:
        data = Path(path).read_bytes()
    except OSError as exc:
        raise PhotoError(f"cannot open {path}: {exc.strerror or exc}") from None
    return _read_hand(data)


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def __getattr__(name: str):
    if name == "read_hand":
        # handed out here, not defined above, so that taking it readies the reader; one
        # that cannot be readied says why when read_hand is called (it readies it first)
        try:
            _reader().ready()
        except Exception:
            pass
        globals()["read_hand"] = _read_hand
        return _read_hand
    if name in ("Hand", "Tile"):
        from . import result

        return getattr(result, name)
    raise AttributeError(name)
