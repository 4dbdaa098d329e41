"""Where each preset's rules come from: the source notes the house-rules card shows.

Every rule of a preset is noted with the preset's own source, except where a note below
says more: what the source says in its own terms, that it is silent and what follows, or
that the value is borrowed from another source so play can start. The sentences are the
project's own wording of the seeds (docs/rules.md gives the source of each).
"""

from referee.rules.text import Message, N_

PAGAT = Message(N_("Pagat"))
KELLEY = Message(N_("Kelley"))
GAMERULES = Message(N_("Gamerules"))
HUB8 = Message(N_("8-arm hub set"))
DOUBLE_FOOT = Message(N_("Double chicken foot table"))
CHOSEN = Message(N_("Chosen by the table"))
FOLLOWS_DEAL = Message(N_("Follows the deal table"))

# Presets whose set follows the player count: a table of at least this many players plays
# this set. Seed 004: up to six players use double-nine, seven or eight double-twelve,
# thirteen rounds from [12-12].
BIG_TABLES = {"double-foot": (7, 12)}
BIG_TABLE_NOTES = {"double-foot": Message(N_("Double chicken foot table: 7 or 8 players play double-twelve, "
                                              "13 rounds from [12-12], set by the player count"))}


def _notes(source: Message, **special: Message) -> tuple:
    """A preset's source, and the notes for the rules where it says more."""
    return source, special


_PAGAT_SPECIAL = dict(
    players_max=Message(N_("Pagat advises 4 or more players; 2-3 may use double-six")),
    keep_back=Message(N_("Pagat: not mentioned, so no tile is kept back")),
    impossible_foot=Message(N_("Pagat does not address it: the table decides")),
    chicken_little=Message(N_("Pagat: a variant, off unless the table takes it")),
    tie=Message(N_("Pagat: not mentioned, so equal totals are a draw")),
    match_length=Message(N_("Pagat: every double down to [0-0]; playing to an agreed total, where whoever "
                            "reaches it loses, is a variant")),
    missing_double=Message(N_("Pagat: each player draws one tile until someone finds it; starting on the next "
                              "lower double, or setting the double aside before the deal, are variants")),
    round_start=Message(N_("Pagat: each round starts on the next lower double")),
    target_ends=Message(N_("Pagat: whoever reaches the agreed total loses, so reaching it ends the match")),
)

