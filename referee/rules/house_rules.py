"""House rules: every rule the written sources disagree on, chosen once before play.

A `HouseRules` object is immutable and always valid: it is built by `preset`, which copies
a named preset (one per source in docs/rules.md), applies the table's changes and refuses
combinations that cannot be played. Deals, round doubles and who opens are derived here.
"""

import re
from dataclasses import dataclass, field, fields, replace
from types import MappingProxyType
from typing import Mapping, Optional

from referee.rules.deal_tables import MIN_HAND, deal_note, deal_table_for, max_players
from referee.rules.text import Message, N_, RulesError, shown
from referee.rules.tiles import SET_SIZES, Tile, check_top
from referee.rules.values import as_flag, as_int, listed

OPEN = "table-decides"

OPTIONS = {
    "set": (6, 9, 12, 15, 18),
    "opening": ("holder", "highest-draw", "turn-up", "centre-rotate"),
    "missing_double": ("draw-until-found", "next-lower", "set-aside-before-deal", "cannot-happen"),
    "arms": (3, 4, 6, 8, "per-player"),
    "toes": (3,),
    "must_play_drawn": (False, True),
    "keep_back": ("none", "gamerules"),
    "impossible_foot": ("play-on", "round-ends", "released", OPEN),
    "double_blank": (50, 25, 0),
    "out_on_double_penalty": (0, 50),
    "chicken_little": (0, 1),
    "match_length": ("full", "half", "one-round", "target"),
    "tie": ("draw", "first-out-wins"),
}

PAGAT = Message(N_("Pagat"))
KELLEY = Message(N_("Kelley"))
GAMERULES = Message(N_("Gamerules"))
HUB8 = Message(N_("8-arm hub set"))
DOUBLE_FOOT = Message(N_("Double chicken foot table"))
CHOSEN = Message(N_("Chosen by the table"))
FOLLOWS_DEAL = Message(N_("Follows the deal table"))

# Openings that take the round's double out of the set before the deal.
SET_ASIDE_OPENINGS = ("turn-up", "centre-rotate")
MAX_ARMS = 8


@dataclass(frozen=True)
class HouseRules:
    """Every disputed rule, as one table plays it. Build it with `preset`."""

    name: str
    set: int
    deal_table: tuple
    opening: str
    missing_double: str
    arms: object
    toes: int
    must_play_drawn: bool
    keep_back: str
    impossible_foot: str
    double_blank: int
    out_on_double_penalty: int
    chicken_little: int
    match_length: str
    target: Optional[int]
    tie: str
    players_min: int
    players_max: int
    sources: Mapping = field(default_factory=dict, compare=False, repr=False)
    borrowed: tuple = field(default=(), compare=False)

    def __post_init__(self):
        _validate(self)


RULE_FIELDS = tuple(f.name for f in fields(HouseRules) if f.name not in ("name", "sources", "borrowed"))


# -- validation -------------------------------------------------------------------------


def _validate(rules: HouseRules) -> None:
    """Refuse any combination of rules a table could not play, saying why."""
    for name, allowed in OPTIONS.items():
        value = getattr(rules, name)
        if not any(type(value) is type(choice) and value == choice for choice in allowed):
            raise RulesError(N_("'%(value)s' is not a choice for %(rule)s: choose one of %(choices)s."),
                             value=shown(value), rule=name, choices=listed(allowed))
    _check_arms(rules)
    _check_opening(rules)
    _check_target(rules)
    _check_deal_table(rules)
    _check_player_range(rules)


def _check_arms(rules: HouseRules) -> None:
    """The arms are tiles carrying the double's number: a set has only `top` besides the double."""
    arms = rules.arms if rules.arms != "per-player" else min(rules.players_max, MAX_ARMS)
    if arms > rules.set:
        raise RulesError(N_("In a double-%(top)d set each number is on only %(top)d tiles besides its double, "
                            "so the starting double cannot take %(arms)d arms."), top=rules.set, arms=arms)


def _check_opening(rules: HouseRules) -> None:
    set_aside = rules.opening in SET_ASIDE_OPENINGS
    if set_aside and rules.missing_double != "cannot-happen":
        raise RulesError(N_("With the '%(opening)s' opening the round's double is set aside before the deal, "
                            "so nobody can be missing it: what happens when nobody holds it must be "
                            "'cannot-happen'."), opening=rules.opening)
    if not set_aside and rules.missing_double == "cannot-happen":
        raise RulesError(N_("With the '%(opening)s' opening the round's double may be in the boneyard, so "
                            "choose what happens when nobody holds it."), opening=rules.opening)


