"""Rulings for the referee desk: can this foot still be completed, and what now?

Every ruling counts from what the whole table can see, so anyone can check it: a number
is on top+1 tiles of the set, and the ones not yet laid are the only tiles that can still
fill a foot.
"""

from dataclasses import dataclass

from referee.rules.house_rules import HouseRules, MAX_ARMS, deal, opener, round_count, round_double, validate_players
from referee.rules.text import Message, N_, NP_, RulesError
from referee.rules.tiles import SET_SIZES, Tile, parse_tile, parse_tiles, suit
from referee.rules.values import as_count, as_flag


@dataclass(frozen=True)
class FootRuling:
    """The count behind a foot, whether it can be completed, and what the house rule says."""

    double: Tile
    starting: bool
    needed: int
    toes_laid: int
    toes_missing: int
    unseen: list
    completable: bool
    outcome: str
    parts: list
    rule: Message
    #: Whether the ruling ends the round now, so the table counts its hands: the house rule
    #: ends it at once, or play goes on but nobody can move (nothing to lay, nothing to draw).
    ends_round: bool = False

    @property
    def explanation(self) -> str:
        return " ".join(str(part) for part in self.parts)


def judge_foot(rules: HouseRules, double, on_table, toes_laid=0, drawable=0, starting=False,
               players=None) -> FootRuling:
    """Rule on the foot of `double`, given every tile laid anywhere on the table.

    A later double needs its toes (3); the starting double needs its arms. The foot can
    still be completed exactly when the tiles of its number not yet on the table are at
    least as many as the toes still missing: those are the only tiles that fit it.
    """
    top = rules.set
    double = parse_tile(double, top)
    if not double.is_double:
        raise RulesError(N_("[%(tile)s] is not a double, so it has no foot."), tile=str(double))
    starting = as_flag(starting, "starting")
    table = _table_tiles(on_table, top)
    if double not in table:
        raise RulesError(N_("[%(double)s] itself must be among the tiles on the table."), double=str(double))
    needed = _needed(rules, starting, players)
    toes_laid = as_count(toes_laid, "toes_laid")
    drawable = as_count(drawable, "drawable")
    _check_count(rules, double, table, needed, toes_laid, drawable, starting)
    unseen = [tile for tile in suit(double.high, top) if tile not in table]
    missing = needed - toes_laid
    completable = len(unseen) >= missing
    outcome = "completable" if completable else rules.impossible_foot
    parts = _count_parts(rules, double, table, unseen, needed, toes_laid, starting)
    parts += _verdict_parts(rules, len(unseen), missing, drawable, starting)
    if not completable:
        parts += _consequence_parts(outcome, len(unseen), drawable)
    rule = rules.sources["impossible_foot" if not completable else "arms" if starting else "toes"]
    ends_round = not completable and (outcome == "round-ends" or (outcome == "play-on" and not unseen
                                                                   and not drawable))
    return FootRuling(double=double, starting=starting, needed=needed, toes_laid=toes_laid, toes_missing=missing,
                      unseen=unseen, completable=completable, outcome=outcome, parts=parts, rule=rule,
                      ends_round=ends_round)


def _table_tiles(on_table, top: int) -> list:
    tiles = parse_tiles(on_table, top)
    seen = set()
    for tile in tiles:
        if tile in seen:
            raise RulesError(N_("[%(tile)s] is listed twice on the table; a set has only one."), tile=str(tile))
        seen.add(tile)
    return tiles


def _needed(rules: HouseRules, starting: bool, players) -> int:
    """Toes for a later double; arms for the starting double (one per player, up to 8, if so agreed)."""
    count = None if players is None else validate_players(rules, players)
    if not starting:
        return rules.toes
    if rules.arms != "per-player":
        return rules.arms
    if count is None:
        raise RulesError(N_("Say how many players there are: under these rules the starting double needs one "
                            "arm per player."))
    return min(count, MAX_ARMS)


