"""How much work reading a photo has done, so that no photo takes much over a second.

The first look and the network's reading of the boxes the looks read are always made
(a busy photo gets no classical look at all: finder_look.py, whose searches count here too);
the later looks (closer, at another threshold, from above) are made while the work done
leaves room for them, and so are the network's searches about loose pips, next to the
tiles found and at the faces' colour. Work is counted, not timed, in the units of a cost
model fitted on 618 looks at 240 harsh photos (tests/bench/harsh_photos.py, seeds 5, 9,
11, 12, 15 and 16), about a millisecond each on one core of the development machine: the
same photo is always read the same way however busy the machine is, and a player who
sends a photo again gets the same tiles.

The limits cut only the costliest photos. Lower ones (600 units for the looks, 850 for
the network) kept every one of those 240 photos under a second, but cost 0.5 % of their
tiles: a later look skipped on a busy cloth is often the one that reads its small tiles.
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
#: The boxes a later look is supposed to read (reader.MAX_READS)...
BOXES_SUPPOSED = 60
#: ...and the divider candidates it is supposed to find a megapixel, as a share of the
#: first look's: the later looks search fine levels only, or a view of the tiles, and found
#: a median 0.41 (closer look) to 0.85 (from above) times as many on the harsh photos.
BARS_SUPPOSED = 0.5
#: The network's cost for each crop it reads.
PER_CROP = 0.45
#: Decoding the photo and everything but the looks and the network.
FIXED = 40.0
#: No later look is started that is supposed to take the work done past this (its
#: boxes and candidates are guessed, so it may in fact take it a little past)...
LOOKS_LIMIT = 1000.0
#: ...nor does the network start a search past this, less the crops the search is
#: supposed to read. On those 240 photos the limits gave up one look (a view from above:
#: 1.7 s to 1.2-1.3 s, the same tiles read) and changed no tile.
LIMIT = 1300.0


@dataclass
class Effort:
    """The units of work done so far in reading one photo, and how many divider
    candidates a megapixel of the first look's working image made (a busy cloth makes
    many at every size)."""

    done: float = FIXED
    bars_per_megapixel: float | None = None

    def look(self, pixels: int, bars: int | None, boxes: int) -> None:
        """Count a look on a working image of `pixels` whose marks made `bars` divider
        candidates (None: it stopped before it looked for any) and which read or
        proposed `boxes` boxes."""
        self.done += PER_MEGAPIXEL * pixels / 1e6 + PER_BAR * (bars or 0) + PER_BOX * boxes
        if self.bars_per_megapixel is None and bars is not None:
            self.bars_per_megapixel = bars / max(pixels / 1e6, 1e-6)

    def affords_look(self, pixels: int) -> bool:
        """Whether a later look on a working image of `pixels` fits in LOOKS_LIMIT."""
        megapixels = pixels / 1e6
        bars = BARS_SUPPOSED * (self.bars_per_megapixel or 0.0) * megapixels
        cost = PER_MEGAPIXEL * megapixels + PER_BAR * bars + PER_BOX * BOXES_SUPPOSED
        return self.done + cost <= LOOKS_LIMIT

    def crops(self, n: int) -> None:
        """Count `n` crops read by the network."""
        self.done += PER_CROP * n

    def affords_crops(self, n: int) -> bool:
        """Whether the network may read `n` more crops in a search of its own."""
        return self.done + PER_CROP * n <= LIMIT
