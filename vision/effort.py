"""How much work reading a photo has done, so that no photo takes much over a second.

The looks (the quick look, the classical first look and the look for faint dividers, as
pipeline._read_tiles chooses them; their work counted together where a photo is given more
than one) and the network's reading of the boxes they read are always made; the network's
searches about loose pips, next to the tiles found and at the faces' colour are made
while the work done leaves room for them. Work is counted, not timed, in the units of a
cost model fitted on 618 looks at 240 harsh photos (tools/generators/harsh_photos.py, seeds
5, 9, 11, 12, 15 and 16), about a millisecond each on one core of the development
machine: the same photo is always read the same way however busy the machine is, and a
player who sends a photo again gets the same tiles.

The limit cuts only the costliest photos. A lower one (850 units) would keep every one
of those 240 photos under a second even with up to four classical looks, but costs 0.5 %
of their tiles. The classical looks themselves have no limit of their own: the two there
are, the first and the look for faint dividers at its size, come nowhere near this one on
860 photos.
"""

from __future__ import annotations

from dataclasses import dataclass

#: A look's cost, in units, for each megapixel of its working image (its edge field,
#: marks and bodies)...
PER_MEGAPIXEL = 119.0
#: ...for each divider candidate its marks made (busy cloths make thousands)...
PER_BAR = 0.11
#: ...and for each box it read or gave the network.
PER_BOX = 1.8
#: The network's cost for each crop it reads.
PER_CROP = 0.45
#: Decoding the photo and everything but the looks and the network.
FIXED = 40.0
#: The network starts no search past this, less the crops the search is supposed to read.
LIMIT = 1300.0


@dataclass
class Effort:
    """The units of work done so far in reading one photo."""

    done: float = FIXED

    def look(self, pixels: int, bars: int | None, boxes: int) -> None:
        """Count a look on a working image of `pixels` whose marks made `bars` divider
        candidates (None: it stopped before it looked for any) and which read or
        proposed `boxes` boxes."""
        self.done += PER_MEGAPIXEL * pixels / 1e6 + PER_BAR * (bars or 0) + PER_BOX * boxes

    def crops(self, n: int) -> None:
        """Count `n` crops read by the network."""
        self.done += PER_CROP * n

    def affords_crops(self, n: int) -> bool:
        """Whether the network may read `n` more crops in a search of its own."""
        return self.done + PER_CROP * n <= LIMIT
