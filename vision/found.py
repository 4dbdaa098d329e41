"""A tile read, as the looks and the tile network pass it on to one another: its outline
on the photo read, its two halves' pips and how sure the reading is."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class Found:
    """A tile read: its outline on the photo the looks were made on (TileBox.corners
    order), the pips of the half at its (-u,-n) end and of the other, its confidence,
    and `rival`: the confidence of the surest reading of another tile there by another of
    the network's boxes of about its size, from network_look.RIVAL up (see
    network_look._strongest; 0 for none)."""

    corners: np.ndarray
    top: int
    bottom: int
    confidence: float
    rival: float = 0.0
    #: For a tile only the network read, with a blank half: its confidence before it was
    #: marked for checking (see network_look._alone).
    blank_alone: float | None = None
    #: The network's confidence in a tile it read network_look.NETWORK_SURE on the photo
    #: (None for a tile running off it, and for a [0|0] or [1|0] only it read: _alone):
    #: reported in the end (network_look._reported) even where the tile was marked for
    #: checking meanwhile (the classical looks read it otherwise, it has a blank half, a
    #: box read it otherwise), unless the rival is SURE_RIVAL. The searches, and the last
    #: check of the faces' colour (_of_faces_colour), see the tile marked, as they were
    #: made to.
    sure_network: float | None = None

    @property
    def tile(self) -> tuple[int, int]:
        return max(self.top, self.bottom), min(self.top, self.bottom)

    @property
    def pips(self) -> int:
        return self.top + self.bottom
