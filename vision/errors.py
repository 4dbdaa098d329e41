"""Exceptions raised by the photo pip counter."""

from __future__ import annotations

INSTALL_HINT = "install the vision extra: pip install -e '.[vision]'"


class PhotoError(ValueError):
    """The bytes given are not a photo the counter can read (empty, truncated, not an
    image, an image bomb, ...). The message (English) says what is wrong; `kind` sorts it
    for a caller that words it in the player's language: "not_image", "too_large",
    "too_small", "damaged" or "unreadable" (it could not be analysed)."""

    KINDS = ("not_image", "too_large", "too_small", "damaged", "unreadable")

    def __init__(self, message: str, kind: str = "unreadable") -> None:
        super().__init__(message)
        self.kind = kind


class VisionUnavailable(RuntimeError):
    """OpenCV, numpy, Pillow or ONNX Runtime is not installed (or cannot be loaded), so
    photos cannot be read."""

    def __init__(self, detail: str = "") -> None:
        message = "photo counting is not available: " + INSTALL_HINT
        if detail:
            message += f" ({detail})"
        super().__init__(message)