def _check_target(rules: HouseRules) -> None:
    if rules.match_length == "target":
        if rules.target is None:
            raise RulesError(N_("Playing to an agreed total needs that total: say how many points lose the match."))
        if type(rules.target) is not int or rules.target < 1:
            raise RulesError(N_("The agreed total must be a whole number of points above 0, not %(target)s."),
                             target=shown(rules.target))
    elif rules.target is not None:
        raise RulesError(N_("An agreed total only counts when the match is played to a total: choose that "
                            "match length or leave the total out."))


def _check_deal_table(rules: HouseRules) -> None:
    if not rules.deal_table:
        raise RulesError(N_("The deal table is empty: say how many tiles each player gets."))
    most_players = max_players(rules.set)
    for players, per_player in rules.deal_table:
        if players < 2:
            raise RulesError(N_("A deal for %(players)d players makes no sense: Chicken Foot needs at least 2."),
                             players=players)
        if players > most_players:
            raise _too_many(rules.set, players)
        if per_player < 1:
            raise RulesError(N_("Every player must be dealt at least one tile, not %(per_player)d."),
                             per_player=per_player)
        most = _dealable(rules, players) // players
        if per_player > most:
            raise RulesError(N_("Dealing %(per_player)d tiles each to %(players)d players is more than a "
                                "double-%(top)d set allows under these rules: at most %(most)d each."),
                             per_player=per_player, players=players, top=rules.set, most=most)


def _check_player_range(rules: HouseRules) -> None:
    low, high = rules.players_min, rules.players_max
    if low < 2:
        raise RulesError(N_("Chicken Foot needs at least 2 players, not %(players)d."), players=low)
    if low > high:
        raise RulesError(N_("The fewest players (%(low)d) cannot be more than the most (%(high)d)."),
                         low=low, high=high)
    if high > max_players(rules.set):
        raise _too_many(rules.set, high)
    dealt = dict(rules.deal_table)
    for players in range(low, min(high, max(dealt) + 1) + 1):
        if players not in dealt:
            raise RulesError(N_("The deal table says nothing for %(players)d players, so these rules cannot "
                                "seat %(players)d."), players=players)


def _too_many(top: int, players: int) -> RulesError:
    return RulesError(N_("A double-%(top)d set is too small for %(players)d players: keeping a fifth of it to "
                         "draw from, it can deal the smallest published hand (%(hand)d tiles) to at most "
                         "%(most)d players."), top=top, players=players, hand=MIN_HAND, most=max_players(top))


def _dealable(rules: HouseRules, players: int) -> int:
    """Tiles that may go into hands: not the double set aside, not the keep-back tiles."""
    return SET_SIZES[rules.set] - int(double_set_aside(rules)) - keep_back_count(rules, players)


def double_set_aside(rules: HouseRules) -> bool:
    """Whether the round's double leaves the set before the deal, so no hand can hold it."""
    return rules.missing_double in ("cannot-happen", "set-aside-before-deal")


def keep_back_count(rules: HouseRules, players: int) -> int:
    """Boneyard tiles that are never drawn."""
    if rules.keep_back == "gamerules":
        # Gamerules (seed 002): the last two tiles stay with 2 players, the last one with 3 or more.
        return 2 if players == 2 else 1
    return 0


@dataclass(frozen=True)
class Deal:
    """What the deal leaves for one player count."""

    players: int
    per_player: int
    boneyard: int
    keep_back: int
    drawable: int
    double_in_boneyard: float


def validate_players(rules: HouseRules, players) -> int:
    """The player count as a number, refused when these rules cannot seat it."""
    count = as_int(players, "players")
    if count < rules.players_min:
        raise RulesError(N_("These house rules need at least %(low)d players, not %(players)d."),
                         low=rules.players_min, players=count)
    if count > rules.players_max:
        raise RulesError(N_("These house rules deal a double-%(top)d set to at most %(high)d players, not "
                            "%(players)d: choose a bigger set or fewer players."),
                         top=rules.set, high=rules.players_max, players=count)
    return count


