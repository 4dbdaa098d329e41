"""Scores: what each round costs, the running totals, and when and how the match ends.

A low total is good: every pip left in hand at the end of a round counts against you.
"""

import re
from dataclasses import dataclass
from typing import Mapping

from referee.rules.house_rules import HouseRules, round_count, validate_players
from referee.rules.text import N_, RulesError, shown
from referee.rules.tiles import Tile, check_one_owner, parse_hand, set_pips
from referee.rules.values import as_count, as_flag

__all__ = ["PipTotal", "hand_points", "score_round", "running_totals", "totals", "leaders", "match_over",
           "winners", "round_count"]

DOUBLE_BLANK = Tile(0, 0)
_PIP_TOTAL = re.compile(r"^\s*[+-]?[0-9]{1,12}\s*$")


@dataclass(frozen=True)
class PipTotal:
    """A hand given as its typed pip total, and whether it holds the [0-0] besides.

    The [0-0] has no pips, so a typed total never shows it; where the house rules give it a
    value of its own (50, or 25), the hand says it holds it and the points add that value.
    """

    pips: int
    double_blank: bool = False


def hand_points(rules: HouseRules, tiles) -> int:
    """Points for the tiles left in a hand: face value, [0-0] at the house value.

    A `PipTotal` counts its pips, plus the house value of the [0-0] when it holds it.
    """
    # double_blank 0 means face value, which for [0-0] is 0 as well.
    if isinstance(tiles, PipTotal):
        return tiles.pips + (rules.double_blank if tiles.double_blank else 0)
    return sum(rules.double_blank if tile == DOUBLE_BLANK else tile.pips for tile in tiles)


def score_round(rules: HouseRules, hands, went_out=None, out_on_double=False, blocked=False) -> dict:
    """Each player's points for one round, from the tiles or pip total left in hand.

    A pip total is a number, or a `PipTotal` that also says whether the hand holds the
    [0-0]. The player who went out scores 0, or the house penalty for going out on a
    double. A round nobody went out of is blocked: everyone counts what is left.
    """
    if not isinstance(hands, Mapping) or not all(isinstance(name, str) for name in hands):
        raise RulesError(N_("The hands must be given per player name: tiles or a pip total for each."))
    validate_players(rules, len(hands))
    out_on_double = as_flag(out_on_double, "out_on_double")
    blocked = as_flag(blocked, "blocked")
    if went_out is not None and (not isinstance(went_out, str) or went_out not in hands):
        raise RulesError(N_("'%(player)s' went out but is not one of the players."), player=shown(went_out))
    if blocked and went_out is not None:
        raise RulesError(N_("A blocked round has nobody going out, yet %(player)s is marked as going out."),
                         player=went_out)
    if out_on_double and went_out is None:
        raise RulesError(N_("Going out on a double needs the player who went out."))
    held = _read_hands(rules, hands)
    points = {player: hand if type(hand) is int else hand_points(rules, hand) for player, hand in held.items()}
    _check_total(rules, sum(points.values()))
    for player, hand in held.items():
        if player == went_out and hand not in (0, []):
            raise RulesError(N_("%(player)s went out, so nothing can be left in that hand."), player=player)
        if player != went_out and hand == []:
            raise RulesError(N_("%(player)s has no tiles left, so %(player)s went out: mark it so."), player=player)
    if went_out is not None:
        points[went_out] = rules.out_on_double_penalty if out_on_double else 0
    return points


def _read_hands(rules: HouseRules, hands: Mapping) -> dict:
    """Each hand as a list of tiles or a pip total; no tile may be in two hands.

    A typed total that holds the [0-0] counts as holding that tile: no other hand can.
    """
    held = {player: _read_hand(rules, player, hand) for player, hand in hands.items()}
    check_one_owner({player: [DOUBLE_BLANK] if isinstance(hand, PipTotal) and hand.double_blank else hand
                     for player, hand in held.items() if isinstance(hand, (list, PipTotal))})
    return held


