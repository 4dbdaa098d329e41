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
from referee.rules.sources import BIG_TABLES, BIG_TABLE_NOTES, BORROWED, CHOSEN, FOLLOWS_DEAL, PRESET_NOTES
from referee.rules.text import Message, N_, RulesError, shown
from referee.rules.tiles import SET_SIZES, Tile, check_top, parse_tile
from referee.rules.values import as_flag, as_int, listed

OPEN = "table-decides"

OPTIONS = {
    "set": (6, 9, 12, 15, 18),
    "opening": ("holder", "highest-draw", "turn-up", "centre-rotate"),
    "missing_double": ("draw-until-found", "next-lower", "set-aside-before-deal", "cannot-happen"),
    # Gamerules (seed 002): "a four-player game may need 4, 5, 6, 7 or 8 trains": any count up to 8.
    "arms": (3, 4, 5, 6, 7, 8, "per-player"),
    "toes": (3,),
    "must_play_drawn": (False, True),
    "keep_back": ("none", "gamerules"),
    "impossible_foot": ("play-on", "round-ends", "released", OPEN),
    "double_blank": (50, 25, 0),
    "out_on_double_penalty": (0, 50),
    "chicken_little": (0, 1),
    "match_length": ("full", "half", "one-round", "target"),
    "round_start": ("descending", "highest"),
    "target_ends": ("reaching", "exceeding"),
    "tie": ("draw", "first-out-wins"),
}

# Openings that take the round's double out of the set before the deal (Kelley's double is
# in the centre before play, so it cannot be in anyone's hand or in the boneyard either).
SET_ASIDE_OPENINGS = ("highest-draw", "turn-up", "centre-rotate")
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
    round_start: str
    target_ends: str
    tie: str
    players_min: int
    players_max: int
    sources: Mapping = field(default_factory=dict, compare=False, repr=False)
    borrowed: tuple = field(default=(), compare=False)
    # (fewest players, set) when the set follows the player count; () once the table picks a set.
    big_table: tuple = field(default=(), compare=False)

    def __post_init__(self):
        _validate(self)


RULE_FIELDS = tuple(f.name for f in fields(HouseRules) if f.name not in ("name", "sources", "borrowed", "big_table"))


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
        if rules.big_table and count >= rules.big_table[0]:
            raise RulesError(N_("Under these house rules %(low)d or more players play a double-%(top)d set, not "
                                "double-%(set)d: start the game with all %(players)d players and the set follows."),
                             low=rules.big_table[0], top=rules.big_table[1], set=rules.set, players=count)
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
    """The double round `index` (0 first) is played on: one lower each round, from the top,
    or the highest of the set every round when the table plays the hub set's own rule.

    A match to an agreed total starts again at the top after [0-0].
    """
    index = as_int(index, "round")
    planned = round_count(rules)
    if index < 0 or (planned is not None and index >= planned):
        raise RulesError(N_("This match has no round %(round)d."), round=index + 1)
    if rules.round_start == "highest":
        return Tile(rules.set, rules.set)
    number = rules.set - index % (rules.set + 1)
    return Tile(number, number)


def started_double(rules: HouseRules, index, started=None) -> Tile:
    """The double round `index` really started on: the planned one unless the table says otherwise.

    Only Pagat's "next lower double" variant lets a round start below its planned double:
    when nobody holds it, the round starts on the next lower double someone does hold, and
    the skipped double becomes an ordinary tile that any hand may hold or draw later. Below
    [0-0] there is nothing, so that round falls back on drawing until someone finds it.
    """
    planned = round_double(rules, index)
    if started is None:
        return planned
    double = parse_tile(started, rules.set)
    if not double.is_double:
        raise RulesError(N_("[%(tile)s] is not a double, so no round can start on it."), tile=str(double))
    if double == planned:
        return planned
    params = {"round": as_int(index, "round") + 1, "double": str(double), "planned": str(planned)}
    if rules.missing_double != "next-lower":
        raise RulesError(N_("Round %(round)d starts on [%(planned)s] under these house rules, not on "
                            "[%(double)s]: only the \u201cnext lower double\u201d variant lets a round start lower."),
                         **params)
    if double > planned:
        raise RulesError(N_("Round %(round)d is played on [%(planned)s], so it cannot start on the higher "
                            "[%(double)s]: a round nobody could open starts on a lower double."), **params)
    return double


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