def _check_count(rules, double, table, needed, toes_laid, drawable, starting) -> None:
    """Refuse a table that contradicts itself."""
    if toes_laid > needed:
        raise RulesError(NP_("[%(double)s] takes %(needed)d tile, not %(laid)d.",
                             "[%(double)s] takes %(needed)d tiles, not %(laid)d.", "needed"),
                         double=str(double), needed=needed, laid=toes_laid)
    carrying = sum(tile.has(double.high) for tile in table)
    # A later double was laid against a tile of its number; the starting double was not.
    fixed = 1 if starting else 2
    if carrying < fixed + toes_laid:
        raise RulesError(NP_("The table shows %(count)d tile carrying %(number)d: too few for [%(double)s], "
                             "what it was laid against and %(laid)d laid on it.",
                             "The table shows %(count)d tiles carrying %(number)d: too few for [%(double)s], "
                             "what it was laid against and %(laid)d laid on it.", "count"),
                         count=carrying, number=double.high, double=str(double), laid=toes_laid)
    left = SET_SIZES[rules.set] - len(table)
    if drawable > left:
        raise RulesError(NP_("%(drawable)d tile to draw is more than the %(left)d that are not on the table.",
                             "%(drawable)d tiles to draw is more than the %(left)d that are not on the table.",
                             "drawable"),
                         drawable=drawable, left=left)


def _count_parts(rules, double, table, unseen, needed, toes_laid, starting) -> list:
    """The count, step by step: the suit, what is on the table, what is not, what is needed."""
    number, name = double.high, str(double)
    on_table = sum(tile.has(number) for tile in table)
    parts = [
        Message(N_("A double-%(top)d set has %(count)d tiles carrying %(number)d, [%(double)s] counted once."),
                {"top": rules.set, "count": rules.set + 1, "number": number, "double": name}),
        Message(N_("On the table: %(seen)d of them, [%(double)s] included."), {"seen": on_table, "double": name}),
    ]
    if unseen:
        parts.append(Message(N_("Not on the table yet: %(count)d (%(tiles)s)."),
                             {"count": len(unseen), "tiles": ", ".join(f"[{tile}]" for tile in unseen)}))
    else:
        parts.append(Message(N_("Every tile carrying %(number)d is on the table."), {"number": number}))
    params = {"double": name, "needed": needed, "laid": toes_laid, "missing": needed - toes_laid}
    if starting:
        parts.append(Message(N_("The starting double [%(double)s] needs %(needed)d arms: %(laid)d laid, "
                                "%(missing)d missing."), params))
    else:
        parts.append(Message(N_("[%(double)s] needs %(needed)d toes: %(laid)d laid, %(missing)d missing."), params))
    return parts


#: Logged with the game's rulings (referee_desk.record), as the boneyard's notes are.
LEFT_TO_DRAW = NP_("The ones not on the table are in players' hands or in the boneyard, which has %(drawable)d tile "
                   "left to draw.",
                   "The ones not on the table are in players' hands or in the boneyard, which has %(drawable)d tiles "
                   "left to draw.", "drawable")


def _verdict_parts(rules, unseen: int, missing: int, drawable: int, starting: bool) -> list:
    if missing == 0:
        if starting:
            return [Message(N_("No arm is missing: the starting double is complete and play may go anywhere."))]
        return [Message(N_("No toe is missing: the foot is complete and every open end is playable again."))]
    params = {"unseen": unseen, "missing": missing, "drawable": drawable}
    if unseen < missing:
        return [Message(N_("Tiles that can still be laid on it: %(unseen)d; missing: %(missing)d. This foot "
                           "can never be completed."), params)]
    parts = [Message(N_("Tiles that can still be laid on it: %(unseen)d; missing: %(missing)d. The foot can "
                        "still be completed."), params)]
    if drawable:
        parts.append(Message(LEFT_TO_DRAW, params))
    else:
        parts.append(Message(N_("Nothing is left to draw, so only tiles that players hold can still be laid "
                                "on it.")))
    if rules.keep_back != "none":
        # Gamerules (seed 002): kept-back tiles are never drawn, so a tile among them never comes.
        parts.append(Message(N_("The last boneyard tiles are never drawn under these rules: if a tile it needs "
                                "is among them, the foot cannot be completed after all.")))
    return parts


