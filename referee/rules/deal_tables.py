"""How many tiles each player is dealt: the published deal tables and the rule that fills
the gaps where no source gives a number.
"""

from referee.rules.text import Message, N_
from referee.rules.tiles import SET_SIZES
from referee.rules.values import listed

# The smallest hand any source deals (Gamerules, 8 players on double-nine).
MIN_HAND = 5


def max_players(top: int) -> int:
    """Most players a set can give MIN_HAND tiles each while a fifth of it stays to draw from."""
    return (SET_SIZES[top] * 4 // 5) // MIN_HAND


PUREMCO_NINE = {2: 20, 3: 14, 4: 11, 5: 9, 6: 7}

# Complete double-nine deal tables, one per preset.
_HOME_DEALS = {
    "pagat": PUREMCO_NINE,
    # Pagat's reduced deal covers 2-4 players; 5-6 keep Puremco's.
    "pagat-reduced": {2: 12, 3: 11, 4: 10, 5: 9, 6: 7},
    # Kelley gives no double-nine deal: Puremco's, the commonest, is borrowed.
    "kelley": PUREMCO_NINE,
    "gamerules": {2: 21, 3: 14, 4: 11, 5: 8, 6: 7, 7: 6, 8: 5},
    # The hub set gives none: the commonest value for each count (Puremco; Gamerules for 7-8).
    "hub8": {**PUREMCO_NINE, 7: 6, 8: 5},
    "double-foot": PUREMCO_NINE,
}

# Single published rows for the other sets; the fallback fills the rest.
_PUBLISHED_DEALS = {
    "pagat": {12: {4: 18}, 15: {6: 18, 12: 9}},
    "pagat-reduced": {12: {4: 18}, 15: {6: 18, 12: 9}},
    "kelley": {12: {4: 15}},
    "double-foot": {12: {7: 10, 8: 9}},
}
_DEAL_SOURCES = {"pagat": Message(N_("Puremco")), "pagat-reduced": Message(N_("Puremco")),
                 "kelley": Message(N_("Kelley")), "double-foot": Message(N_("Double chicken foot table"))}


def fallback_per_player(top: int, players: int) -> int:
    """Tiles each when no source gives a deal: four fifths of the set, shared evenly.

    This reproduces nearly every published number (double-nine 3:14 4:11 6:7 7:6 8:5,
    double-twelve 4:18 7:10 8:9, double-fifteen 6:18 12:9), so it is the least surprising
    guess for a set and player count nobody wrote down.
    """
    return (SET_SIZES[top] * 4 // 5) // players


def deal_table_for(name: str, top: int) -> tuple:
    """The preset's deal table for a set: its own numbers, else published rows plus the fallback."""
    if top == 9:
        return tuple(sorted(_HOME_DEALS[name].items()))
    published = _PUBLISHED_DEALS.get(name, {}).get(top, {})
    counts = range(2, max([8, *published]) + 1)
    table = {n: published.get(n, fallback_per_player(top, n)) for n in counts}
    return tuple((n, each) for n, each in sorted(table.items()) if n in published or each >= MIN_HAND)


def deal_note(name: str, top: int) -> Message:
    """Where a preset's deal table for this set comes from."""
    published = _PUBLISHED_DEALS.get(name, {}).get(top, {})
    if published:
        return Message(N_("%(source)s for %(counts)s players; otherwise four fifths of the set shared evenly, "
                          "since no source gives a double-%(top)d deal for other counts."),
                       {"source": _DEAL_SOURCES[name], "counts": listed(sorted(published)), "top": top})
    return Message(N_("No source gives a double-%(top)d deal for these rules: four fifths of the set are shared "
                      "evenly, which matches most published deals."), {"top": top})