def next_match_order(rules: HouseRules, players) -> list:
    """The seats of the next match at this table (a rematch), first seat first.

    On the double chicken foot table (seed 004, "centre-rotate") the first turn moves one seat
    each round, so the next match's round 1 goes to the seat after this match's round 1: the order
    turns by one (not counted on from its last round). Other openings go by tiles or agreement.
    """
    if not isinstance(players, (list, tuple)):
        raise RulesError(N_("The players must be given as a list of names."))
    validate_players(rules, len(players))
    order = list(players)
    if rules.opening == "centre-rotate":
        return order[1:] + order[:1]
    return order


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


def _notes(source: Message, special: dict) -> dict:
    """Source notes for every rule: the preset's source, except where it says otherwise."""
    return {name: special.get(name, source) for name in RULE_FIELDS}


_NOTES = {name: _notes(source, special) for name, (source, special) in PRESET_NOTES.items()}

_COMMON = dict(set=9, toes=3, keep_back="none", chicken_little=0, match_length="full", target=None,
               round_start="descending", target_ends="reaching", tie="draw", players_min=2, players_max=6)

_VALUES = {
    "pagat": dict(opening="holder", missing_double="draw-until-found", arms=4, must_play_drawn=False,
                  impossible_foot=OPEN, double_blank=50, out_on_double_penalty=0),
    "pagat-reduced": dict(opening="holder", missing_double="draw-until-found", arms=4, must_play_drawn=False,
                          impossible_foot=OPEN, double_blank=50, out_on_double_penalty=0),
    "kelley": dict(opening="highest-draw", missing_double="cannot-happen", arms=4, must_play_drawn=False,
                   impossible_foot="play-on", double_blank=50, out_on_double_penalty=50),
    "gamerules": dict(opening="turn-up", missing_double="cannot-happen", arms="per-player", must_play_drawn=True,
                      keep_back="gamerules", impossible_foot="play-on", double_blank=0,
                      out_on_double_penalty=0, players_max=8),
    "hub8": dict(opening="holder", missing_double="draw-until-found", arms=8, must_play_drawn=False,
                 impossible_foot="play-on", double_blank=50, out_on_double_penalty=0, tie="first-out-wins",
                 players_max=8),
    "double-foot": dict(opening="centre-rotate", missing_double="cannot-happen", arms=6, must_play_drawn=True,
                        impossible_foot="play-on", double_blank=50, out_on_double_penalty=0,
                        target_ends="exceeding"),
}


def _build_preset(name: str) -> HouseRules:
    values = {**_COMMON, **_VALUES[name]}
    return HouseRules(name=name, deal_table=deal_table_for(name, values["set"]),
                      sources=MappingProxyType(_NOTES[name]), borrowed=BORROWED[name],
                      big_table=BIG_TABLES.get(name, ()), **values)


PRESETS = MappingProxyType({name: _build_preset(name) for name in _VALUES})


