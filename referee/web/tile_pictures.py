"""Dominoes drawn with CSS pips, as the HTML the templates put on every page.

Halves up to 9 use the familiar 3 x 3 grid (7, 8 and 9 in three columns); 10 to 12, found
in double-twelve sets, use a 3 x 4 grid. Cells are listed row by row. There are only a few
hundred tiles in a set, and the scoreboard draws one per round on every render, so each is
built once per process and kept.
"""

from functools import lru_cache

from markupsafe import Markup

_NINE = {
    0: (), 1: (4,), 2: (2, 6), 3: (2, 4, 6), 4: (0, 2, 6, 8), 5: (0, 2, 4, 6, 8),
    6: (0, 2, 3, 5, 6, 8), 7: (0, 2, 3, 4, 5, 6, 8), 8: (0, 1, 2, 3, 5, 6, 7, 8),
    9: tuple(range(9)),
}
_TWELVE = {
    10: (0, 2, 3, 4, 5, 6, 7, 8, 9, 11), 11: (0, 1, 2, 3, 5, 6, 7, 8, 9, 10, 11),
    12: tuple(range(12)),
}


def pip_cells(n: int) -> list:
    """One boolean per grid cell: True where a pip is drawn."""
    if n in _NINE:
        return [cell in _NINE[n] for cell in range(9)]
    if n in _TWELVE:
        return [cell in _TWELVE[n] for cell in range(12)]
    return [False] * 9


def _half(n: int) -> str:
    cells = pip_cells(n)
    grid = "g12" if len(cells) == 12 else "g9"
    return f'<span class="half {grid}">' + "".join('<i class="p"></i>' if on else "<i></i>" for on in cells) + "</span>"


@lru_cache(maxsize=1024)
def domino(high: int, low: int, size: str = "") -> Markup:
    """The tile [high-low] drawn in CSS; `size` is a class of style.css ("small", "mini", ...)."""
    return Markup('<span class="domino {}" aria-hidden="true">{}<span class="bar"></span>{}</span>').format(
        size, Markup(_half(high)), Markup(_half(low)))