def deal(rules: HouseRules, players) -> Deal:
    """Tiles each, boneyard, and the chance the round's double is not in anyone's hand."""
    count = validate_players(rules, players)
    per_player = dict(rules.deal_table)[count]
    size = SET_SIZES[rules.set]
    boneyard = size - count * per_player - int(double_set_aside(rules))
    keep = keep_back_count(rules, count)
    # The double is as likely as any tile to be undealt: boneyard / set (docs/rules.md: 4 x 11 gives 20.0 %).
    chance = 0.0 if double_set_aside(rules) else boneyard / size
    return Deal(players=count, per_player=per_player, boneyard=boneyard, keep_back=keep,
                drawable=boneyard - keep, double_in_boneyard=chance)


# -- rounds -------------------------------------------------------------------------------


def round_count(rules: HouseRules) -> Optional[int]:
    """Rounds planned by the match length; None when play runs to an agreed total."""
    every_double = rules.set + 1
    return {"full": every_double, "half": (every_double + 1) // 2, "one-round": 1,
            "target": None}[rules.match_length]


def round_double(rules: HouseRules, index) -> Tile:
    """The double round `index` (0 first) is played on: one lower each round, from the top.

    A match to an agreed total starts again at the top after [0-0].
    """
    index = as_int(index, "round")
    planned = round_count(rules)
    if index < 0 or (planned is not None and index >= planned):
        raise RulesError(N_("This match has no round %(round)d."), round=index + 1)
    number = rules.set - index % (rules.set + 1)
    return Tile(number, number)


def round_doubles(rules: HouseRules) -> list:
    """The doubles in play order; for a match to a total, one pass from the top down to [0-0]."""
    return [round_double(rules, i) for i in range(round_count(rules) or rules.set + 1)]


def opener(rules: HouseRules, players, round_index) -> Message:
    """Who lays the round's double or plays first, or how the table finds out."""
    if not isinstance(players, (list, tuple)):
        raise RulesError(N_("The players must be given as a list of names."))
    validate_players(rules, len(players))
    double = round_double(rules, round_index)
    index = as_int(round_index, "round")
    params = {"round": index + 1, "double": str(double)}
    if rules.opening == "centre-rotate":
        # Double chicken foot table (seed 004): the first turn moves one seat each round.
        return Message(N_("Round %(round)d: [%(double)s] goes in the centre before the deal, and %(player)s "
                          "plays first."), {**params, "player": players[index % len(players)]})
    if rules.opening == "turn-up":
        return Message(N_("Round %(round)d: turn tiles up one at a time round the table; whoever turns up "
                          "[%(double)s] opens. It is set aside and the rest are reshuffled and dealt."), params)
    if rules.opening == "highest-draw":
        return Message(N_("Round %(round)d: [%(double)s] goes in the centre; everyone draws a tile and the "
                          "highest draw plays first."), params)
    if rules.missing_double == "set-aside-before-deal":
        return Message(N_("Round %(round)d: [%(double)s] is set aside face up before the deal, so nobody holds "
                          "it; the table agrees who lays the first arm."), params)
    return Message(N_("Round %(round)d: whoever holds [%(double)s] lays it to open."), params)


# -- values from a form or the API -----------------------------------------------------


def _coerce(name: str, value):
    """An override as the rule's own type; membership is checked when the rules are built."""
    if name == "deal_table":
        return _coerce_deal_table(value)
    if name == "target":
        if value is None or (isinstance(value, str) and value.strip().lower() in ("", "none")):
            return None
        return as_int(value, name)
    if name == "must_play_drawn":
        return as_flag(value, name)
    if name == "arms" and isinstance(value, str) and value.strip().lower() == "per-player":
        return "per-player"
    if name in ("arms", "set", "toes", "double_blank", "out_on_double_penalty", "chicken_little",
                "players_min", "players_max"):
        return as_int(value, name)
    if isinstance(value, str):
        return re.sub(r"[\s_]+", "-", value.strip().lower())
    return value


def _coerce_deal_table(value) -> tuple:
    """A deal table from {players: tiles}, [(players, tiles)...] or text like "2:20, 3:14"."""
    if isinstance(value, str):
        pairs = [piece.split(":") for piece in re.split(r"[,;\s]+", value.strip()) if piece]
    elif isinstance(value, Mapping):
        pairs = list(value.items())
    else:
        try:
            pairs = [list(pair) for pair in value]
        except TypeError:
            pairs = None
    if pairs is None or any(len(pair) != 2 for pair in pairs):
        raise RulesError(N_("'%(value)s' is not a deal table: write it as players:tiles pairs such as "
                            "2:20, 3:14."), value=shown(value))
    table = {}
    for players, per_player in pairs:
        players = as_int(players, "deal_table")
        if players in table:
            raise RulesError(N_("The deal table gives two deals for %(players)d players."), players=players)
        table[players] = as_int(per_player, "deal_table")
    return tuple(sorted(table.items()))