def preset(name, /, **overrides) -> HouseRules:
    """A validated copy of a named preset with the table's changes.

    Changing the set brings the preset's deal table for that set, and the player range
    that table covers, unless those are changed too. Every changed rule is noted as
    chosen by the table. Where the preset's set follows the player count (`BIG_TABLES`),
    a table whose fewest players reach the big-table count plays the bigger set with the
    source's deal, unless the table picks the set or the deal itself.
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
    big = () if "set" in values or "deal_table" in values else base.big_table
    if big and values.get("players_min", base.players_min) >= big[0]:
        _big_table(base, big, values, sources)
    top = values.get("set", base.set)
    if top != base.set:
        _follow_set(base.name, check_top(top), values, sources, borrowed)
    sources.update({rule: CHOSEN for rule, value in overrides.items() if values[rule] != getattr(base, rule)})
    return replace(base, sources=MappingProxyType(sources), borrowed=tuple(borrowed), big_table=big, **values)


def _big_table(base: HouseRules, big: tuple, values: dict, sources: dict) -> None:
    """A big table of a preset whose set follows the player count: the bigger set, with the
    source's deal for those counts (seed 004: double-twelve, 10 each for 7, 9 each for 8)."""
    fewest, top = big
    values["set"] = top
    values["deal_table"] = tuple(row for row in deal_table_for(base.name, top) if row[0] >= fewest)
    values.setdefault("players_max", max(dict(values["deal_table"])))
    sources["set"] = BIG_TABLE_NOTES[base.name]
    sources["deal_table"] = base.sources["deal_table"]


def table_overrides(name, overrides, players) -> dict:
    """The table's changes as this many players play them.

    Where the preset's set follows the player count and the table did not pick a set, a deal
    or a player range itself, a big table is recorded as such (its fewest players), so the
    rules rebuilt from the stored changes play the bigger set.
    """
    count = as_int(players, "players")
    overrides = dict(overrides or {})
    big = BIG_TABLES.get(name.strip().lower(), ()) if isinstance(name, str) else ()
    chosen = {"set", "deal_table", "players_min", "players_max"} & set(overrides)
    if big and not chosen and count >= big[0]:
        overrides["players_min"] = big[0]
    return overrides


def _follow_set(name: str, top: int, values: dict, sources: dict, borrowed: list) -> None:
    """Bring the preset's deal table and player range for another set, with where they come from."""
    if "deal_table" not in values:
        values["deal_table"] = deal_table_for(name, top)
        sources["deal_table"] = deal_note(name, top)
        if "deal_table" not in borrowed:
            borrowed.append("deal_table")
    for rule, count in (("players_min", min), ("players_max", max)):
        if rule not in values:
            values[rule] = count(dict(values["deal_table"]), default=0)  # an empty table is refused as such
            sources[rule] = FOLLOWS_DEAL


def open_rules(rules: HouseRules) -> list:
    """Rules the preset leaves to the table, to settle before play."""
    return [name for name in RULE_FIELDS if getattr(rules, name) == OPEN]


# -- the rules in words -----------------------------------------------------------------

