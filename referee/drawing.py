"""Where the pips sit on a domino half, for the templates that draw tiles.

Halves up to 9 use the familiar 3 x 3 grid (7, 8 and 9 in three columns); 10 to 12, found
in double-twelve sets, use a 3 x 4 grid. Cells are listed row by row.
"""

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