def _read_hand(rules: HouseRules, player: str, hand):
    if isinstance(hand, PipTotal):
        pips = _read_hand(rules, player, hand.pips)
        if type(pips) is not int:
            raise RulesError(N_("For %(player)s give the tiles left in hand or their pip total, not %(value)s."),
                             player=player, value=shown(hand.pips))
        if type(hand.double_blank) is not bool:
            raise RulesError(N_("'%(value)s' is not yes or no (%(what)s)."), value=shown(hand.double_blank),
                             what="double_blank")
        if pips > set_pips(rules.set):
            raise RulesError(N_("%(points)d points is more than a whole double-%(top)d set is worth (%(most)d)."),
                             points=pips, top=rules.set, most=set_pips(rules.set))
        return PipTotal(pips, hand.double_blank) if hand.double_blank else pips
    if isinstance(hand, str) and _PIP_TOTAL.match(hand):
        hand = int(hand)
    if type(hand) is int:
        if hand < 0:
            raise RulesError(N_("%(player)s cannot have a negative total (%(points)d)."), player=player, points=hand)
        _check_total(rules, hand)
        return hand
    if hand is None or isinstance(hand, (bool, float, Mapping)):
        raise RulesError(N_("For %(player)s give the tiles left in hand or their pip total, not %(value)s."),
                         player=player, value=shown(hand))
    return parse_hand(hand, rules.set)


def _check_total(rules: HouseRules, points: int) -> None:
    """No hand, and no round, can hold more than the whole set is worth."""
    most = set_pips(rules.set) + rules.double_blank
    if points > most:
        raise RulesError(N_("%(points)d points is more than a whole double-%(top)d set is worth (%(most)d)."),
                         points=points, top=rules.set, most=most)


def running_totals(players, rounds) -> list:
    """Each player's total after each round, in round order."""
    names = _names(players)
    current = {name: 0 for name in names}
    running = []
    for number, scores in enumerate(rounds, start=1):
        if not isinstance(scores, Mapping):
            raise RulesError(N_("Round %(round)d has no scores per player."), round=number)
        for name in scores:
            if name not in current:
                raise RulesError(N_("Round %(round)d scores %(player)s, who does not play in this match."),
                                 round=number, player=shown(name))
        for name in names:
            if name not in scores:
                raise RulesError(N_("Round %(round)d has no score for %(player)s."), round=number, player=name)
            current[name] += as_count(scores[name], "points")
        running.append(dict(current))
    return running


def totals(players, rounds) -> dict:
    """Each player's total after the rounds played so far (all 0 before the first)."""
    running = running_totals(players, rounds)
    return running[-1] if running else {name: 0 for name in _names(players)}


def _names(players) -> list:
    if isinstance(players, str) or not all(isinstance(name, str) for name in players):
        raise RulesError(N_("The players must be given as a list of names."))
    return list(players)


def leaders(totals: Mapping) -> list:
    """The players with the lowest total."""
    _check_totals(totals)
    if not totals:
        return []
    lowest = min(totals.values())
    return [name for name, total in totals.items() if total == lowest]


def _check_totals(totals) -> None:
    if not isinstance(totals, Mapping) or not all(type(total) is int for total in totals.values()):
        raise RulesError(N_("The totals must give each player a whole number of points."))


def match_over(rules: HouseRules, rounds_played, totals: Mapping) -> bool:
    """Whether the match has ended under its match-length rule."""
    played = as_count(rounds_played, "rounds played")
    _check_totals(totals)
    if rules.match_length == "target":
        # Pagat (seed 000): whoever reaches the agreed total loses ("celui qui l'atteint perd"), so
        # a total equal to it ends the match; the double chicken foot table (seed 004) ends it
        # only when someone goes over it ("overschrijdt").
        if rules.target_ends == "reaching":
            return any(total >= rules.target for total in totals.values())
        return any(total > rules.target for total in totals.values())
    return played >= round_count(rules)


def winners(rules: HouseRules, totals: Mapping, first_out=None) -> list:
    """Who wins: the lowest total, or all the tied lowest unless the tie rule picks one.

    Under "first-out-wins" (8-arm hub set) the tied player who went out first in the last
    round wins; when none of the tied players went out, nothing separates them.
    """
    tied = leaders(totals)
    if first_out is not None and first_out not in list(totals):
        raise RulesError(N_("'%(player)s' went out first but is not one of the players."), player=shown(first_out))
    if len(tied) > 1 and rules.tie == "first-out-wins" and first_out in tied:
        return [first_out]
    return tied