# What each choice means, shown after the rule's name (web labels.TITLES) on the house-rules card
# and at the desk: so the words never repeat the name ("Nobody holds the double: Nobody ...").
_WORDS = {
    ("opening", "holder"): N_("Whoever holds the round's double lays it and opens"),
    ("opening", "highest-draw"): N_("The double goes in the centre; everyone draws a tile and the highest "
                                    "draw plays first"),
    ("opening", "turn-up"): N_("Tiles are turned up one at a time round the table; whoever finds the double "
                               "opens, and it is set aside before the deal"),
    ("opening", "centre-rotate"): N_("The double goes in the centre before the deal; the first turn moves "
                                     "one seat each round"),
    ("missing_double", "draw-until-found"): N_("Each player draws one tile in turn until someone finds it"),
    ("missing_double", "next-lower"): N_("The round starts on the next lower double someone holds, and the "
                                         "skipped double is an ordinary tile; in the [0-0] round, with no lower "
                                         "double, each player draws one tile in turn until someone finds it"),
    ("missing_double", "set-aside-before-deal"): N_("The double is set aside face up before the deal, so "
                                                    "nobody can be missing it"),
    ("missing_double", "cannot-happen"): N_("The double is out of the set before the deal, so nobody can be "
                                            "missing it"),
    ("must_play_drawn", True): N_("Must be played"),
    ("must_play_drawn", False): N_("May be played"),
    ("keep_back", "none"): N_("Every boneyard tile can be drawn"),
    ("keep_back", "gamerules"): N_("The last two boneyard tiles are never drawn with 2 players, the last "
                                   "one with 3 or more"),
    ("impossible_foot", "play-on"): N_("Play goes on, drawing while the boneyard lasts, until nobody can move"),
    ("impossible_foot", "round-ends"): N_("The round ends at once"),
    ("impossible_foot", "released"): N_("The foot is released: play resumes on every open end"),
    ("impossible_foot", OPEN): N_("Not settled; the table decides before play"),
    ("round_start", "descending"): N_("One double lower each round"),
    ("round_start", "highest"): N_("The highest double, every round"),
    ("target_ends", "reaching"): N_("Played to an agreed total: whoever reaches it loses"),
    ("target_ends", "exceeding"): N_("Played to an agreed total: whoever goes over it loses"),
    ("tie", "draw"): N_("A draw"),
    ("tie", "first-out-wins"): N_("The one who went out first in the last round wins"),
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
        ("toes", Message(N_("%(value)s toes"), {"value": rules.toes})),
        ("must_play_drawn", _words(rules, "must_play_drawn")),
        ("keep_back", _words(rules, "keep_back")),
        ("impossible_foot", _words(rules, "impossible_foot")),
        ("double_blank", _double_blank_words(rules)),
        ("out_on_double_penalty", _out_on_double_words(rules)),
        ("chicken_little", _chicken_little_words(rules)),
        ("match_length", _match_words(rules)),
        ("round_start", _words(rules, "round_start")),
        ("target_ends", _words(rules, "target_ends")),
        ("tie", _words(rules, "tie")),
    ]
    if rules.match_length != "target":
        rows = [row for row in rows if row[0] != "target_ends"]  # no agreed total: nothing to reach
    return [(rule, words, sources["players_max" if rule == "players" else rule]) for rule, words in rows]


def _words(rules: HouseRules, rule: str) -> Message:
    return Message(_WORDS[rule, getattr(rules, rule)])


def _arms_words(rules: HouseRules) -> Message:
    if rules.arms == "per-player":
        return Message(N_("One per player, up to %(most)d"), {"most": MAX_ARMS})
    return Message(N_("%(value)s arms"), {"value": rules.arms})


def _double_blank_words(rules: HouseRules) -> Message:
    if rules.double_blank:
        return Message(N_("Counts %(points)d points"), {"points": rules.double_blank})
    return Message(N_("Counts its face value, 0"))


def _out_on_double_words(rules: HouseRules) -> Message:
    if rules.out_on_double_penalty:
        return Message(N_("Not allowed: it scores %(points)d"), {"points": rules.out_on_double_penalty})
    return Message(N_("Allowed"))


def _chicken_little_words(rules: HouseRules) -> Message:
    if rules.chicken_little:
        return Message(N_("Announce your last tile; if caught, draw %(tiles)d (or miss a turn when the boneyard "
                          "is empty)"), {"tiles": rules.chicken_little})
    return Message(N_("Not played"))


def _match_words(rules: HouseRules) -> Message:
    if rules.match_length == "target":
        if rules.target_ends == "reaching":
            return Message(N_("Until someone reaches %(target)d points; that player loses"),
                           {"target": rules.target})
        return Message(N_("Until someone passes %(target)d points; that player loses"), {"target": rules.target})
    doubles = round_doubles(rules)
    if rules.round_start == "highest":
        return Message(N_("%(rounds)d rounds, each on [%(first)s]"),
                       {"rounds": len(doubles), "first": str(doubles[0])})
    return Message(N_("%(rounds)d rounds, from [%(first)s] down to [%(last)s]"),
                   {"rounds": len(doubles), "first": str(doubles[0]), "last": str(doubles[-1])})