# -- presets ------------------------------------------------------------------------------


def _notes(source: Message, **special: Message) -> dict:
    """Source notes for every rule: the preset's source, except where it says otherwise."""
    return {name: special.get(name, source) for name in RULE_FIELDS}


_PAGAT_SPECIAL = dict(
    players_max=Message(N_("Pagat advises 4 or more players; 2-3 may use double-six")),
    keep_back=Message(N_("Pagat: not mentioned, so no tile is kept back")),
    impossible_foot=Message(N_("Pagat does not address it: the table decides")),
    chicken_little=Message(N_("Pagat: a variant, off unless the table takes it")),
    tie=Message(N_("Pagat: not mentioned, so equal totals are a draw")),
    match_length=Message(N_("Pagat: every double down to [0-0]; playing until someone passes an agreed "
                            "total is a variant")),
)

_NOTES = {
    "pagat": _notes(PAGAT, deal_table=Message(N_("Pagat (Puremco's deal)")), **_PAGAT_SPECIAL),
    "pagat-reduced": _notes(PAGAT, deal_table=Message(N_("Pagat's reduced deal for 2-4 players; Puremco's for 5-6")),
                            **_PAGAT_SPECIAL),
    "kelley": _notes(
        KELLEY,
        deal_table=Message(N_("Borrowed: Puremco's deal, the commonest (Kelley gives no double-nine deal)")),
        missing_double=Message(N_("Borrowed: draw until someone finds it, as Pagat and the hub set do "
                                  "(Kelley does not say)")),
        arms=Message(N_("Borrowed: 4 arms, as Pagat (Kelley does not say)")),
        players_min=Message(N_("Borrowed with Puremco's deal")),
        players_max=Message(N_("Borrowed with Puremco's deal")),
        toes=Message(N_("Kelley: the caller names the number, e.g. \u201cchickie fours\u201d")),
        keep_back=Message(N_("Kelley: not mentioned, so no tile is kept back")),
        impossible_foot=Message(N_("Kelley: a player who cannot add a toe draws while the boneyard lasts; "
                                   "the round ends when nobody can move")),
        chicken_little=Message(N_("Kelley: not mentioned, so not played")),
        match_length=Message(N_("Kelley: down one double each round")),
        tie=Message(N_("Kelley: not mentioned, so equal totals are a draw")),
    ),
    "gamerules": _notes(
        GAMERULES,
        keep_back=Message(N_("Gamerules: 2 players never draw the last two tiles, 3 or more never the last one")),
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
        impossible_foot=Message(N_("8-arm hub set does not address it: the table decides")),
        out_on_double_penalty=Message(N_("8-arm hub set: allowed; the others must finish that foot first")),
        chicken_little=Message(N_("8-arm hub set: no official rule")),
        match_length=Message(N_("Borrowed: every double down to [0-0], as every other source (the hub set "
                                "does not say)")),
    ),
    "double-foot": _notes(
        DOUBLE_FOOT,
        players_max=Message(N_("Double chicken foot table: up to 6 on double-nine; 7-8 play double-twelve")),
        keep_back=Message(N_("Double chicken foot table: not mentioned, so no tile is kept back")),
        impossible_foot=Message(N_("Double chicken foot table does not address it: the table decides")),
        out_on_double_penalty=Message(N_("Double chicken foot table: not mentioned, so allowed")),
        chicken_little=Message(N_("Double chicken foot table: not mentioned, so not played")),
    ),
}

_BORROWED = {
    "pagat": (),
    "pagat-reduced": (),
    "kelley": ("deal_table", "missing_double", "arms", "players_min", "players_max"),
    "gamerules": (),
    "hub8": ("deal_table", "must_play_drawn", "match_length"),
    "double-foot": (),
}

_COMMON = dict(set=9, toes=3, keep_back="none", chicken_little=0, match_length="full", target=None,
               tie="draw", players_min=2, players_max=6)