def _consequence_parts(outcome: str, unseen: int, drawable: int) -> list:
    """What the house rule makes of a foot that can never be completed."""
    params = {"drawable": drawable}
    if outcome == "play-on":
        # Kelley (seed 000), the hub set (seed 001, FAQ b and f) and the double chicken foot table
        # (seed 004): who cannot play draws one tile while the boneyard lasts, else passes, and
        # the round ends when nobody can move.
        if not unseen and not drawable:
            return [Message(N_("Play goes on, but nobody can add to it and nothing is left to draw: nobody can "
                               "move, so the round ends now."))]
        if not unseen:
            return [Message(N_("Play goes on, but nobody can add to it: players draw one tile a turn while the "
                               "boneyard lasts (%(drawable)d left), and the round ends when nobody can move."),
                            params)]
        if not drawable:
            return [Message(N_("Play goes on: whoever holds one of the tiles not on the table may still lay it, "
                               "a player who cannot passes since nothing is left to draw, and the round ends "
                               "when nobody can move."))]
        return [Message(N_("Play goes on: whoever holds one of the tiles not on the table may still lay it, a "
                           "player who cannot draws one tile while the boneyard lasts (%(drawable)d left), and "
                           "the round ends when nobody can move."), params)]
    if outcome == "round-ends":
        return [Message(N_("Under these house rules the round ends now: everyone counts the pips left in hand."))]
    if outcome == "released":
        return [Message(N_("Under these house rules the foot is released: play resumes on every open end and "
                           "the foot stays unfinished."))]
    return [Message(N_("These house rules do not say what happens now. The table must choose: play on until "
                       "nobody can move, end the round now, or release the foot and play anywhere. Note the "
                       "choice: it holds for the rest of the match."))]


# -- small rulings for the referee desk ----------------------------------------------------


def _source(rules: HouseRules, rule: str) -> Message:
    return Message(N_("Source: %(source)s."), {"source": rules.sources[rule]})


def out_on_double_ruling(rules: HouseRules) -> list:
    """May a player lay a double as his last tile?"""
    if rules.out_on_double_penalty:
        return [Message(N_("Going out on a double is not allowed under these rules.")),
                Message(N_("A player who does it anyway scores %(points)d for the round instead of 0."),
                        {"points": rules.out_on_double_penalty}),
                _source(rules, "out_on_double_penalty")]
    return [Message(N_("Going out on a double is allowed: that player scores 0 like anyone who goes out.")),
            _source(rules, "out_on_double_penalty")]


def boneyard_draw_ruling(rules: HouseRules) -> list:
    """A player who cannot play: how much to draw and what to do with it."""
    parts = [Message(N_("A player who cannot play draws one tile, not until one fits."))]
    if rules.must_play_drawn:
        parts.append(Message(N_("If the drawn tile fits, it must be played; otherwise the turn passes.")))
    else:
        parts.append(Message(N_("If the drawn tile fits, it may be played; otherwise the turn passes.")))
    parts.append(Message(N_("With nothing left to draw, a player who cannot play passes.")))
    if rules.keep_back == "gamerules":
        parts.append(Message(N_("The last two boneyard tiles are never drawn with 2 players, the last one with "
                                "3 or more.")))
    return parts + [_source(rules, "must_play_drawn")]


def missing_double_ruling(rules: HouseRules, players, round_index=None) -> list:
    """Nobody holds the round's double: what now, and how often that happens with this deal.

    With `round_index` the ruling is for that round: under the "next lower double" variant
    the [0-0] round has no lower double, so its players draw until someone finds [0-0].
    """
    dealt = deal(rules, players)
    chance = Message(N_("With %(players)d players dealt %(per_player)d tiles each, %(boneyard)d tiles stay in "
                        "the boneyard: the round's double is among them %(percent).1f %% of the time."),
                     {"players": dealt.players, "per_player": dealt.per_player, "boneyard": dealt.boneyard,
                      "percent": dealt.double_in_boneyard * 100})
    if rules.missing_double == "draw-until-found":
        parts = [Message(N_("Nobody holds the round's double: each player in turn draws one tile until someone "
                            "finds it.")), chance]
    elif rules.missing_double == "next-lower":
        parts = _next_lower_parts(rules, round_index) + [chance]
    elif rules.missing_double == "set-aside-before-deal":
        parts = [Message(N_("The round's double is set aside face up before the deal, so it can never be "
                            "missing."))]
    elif rules.opening == "turn-up":
        parts = [Message(N_("The round's double is found by turning tiles up and set aside before the deal, so "
                            "it can never be missing."))]
    elif rules.opening == "highest-draw":
        parts = [Message(N_("The round's double is put in the centre before play, so it can never be missing "
                            "and is never in the boneyard."))]
    else:
        parts = [Message(N_("The round's double goes in the centre before the deal, so it can never be "
                            "missing."))]
    return parts + [_source(rules, "missing_double")]


