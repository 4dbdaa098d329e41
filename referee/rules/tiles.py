"""Domino tiles and sets, and reading the tiles people type at the table."""

import re
from dataclasses import dataclass

from referee.rules.text import N_, RulesError, shown

SET_SIZES = {6: 28, 9: 55, 12: 91, 15: 136, 18: 190}

# One number, a separator people use (dash, en dash, bar, slash, spaces), another number;
# optionally in square brackets as docs/rules.md writes tiles.
_TILE = re.compile(r"^\[?\s*([0-9]+|blank)\s*(?:[-\u2013|/]|\s)\s*([0-9]+|blank)\s*\]?$",
                   re.IGNORECASE | re.ASCII)
_HAND_SEPARATORS = re.compile(r"[,;\n]")


@dataclass(frozen=True, order=True)
class Tile:
    """A domino [high-low]; [3-9] and [9-3] are the same tile, stored high first."""

    high: int
    low: int

    def __post_init__(self):
        for number in (self.high, self.low):
            if type(number) is not int or number < 0:
                raise RulesError(N_("A tile's numbers must be whole numbers from 0 up, not %(value)s."),
                                 value=shown(number))
        if self.low > self.high:
            high, low = self.low, self.high
            object.__setattr__(self, "high", high)
            object.__setattr__(self, "low", low)

    def __str__(self) -> str:
        return f"{self.high}-{self.low}"

    @property
    def pips(self) -> int:
        """Face value: the pips at both ends."""
        return self.high + self.low

    @property
    def is_double(self) -> bool:
        return self.high == self.low

    def has(self, number: int) -> bool:
        return number in (self.high, self.low)

    def other(self, number: int) -> int:
        """The end that shows once `number` is matched: what a toe on [number-number] leaves open."""
        if not self.has(number):
            raise RulesError(N_("[%(tile)s] does not carry %(number)d."), tile=str(self), number=number)
        return self.low if number == self.high else self.high


def check_top(top) -> int:
    """The top number of a set this app knows (6, 9, 12, 15 or 18)."""
    if type(top) is not int or top not in SET_SIZES:
        raise RulesError(N_("There is no double-%(top)s set: choose 6, 9, 12, 15 or 18."), top=shown(top))
    return top


def full_set(top: int) -> list:
    """Every tile of the double-`top` set, highest first."""
    check_top(top)
    return [Tile(high, low) for high in range(top, -1, -1) for low in range(high, -1, -1)]


def set_pips(top: int) -> int:
    """Total face value of a set: 495 for double-nine."""
    check_top(top)
    return top * (top + 1) * (top + 2) // 2


def suit(number: int, top: int) -> list:
    """The tiles carrying `number`: top+1 of them, the double counted once."""
    check_top(top)
    if type(number) is not int or not 0 <= number <= top:
        raise RulesError(N_("A double-%(top)d set has no number %(number)s."), top=top, number=shown(number))
    return [tile for tile in full_set(top) if tile.has(number)]


def parse_tile(value, top: int = 9) -> Tile:
    """Read one tile as typed ("9-9", "[4-4]", "4 4", "4|4", "blank-3") or given as a Tile."""
    check_top(top)
    if isinstance(value, Tile):
        if value.high > top:
            raise _not_in_set(str(value), top)
        return value
    if not isinstance(value, str):
        raise RulesError(N_("'%(token)s' is not a tile: write it as two numbers such as 4-4 or 9-3."),
                         token=shown(value))
    token = value.strip()
    if not token:
        raise RulesError(N_("A tile was left empty: write it as two numbers such as 4-4 or 9-3."))
    match = _TILE.match(token)
    if not match:
        raise RulesError(N_("'%(token)s' is not a tile: write it as two numbers such as 4-4 or 9-3."),
                         token=shown(token))
    numbers = [_end(text) for text in match.groups()]
    if any(number is None or number > top for number in numbers):
        raise _not_in_set(shown(token), top)
    return Tile(*numbers)


def _end(text: str):
    """One end of a typed tile as a number, or None when it is too long to be one."""
    if text.lower() == "blank":
        return 0
    digits = text.lstrip("0") or "0"
    return int(digits) if len(digits) <= 2 else None


def _not_in_set(token: str, top: int) -> RulesError:
    return RulesError(N_("'%(token)s' is not a tile of a double-%(top)d set: its numbers run from 0 to %(top)d."),
                      token=token, top=top)


def parse_tiles(items, top: int = 9) -> list:
    """Tiles from a list (strings or Tiles) or from one typed line such as "9-9, 4-4 [3-1]".

    In a typed line, commas and semicolons always separate tiles; a piece between them
    that is not one tile ("9-9 4-4") is split again at its spaces.
    """
    if isinstance(items, str):
        return [tile for piece in _HAND_SEPARATORS.split(items) for tile in _parse_piece(piece, top)]
    if isinstance(items, Tile):
        return [parse_tile(items, top)]
    try:
        listed = list(items)
    except TypeError:
        raise RulesError(N_("'%(token)s' is not a list of tiles."), token=shown(items)) from None
    return [parse_tile(item, top) for item in listed]


def _parse_piece(piece: str, top: int) -> list:
    if not piece.strip():
        return []
    try:
        return [parse_tile(piece, top)]
    except RulesError:
        if len(piece.split()) < 2:
            raise
    return [parse_tile(token, top) for token in piece.split()]


def parse_hand(items, top: int = 9) -> list:
    """One player's tiles; the same tile twice in a hand is a typing mistake."""
    tiles = parse_tiles(items, top)
    seen = set()
    for tile in tiles:
        if tile in seen:
            raise RulesError(N_("[%(tile)s] is listed twice in one hand; a set has only one."), tile=str(tile))
        seen.add(tile)
    return tiles


def check_one_owner(hands) -> None:
    """No tile may be in two of `hands` (player -> tiles): a set has only one of each."""
    owner = {}
    for player, tiles in hands.items():
        for tile in tiles:
            if tile in owner:
                raise RulesError(N_("[%(tile)s] is in the hands of both %(first)s and %(second)s; a set has only "
                                    "one."), tile=str(tile), first=owner[tile], second=player)
            owner[tile] = player


def pips(tiles) -> int:
    """Face value of some tiles, [0-0] counting 0 (the house value is scoring's business)."""
    return sum(tile.pips for tile in tiles)
