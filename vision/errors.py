"""Exceptions raised by the photo pip counter."""

from __future__ import annotations

INSTALL_HINT = "install the vision extra: pip install -e '.[vision]'"


class PhotoError(ValueError):
    """The bytes given are not a photo the counter can read (empty, truncated, not an
    image, an image bomb, ...). The message is meant to be shown to the player."""


class VisionUnavailable(RuntimeError):
    """OpenCV or numpy is not installed, so photos cannot be read."""

    def __init__(self, detail: str = "") -> None:
        message = "photo counting is not available: " + INSTALL_HINT
        if detail:
            message += f" ({detail})"
        super().__init__(message)