def _next_lower_parts(rules: HouseRules, round_index) -> list:
    """Pagat's variant: the next lower double someone holds opens; the [0-0] round has none."""
    skipped = Message(N_("The skipped double is then an ordinary tile: whoever draws it later keeps it, and it "
                         "counts in hand like any other."))
    if round_index is not None:
        double = round_double(rules, round_index)
        params = {"round": as_count(round_index, "round") + 1, "double": str(double)}
        if double.high == 0:
            # Pagat does not say what happens below [0-0]: its main rule, drawing until found.
            return [Message(N_("Round %(round)d is played on [%(double)s], and there is no lower double to start "
                               "on: each player in turn draws one tile until someone finds [%(double)s]."), params)]
        return [Message(N_("Nobody holds [%(double)s]: round %(round)d starts on the next lower double that "
                           "someone holds, and is entered with the double it started on."), params), skipped]
    return [Message(N_("Nobody holds the round's double: the round starts on the next lower double that someone "
                       "holds instead, and is entered with the double it started on.")), skipped,
            Message(N_("The [0-0] round has no lower double: there, each player in turn draws one tile until "
                       "someone finds [0-0]."))]


def chicken_little_ruling(rules: HouseRules) -> list:
    """Must a player announce his last tile?"""
    if not rules.chicken_little:
        return [Message(N_("Chicken little is not played: nobody has to announce a last tile.")),
                _source(rules, "chicken_little")]
    return [Message(N_("A player down to one tile must announce it.")),
            Message(N_("If someone points out that a player did not, that player draws %(tiles)d from the "
                       "boneyard, or misses a turn when it is empty."), {"tiles": rules.chicken_little}),
            _source(rules, "chicken_little")]


def next_double_ruling(rules: HouseRules, players, round_index) -> list:
    """Which double a round is played on, and who opens it."""
    double = round_double(rules, round_index)
    index = as_count(round_index, "round")
    params = {"round": index + 1, "double": str(double), "rounds": round_count(rules), "target": rules.target}
    if rules.match_length == "target" and rules.target_ends == "reaching":
        first = Message(N_("Round %(round)d is played on [%(double)s]; the match goes on until someone reaches "
                           "%(target)d points."), params)
    elif rules.match_length == "target":
        first = Message(N_("Round %(round)d is played on [%(double)s]; the match goes on until someone passes "
                           "%(target)d points."), params)
    else:
        first = Message(N_("Round %(round)d of %(rounds)d is played on [%(double)s]."), params)
    return [first, opener(rules, players, index), _source(rules, "opening")]


def tie_ruling(rules: HouseRules) -> list:
    """Equal lowest totals at the end of the match."""
    parts = []
    if rules.match_length == "target" and rules.target_ends == "reaching":
        parts.append(Message(N_("Whoever reaches %(target)d points loses; the lowest total wins."),
                             {"target": rules.target}))
    elif rules.match_length == "target":
        parts.append(Message(N_("Whoever passes %(target)d points loses; the lowest total wins."),
                             {"target": rules.target}))
    if rules.tie == "first-out-wins":
        parts += [Message(N_("Equal lowest totals: the tied player who went out first in the last round wins.")),
                  Message(N_("If none of the tied players went out in the last round, nothing separates them "
                             "and it is a draw."))]
    else:
        parts.append(Message(N_("Equal lowest totals share the win: it is a draw between them.")))
    return parts + [_source(rules, "tie")]