_VALUES = {
    "pagat": dict(opening="holder", missing_double="draw-until-found", arms=4, must_play_drawn=False,
                  impossible_foot=OPEN, double_blank=50, out_on_double_penalty=0),
    "pagat-reduced": dict(opening="holder", missing_double="draw-until-found", arms=4, must_play_drawn=False,
                          impossible_foot=OPEN, double_blank=50, out_on_double_penalty=0),
    "kelley": dict(opening="highest-draw", missing_double="draw-until-found", arms=4, must_play_drawn=False,
                   impossible_foot="play-on", double_blank=50, out_on_double_penalty=50),
    "gamerules": dict(opening="turn-up", missing_double="cannot-happen", arms="per-player", must_play_drawn=True,
                      keep_back="gamerules", impossible_foot="play-on", double_blank=0,
                      out_on_double_penalty=0, players_max=8),
    "hub8": dict(opening="holder", missing_double="draw-until-found", arms=8, must_play_drawn=False,
                 impossible_foot=OPEN, double_blank=50, out_on_double_penalty=0, tie="first-out-wins",
                 players_max=8),
    "double-foot": dict(opening="centre-rotate", missing_double="cannot-happen", arms=6, must_play_drawn=True,
                        impossible_foot=OPEN, double_blank=50, out_on_double_penalty=0),
}


def _build_preset(name: str) -> HouseRules:
    values = {**_COMMON, **_VALUES[name]}
    return HouseRules(name=name, deal_table=deal_table_for(name, values["set"]),
                      sources=MappingProxyType(_NOTES[name]), borrowed=_BORROWED[name], **values)


PRESETS = MappingProxyType({name: _build_preset(name) for name in _VALUES})


def preset(name, /, **overrides) -> HouseRules:
    """A validated copy of a named preset with the table's changes.

    Changing the set brings the preset's deal table for that set, and the player range
    that table covers, unless those are changed too. Every changed rule is noted as
    chosen by the table.
    """
    if not isinstance(name, str) or name.strip().lower() not in PRESETS:
        raise RulesError(N_("There is no preset called '%(name)s': choose one of %(names)s."),
                         name=shown(name), names=listed(PRESETS))
    base = PRESETS[name.strip().lower()]
    for rule in overrides:
        if rule not in RULE_FIELDS:
            raise RulesError(N_("'%(name)s' is not a house rule: the rules are %(rules)s."),
                             name=shown(rule), rules=listed(RULE_FIELDS))
    values = {rule: _coerce(rule, value) for rule, value in overrides.items()}
    sources = dict(base.sources)
    borrowed = [rule for rule in base.borrowed if rule not in values or values[rule] == getattr(base, rule)]
    top = values.get("set", base.set)
    if top != base.set:
        _follow_set(base.name, check_top(top), values, sources, borrowed)
    sources.update({rule: CHOSEN for rule, value in overrides.items() if values[rule] != getattr(base, rule)})
    return replace(base, sources=MappingProxyType(sources), borrowed=tuple(borrowed), **values)


def _follow_set(name: str, top: int, values: dict, sources: dict, borrowed: list) -> None:
    """Bring the preset's deal table and player range for another set, with where they come from."""
    if "deal_table" not in values:
        values["deal_table"] = deal_table_for(name, top)
        sources["deal_table"] = deal_note(name, top)
        if "deal_table" not in borrowed:
            borrowed.append("deal_table")
    for rule, count in (("players_min", min), ("players_max", max)):
        if rule not in values:
            values[rule] = count(dict(values["deal_table"]))
            sources[rule] = FOLLOWS_DEAL


def open_rules(rules: HouseRules) -> list:
    """Rules the preset leaves to the table, to settle before play."""
    return [name for name in RULE_FIELDS if getattr(rules, name) == OPEN]


# -- the rules in words -----------------------------------------------------------------