PRESET_NOTES = {
    "pagat": _notes(PAGAT, deal_table=Message(N_("Pagat (Puremco's deal)")), **_PAGAT_SPECIAL),
    "pagat-reduced": _notes(PAGAT, deal_table=Message(N_("Pagat's reduced deal for 2-4 players; Puremco's for 5-6")),
                            **_PAGAT_SPECIAL),
    "kelley": _notes(
        KELLEY,
        deal_table=Message(N_("Borrowed: Puremco's deal, the commonest (Kelley gives no double-nine deal)")),
        opening=Message(N_("Kelley: the double is put in the centre before play; everyone draws a tile and "
                           "the highest draw plays first")),
        missing_double=Message(N_("Kelley: the double is in the centre before play, so nobody can be missing "
                                  "it and it is never in the boneyard")),
        arms=Message(N_("Borrowed: 4 arms, as Pagat (Kelley does not say)")),
        players_min=Message(N_("Borrowed with Puremco's deal")),
        players_max=Message(N_("Borrowed with Puremco's deal")),
        toes=Message(N_("Kelley: the caller names the number, e.g. \u201cchickie fours\u201d")),
        keep_back=Message(N_("Kelley: not mentioned, so no tile is kept back")),
        impossible_foot=Message(N_("Kelley: a player who cannot add a toe draws while the boneyard lasts; "
                                   "the round ends when nobody can move")),
        chicken_little=Message(N_("Kelley: not mentioned, so not played")),
        match_length=Message(N_("Kelley: down one double each round")),
        round_start=Message(N_("Kelley: down one double each round")),
        target_ends=Message(N_("Kelley: no agreed total; if the table plays to one, Pagat's rule is borrowed: "
                               "reaching it loses")),
        tie=Message(N_("Kelley: not mentioned, so equal totals are a draw")),
    ),
    "gamerules": _notes(
        GAMERULES,
        keep_back=Message(N_("Gamerules: 2 players never draw the last two tiles, 3 or more never the last one")),
        arms=Message(N_("Gamerules: one train per player, or more by agreement, up to 8: a four-player game "
                        "may need 4, 5, 6, 7 or 8")),
        target_ends=Message(N_("Gamerules: no agreed total; if the table plays to one, Pagat's rule is "
                               "borrowed: reaching it loses")),
        impossible_foot=Message(N_("Gamerules: implied by its rule that a round ends when nobody can play")),
        double_blank=Message(N_("Gamerules: counts 0; 50 is an option")),
        out_on_double_penalty=Message(N_("Gamerules: not mentioned, so allowed")),
        chicken_little=Message(N_("Gamerules: not mentioned, so not played")),
        tie=Message(N_("Gamerules: not mentioned, so equal totals are a draw")),
    ),
    "hub8": _notes(
        HUB8,
        deal_table=Message(N_("Borrowed: the commonest deal for each count, Puremco's for 2-6 and Gamerules' "
                              "for 7-8 (the hub set gives none)")),
        must_play_drawn=Message(N_("Borrowed: may be played, as Pagat and Kelley (the hub set does not say)")),
        keep_back=Message(N_("8-arm hub set: not mentioned, so no tile is kept back")),
        toes=Message(N_("8-arm hub set: three tiles on a double before any other move; a player may end a "
                        "turn with a double, and the others must then complete that foot before normal play "
                        "resumes (FAQ d and e)")),
        impossible_foot=Message(N_("8-arm hub set: a player who cannot play on a chicken foot draws, and passes "
                                   "when nothing fits or nothing is left to draw; play goes on until someone is "
                                   "out or nobody can play (FAQ b and f)")),
        out_on_double_penalty=Message(N_("8-arm hub set: not addressed (its FAQ on ending a turn with a double "
                                         "is about the foot, not about going out), so allowed")),
        chicken_little=Message(N_("8-arm hub set: no official rule")),
        match_length=Message(N_("Borrowed: every double down to [0-0], as every other source (the hub set "
                                "does not say)")),
        round_start=Message(N_("Borrowed: one double lower each round, as every other source; the hub set's "
                               "own sentence \u201ceach round starts with the highest double of your set\u201d "
                               "(section 2) is offered as a choice")),
        target_ends=Message(N_("8-arm hub set: no agreed total; if the table plays to one, Pagat's rule is "
                               "borrowed: reaching it loses")),
    ),
    "double-foot": _notes(
        DOUBLE_FOOT,
        players_max=Message(N_("Double chicken foot table: up to 6 on double-nine; 7-8 play double-twelve")),
        keep_back=Message(N_("Double chicken foot table: not mentioned, so no tile is kept back")),
        impossible_foot=Message(N_("Double chicken foot table: a player who cannot play draws one tile, plays it "
                                   "if it fits, else passes; the round ends when the pot is empty and nobody "
                                   "can play")),
        target_ends=Message(N_("Double chicken foot table: some groups play until someone exceeds an agreed "
                               "total, and that player loses")),
        out_on_double_penalty=Message(N_("Double chicken foot table: not mentioned, so allowed")),
        chicken_little=Message(N_("Double chicken foot table: not mentioned, so not played")),
    ),
}

BORROWED = {
    "pagat": (),
    "pagat-reduced": (),
    "kelley": ("deal_table", "arms", "players_min", "players_max"),
    "gamerules": (),
    "hub8": ("deal_table", "must_play_drawn", "match_length", "round_start"),
    "double-foot": (),
}