_WORDS = {
    ("opening", "holder"): N_("Whoever holds the round's double lays it and opens"),
    ("opening", "highest-draw"): N_("The double goes in the centre; everyone draws a tile and the highest "
                                    "draw plays first"),
    ("opening", "turn-up"): N_("Tiles are turned up one at a time round the table; whoever finds the double "
                               "opens, and it is set aside before the deal"),
    ("opening", "centre-rotate"): N_("The double goes in the centre before the deal; the first turn moves "
                                     "one seat each round"),
    ("missing_double", "draw-until-found"): N_("Nobody holds the double: each player draws one tile in turn "
                                               "until someone finds it"),
    ("missing_double", "next-lower"): N_("Nobody holds the double: the round starts on the next lower "
                                         "double"),
    ("missing_double", "set-aside-before-deal"): N_("The double is set aside face up before the deal, so "
                                                    "nobody can be missing it"),
    ("missing_double", "cannot-happen"): N_("The double is out of the set before the deal, so nobody can be "
                                            "missing it"),
    ("must_play_drawn", True): N_("A drawn tile that fits must be played"),
    ("must_play_drawn", False): N_("A drawn tile that fits may be played"),
    ("keep_back", "none"): N_("Every boneyard tile can be drawn"),
    ("keep_back", "gamerules"): N_("The last two boneyard tiles are never drawn with 2 players, the last "
                                   "one with 3 or more"),
    ("impossible_foot", "play-on"): N_("A foot that can never be completed: play goes on, drawing while the "
                                       "boneyard lasts, until nobody can move"),
    ("impossible_foot", "round-ends"): N_("A foot that can never be completed ends the round at once"),
    ("impossible_foot", "released"): N_("A foot that can never be completed is released: play resumes on "
                                        "every open end"),
    ("impossible_foot", OPEN): N_("A foot that can never be completed: not settled; the table decides "
                                  "before play"),
    ("tie", "draw"): N_("Equal lowest totals: a draw"),
    ("tie", "first-out-wins"): N_("Equal lowest totals: the one who went out first in the last round wins"),
}


def describe(rules: HouseRules) -> list:
    """(rule, value in words, source) for every rule, for the house-rules card."""
    sources = rules.sources
    rows = [
        ("set", Message(N_("Double-%(top)d, %(tiles)d tiles"), {"top": rules.set, "tiles": SET_SIZES[rules.set]})),
        ("deal_table", Message(N_("Tiles each, by number of players: %(rows)s"),
                               {"rows": ", ".join(f"{n}: {each}" for n, each in rules.deal_table)})),
        ("players", Message(N_("%(low)d to %(high)d players"),
                            {"low": rules.players_min, "high": rules.players_max})),
        ("opening", _words(rules, "opening")),
        ("missing_double", _words(rules, "missing_double")),
        ("arms", _arms_words(rules)),
        ("toes", Message(N_("%(toes)d toes on every later double"), {"toes": rules.toes})),
        ("must_play_drawn", _words(rules, "must_play_drawn")),
        ("keep_back", _words(rules, "keep_back")),
        ("impossible_foot", _words(rules, "impossible_foot")),
        ("double_blank", _double_blank_words(rules)),
        ("out_on_double_penalty", _out_on_double_words(rules)),
        ("chicken_little", _chicken_little_words(rules)),
        ("match_length", _match_words(rules)),
        ("tie", _words(rules, "tie")),
    ]
    return [(rule, words, sources["players_max" if rule == "players" else rule]) for rule, words in rows]


def _words(rules: HouseRules, rule: str) -> Message:
    return Message(_WORDS[rule, getattr(rules, rule)])


def _arms_words(rules: HouseRules) -> Message:
    if rules.arms == "per-player":
        return Message(N_("One arm per player on the starting double, up to %(most)d"), {"most": MAX_ARMS})
    return Message(N_("%(arms)d arms on the starting double"), {"arms": rules.arms})


def _double_blank_words(rules: HouseRules) -> Message:
    if rules.double_blank:
        return Message(N_("[0-0] left in hand counts %(points)d"), {"points": rules.double_blank})
    return Message(N_("[0-0] left in hand counts its face value, 0"))


def _out_on_double_words(rules: HouseRules) -> Message:
    if rules.out_on_double_penalty:
        return Message(N_("Going out on a double is not allowed: it scores %(points)d"),
                       {"points": rules.out_on_double_penalty})
    return Message(N_("Going out on a double is allowed"))


def _chicken_little_words(rules: HouseRules) -> Message:
    if rules.chicken_little:
        return Message(N_("Chicken little: announce your last tile; if caught, draw %(tiles)d (or miss a turn "
                          "when the boneyard is empty)"), {"tiles": rules.chicken_little})
    return Message(N_("Chicken little is not played"))


def _match_words(rules: HouseRules) -> Message:
    if rules.match_length == "target":
        return Message(N_("Until someone passes %(target)d points; that player loses"), {"target": rules.target})
    doubles = round_doubles(rules)
    return Message(N_("%(rounds)d rounds, from [%(first)s] down to [%(last)s]"),
                   {"rounds": len(doubles), "first": str(doubles[0]), "last": str(doubles[-1])})
