"""Team dominoes (2 v 2): the partnership block game of seed 003, and its 1 v 1 variant.

Four players in two teams, partners opposite, play passing to the right; double-six, all 28
tiles dealt, 7 each, no boneyard (1 v 1: 7 each, 14 left to draw from). Hands add up until a
team reaches the target. Every rule below is seed 003's tournament rule unless a house option
(`TeamRules`) changes it; docs/rules.md, section "Team dominoes", sums them up.

API
    TeamRules(set=6, target=100, score_losers_only=False, blocked_to_blocker=False,
              capicu_bonus=0, one_v_one=False)                  frozen, always valid
    team_rules(**overrides) -> TeamRules                         from form or JSON values
    TEAM_OPTIONS, TARGETS                                        choices for forms
    describe(rules) -> [(rule, Message, source Message)]         the house-rules card
    seating(rules, players) -> Seating                           teams, names, turn order
    deal(rules, players) -> referee.rules.Deal                   7 each; boneyard 0 or 14
    is_capicu(last_tile, ends) -> bool                           a non-double fitting two different ends
    check_capicu(last_tile, ends) -> Tile                        the same, refused with the reason
    score_hand(rules, players, hands, went_out=None, blocked=False, blocker=None,
               capicu=False, last_tile=None, ends=None) -> HandResult
    match_state(rules, players, hand_results) -> MatchState      totals, winner, cochon
    opener(rules, players, previous=None) -> Message             who opens the next hand

`players` is always the list of names in seat order: players[0] and players[2] are partners
against players[1] and players[3], and the turn passes in list order (to the right). Team 0 is
(players[0], players[2]); a team's name is "Ann & Cy". In 1 v 1 each "team" is one player.

`hands` maps every player to the tiles left in hand (a list, or a typed line "6-6, 4-1") or
to their pip total ("23" or 23). Bad input raises RulesError, never anything else.

Where seed 003 is silent, this module chooses (and says so where it decides):
- "Only the losing team's pips" applies to blocked hands too: the blocked hand's winner then
  scores the pips the other side held.
- When the blocker's side takes a blocked hand (house option), equal pips do not matter: the
  blocker's side scores, all pips or the losers' pips as the other option says.
- The capicu bonus is added on top of the hand's pips, and only when someone went out.
- 1 v 1: pips in the boneyard are not counted (seed 003 counts the pips "left in the hands");
  [6-6] may be in the boneyard for the first hand, so then the highest double held opens with
  it, and if nobody holds a double the tiles are shuffled and dealt again.
"""

import re
from dataclasses import dataclass, field, fields
from typing import Mapping, Optional

from referee.rules.house_rules import CHOSEN, Deal
from referee.rules.text import Message, N_, RulesError, shown
from referee.rules.tiles import SET_SIZES, Tile, full_set, parse_hand, parse_tile, set_pips
from referee.rules.values import as_flag, as_int

__all__ = ["TeamRules", "team_rules", "TEAM_OPTIONS", "TARGETS", "describe", "Seating", "seating", "deal",
           "is_capicu", "check_capicu", "HandResult", "score_hand", "MatchState", "match_state", "opener"]

TOP = 6
HAND = 7
PLAYERS = 4
PLAYERS_ONE_V_ONE = 2

# Seed 003: Classique 100, Courte 50, Longue 200 ("d'autres tables jouent en 150, voire en 500").
TARGETS = {"classic": 100, "short": 50, "long": 200}

TEAM_OPTIONS = {
    "set": (6,),
    # The named match lengths; any whole number above 0 is accepted too.
    "target": (100, 50, 200),
    "score_losers_only": (False, True),
    "blocked_to_blocker": (False, True),
    "capicu_bonus": (0, 25, 30),
    "one_v_one": (False, True),
}

TOURNAMENT = Message(N_("Tournament rules"))


@dataclass(frozen=True)
class TeamRules:
    """The house rules of a team dominoes match. Defaults are seed 003's tournament rules."""

    set: int = TOP
    target: int = 100
    score_losers_only: bool = False
    blocked_to_blocker: bool = False
    capicu_bonus: int = 0
    one_v_one: bool = False

    def __post_init__(self):
        _validate(self)


TEAM_FIELDS = tuple(f.name for f in fields(TeamRules))
_FLAGS = ("score_losers_only", "blocked_to_blocker", "one_v_one")


def _validate(rules: TeamRules) -> None:
    if type(rules.set) is not int or rules.set != TOP:
        raise RulesError(N_("Team dominoes is played with a double-six set, not double-%(top)s."),
                         top=shown(rules.set))
    if type(rules.target) is not int or rules.target < 1:
        raise RulesError(N_("The target must be a whole number of points above 0, not %(target)s."),
                         target=shown(rules.target))
    for name in _FLAGS:
        if type(getattr(rules, name)) is not bool:
            raise RulesError(N_("'%(value)s' is not yes or no (%(what)s)."), value=shown(getattr(rules, name)),
                             what=name)
    if type(rules.capicu_bonus) is not int or rules.capicu_bonus not in TEAM_OPTIONS["capicu_bonus"]:
        raise RulesError(N_("The capicu bonus is 0 (none), 25 or 30 points, not %(value)s."),
                         value=shown(rules.capicu_bonus))


def team_rules(**overrides) -> TeamRules:
    """Tournament rules with the table's changes, from Python values or what a form sends.

    The target may also be named: "classic" (100), "short" (50) or "long" (200).
    """
    for name in overrides:
        if name not in TEAM_FIELDS:
            raise RulesError(N_("'%(name)s' is not a team dominoes rule: the rules are %(rules)s."),
                             name=shown(name), rules=", ".join(TEAM_FIELDS))
    return TeamRules(**{name: _coerce(name, value) for name, value in overrides.items()})


def _coerce(name: str, value):
    if name in _FLAGS:
        return as_flag(value, name)
    if name == "target" and isinstance(value, str) and value.strip().lower() in TARGETS:
        return TARGETS[value.strip().lower()]
    if name == "capicu_bonus" and isinstance(value, str) and value.strip().lower() in ("off", "none", "no"):
        return 0
    return as_int(value, name)


def describe(rules: TeamRules) -> list:
    """(rule, value in words, source) for every rule, for the house-rules card."""
    if not isinstance(rules, TeamRules):
        raise RulesError(N_("These are not team dominoes rules."))
    default = TeamRules()
    if rules.one_v_one:
        players = Message(N_("1 v 1: 7 tiles each, 14 left to draw from; draw until a tile fits"))
    else:
        players = Message(N_("4 players in two teams, partners opposite; all 28 tiles dealt, 7 each; "
                             "pass only when nothing fits"))
    if rules.score_losers_only:
        scoring = Message(N_("The winning side scores only the pips left in the losing side's hands"))
    else:
        scoring = Message(N_("The winning side scores every pip left in all hands, partner's included"))
    if rules.blocked_to_blocker:
        blocked = Message(N_("The side of the player who laid the blocking tile"))
    else:
        blocked = Message(N_("The side with fewer pips; equal pips: nobody scores"))
    if rules.capicu_bonus:
        capicu = Message(N_("A capicu earns a %(bonus)d-point bonus"), {"bonus": rules.capicu_bonus})
    else:
        capicu = Message(N_("A capicu earns no bonus"))
    target = Message(N_("First side to reach %(target)d points wins the match"), {"target": rules.target})
    rows = [("set", Message(N_("Double-six, 28 tiles"))), ("one_v_one", players),
            ("score_losers_only", scoring), ("blocked_to_blocker", blocked), ("capicu_bonus", capicu),
            ("target", target)]
    return [(rule, words, TOURNAMENT if getattr(rules, rule) == getattr(default, rule) else CHOSEN)
            for rule, words in rows]


# -- seats and deal -----------------------------------------------------------------------


@dataclass(frozen=True)
class Seating:
    """Who plays with whom and in what order."""

    order: tuple
    teams: tuple
    team_names: tuple

    def team_of(self, player: str) -> int:
        for index, team in enumerate(self.teams):
            if player in team:
                return index
        raise RulesError(N_("'%(player)s' is not at this table."), player=shown(player))

    @property
    def text(self) -> Message:
        if len(self.order) == PLAYERS_ONE_V_ONE:
            return Message(N_("%(first)s plays against %(second)s."),
                           {"first": self.order[0], "second": self.order[1]})
        return Message(N_("%(a)s and %(c)s are partners and sit opposite each other, as do %(b)s and %(d)s. "
                          "Play passes to the right: %(a)s, %(b)s, %(c)s, %(d)s."),
                       dict(zip("abcd", self.order)))


def _check_rules(rules) -> TeamRules:
    if not isinstance(rules, TeamRules):
        raise RulesError(N_("These are not team dominoes rules."))
    return rules


def _player_count(rules: TeamRules) -> int:
    return PLAYERS_ONE_V_ONE if rules.one_v_one else PLAYERS


def seating(rules: TeamRules, players) -> Seating:
    """Teams (players 0 and 2 against 1 and 3), their names and the turn order."""
    _check_rules(rules)
    names = player_names(players)
    needed = _player_count(rules)
    if len(names) != needed:
        if rules.one_v_one:
            raise RulesError(N_("1 v 1 is for 2 players, not %(players)d."), players=len(names))
        raise RulesError(N_("Team dominoes needs 4 players, two teams of two, not %(players)d."),
                         players=len(names))
    if rules.one_v_one:
        teams = ((names[0],), (names[1],))
    else:
        teams = ((names[0], names[2]), (names[1], names[3]))
    return Seating(order=tuple(names), teams=teams, team_names=tuple(" & ".join(team) for team in teams))


def player_names(players) -> list:
    """The players as a list of distinct, non-empty names."""
    if isinstance(players, (str, Mapping)) or not isinstance(players, (list, tuple)):
        raise RulesError(N_("The players must be given as a list of names."))
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise RulesError(N_("'%(name)s' is not a player's name."), name=shown(name))
    if len(set(players)) != len(players):
        twice = next(name for name in players if players.count(name) > 1)
        raise RulesError(N_("%(player)s is listed twice: every player needs a different name."), player=twice)
    return list(players)


def deal(rules: TeamRules, players) -> Deal:
    """7 tiles each; with four players all 28 are dealt, in 1 v 1 14 stay to draw from.

    `players` is the list of names or their number. `double_in_boneyard` is the chance that
    [6-6] is not in anyone's hand (1 v 1 only).
    """
    _check_rules(rules)
    count = len(player_names(players)) if isinstance(players, (list, tuple)) else as_int(players, "players")
    needed = _player_count(rules)
    if count != needed:
        if rules.one_v_one:
            raise RulesError(N_("1 v 1 is for 2 players, not %(players)d."), players=count)
        raise RulesError(N_("Team dominoes needs 4 players, two teams of two, not %(players)d."), players=count)
    size = SET_SIZES[TOP]
    boneyard = size - count * HAND
    return Deal(players=count, per_player=HAND, boneyard=boneyard, keep_back=0, drawable=boneyard,
                double_in_boneyard=boneyard / size)


# -- reading hands ------------------------------------------------------------------------

_PIP_TOTAL = re.compile(r"^\s*[+-]?[0-9]{1,12}\s*$")


def most_pips(top: int, tiles: int) -> int:
    """The most `tiles` tiles of a double-`top` set can be worth."""
    values = sorted((tile.pips for tile in full_set(top)), reverse=True)
    return sum(values[:tiles])


def read_hands(hands, names: list, top: int, most_tiles: int) -> dict:
    """Each player's hand as (tiles or None, pips), checked against the set.

    Every player needs a hand; no tile may be in two hands; a hand holds at most `most_tiles`
    tiles and the pips that many tiles can be worth; all hands together at most the whole set.
    """
    if not isinstance(hands, Mapping):
        raise RulesError(N_("The hands must be given per player name: tiles or a pip total for each."))
    for player in hands:
        if player not in names:
            raise RulesError(N_("'%(player)s' is not at this table."), player=shown(player))
    most = most_pips(top, most_tiles)
    held, owner = {}, {}
    for player in names:
        if player not in hands:
            raise RulesError(N_("No hand was given for %(player)s: give the tiles left or their pip total."),
                             player=player)
        tiles, points = _read_hand(player, hands[player], top)
        if tiles is not None:
            if len(tiles) > most_tiles:
                raise RulesError(N_("%(player)s cannot hold %(tiles)d tiles: at most %(most)d in this game."),
                                 player=player, tiles=len(tiles), most=most_tiles)
            for tile in tiles:
                if tile in owner:
                    raise RulesError(N_("[%(tile)s] is in the hands of both %(first)s and %(second)s; a set has "
                                        "only one."), tile=str(tile), first=owner[tile], second=player)
                owner[tile] = player
        if points > most:
            raise RulesError(N_("%(player)s cannot hold %(points)d pips: %(tiles)d tiles of a double-%(top)d set "
                                "are worth at most %(most)d."), player=player, points=points, tiles=most_tiles,
                             top=top, most=most)
        held[player] = (tiles, points)
    total = sum(points for _, points in held.values())
    if total > set_pips(top):
        raise RulesError(N_("%(points)d pips in all hands is more than a whole double-%(top)d set is worth "
                            "(%(most)d)."), points=total, top=top, most=set_pips(top))
    return held


def _read_hand(player: str, hand, top: int):
    if isinstance(hand, str) and _PIP_TOTAL.match(hand):
        hand = int(hand)
    if type(hand) is int:
        if hand < 0:
            raise RulesError(N_("%(player)s cannot have a negative total (%(points)d)."), player=player, points=hand)
        return None, hand
    if hand is None or isinstance(hand, (bool, float, Mapping)):
        raise RulesError(N_("For %(player)s give the tiles left in hand or their pip total, not %(value)s."),
                         player=player, value=shown(hand))
    tiles = parse_hand(hand, top)
    return tiles, sum(tile.pips for tile in tiles)


def check_out(held: dict, went_out) -> None:
    """The player who went out holds nothing; everyone else holds something."""
    for player, (tiles, points) in held.items():
        if player == went_out and (points or tiles):
            raise RulesError(N_("%(player)s went out, so nothing can be left in that hand."), player=player)
        if player != went_out and tiles == []:
            raise RulesError(N_("%(player)s has no tiles left, so %(player)s went out: mark it so."),
                             player=player)


def _one_of(player, names: list, msgid: str) -> str:
    if not isinstance(player, str) or player not in names:
        raise RulesError(msgid, player=shown(player))
    return player


# -- capicu -------------------------------------------------------------------------------


def _read_ends(ends) -> tuple:
    """The two open ends as numbers, from (3, 5), ["3", "5"], "3 5", "3-5" or "[3-5]", the way
    tiles are written everywhere else."""
    if isinstance(ends, Tile):
        ends = [ends.high, ends.low]
    if isinstance(ends, str):
        ends = [piece for piece in re.split(r"[\s,;|/\-\u2013]+", ends.strip().strip("[]").strip()) if piece]
    if not isinstance(ends, (list, tuple)) or len(ends) != 2:
        raise RulesError(N_("Give the two ends the last tile went on as two numbers, such as 3 and 5, not "
                            "%(value)s."), value=shown(ends))
    numbers = tuple(as_int(end, "ends") for end in ends)
    for number in numbers:
        if not 0 <= number <= TOP:
            raise RulesError(N_("An end of a double-six line shows 0 to 6, not %(number)d."), number=number)
    return numbers


def is_capicu(last_tile, ends) -> bool:
    """Whether going out with `last_tile` on a line whose two ends showed `ends` is a capicu.

    Seed 003: a non-double that fits both ends when they show different numbers.
    """
    tile = parse_tile(last_tile, TOP)
    first, second = _read_ends(ends)
    return not tile.is_double and first != second and {tile.high, tile.low} == {first, second}


def check_capicu(last_tile, ends) -> Tile:
    """The capicu tile, refused unless it is a non-double that fits both ends the line showed
    before it was laid, and those ends show different numbers (seed 003)."""
    if last_tile is None or ends is None:
        raise RulesError(N_("A capicu needs the last tile laid and the two ends it could go on."))
    tile = parse_tile(last_tile, TOP)
    first, second = _read_ends(ends)
    if tile.is_double:
        raise RulesError(N_("[%(tile)s] is a double: going out with a double is never a capicu."), tile=str(tile))
    if first == second:
        raise RulesError(N_("Both ends showed %(number)d: a capicu needs ends that show different numbers."),
                         number=first)
    if {tile.high, tile.low} != {first, second}:
        raise RulesError(N_("[%(tile)s] does not fit both ends (%(first)d and %(second)d), so it is not a "
                            "capicu."), tile=str(tile), first=first, second=second)
    return tile


# -- one hand -----------------------------------------------------------------------------


@dataclass(frozen=True)
class HandResult:
    """What one hand gives: which team (index into Seating.teams) scores how much, and why."""

    winner_team: Optional[int]
    points: int
    team_points: dict = field(hash=False)
    team_pips: tuple
    went_out: Optional[str]
    blocker: Optional[str]
    capicu: bool
    reason: Message


_OUT = {
    (False, False): N_("%(player)s went out: %(points)d points to %(team)s, every pip left in all hands."),
    (True, False): N_("%(player)s went out: %(points)d points to %(team)s, the pips left in the hands of "
                      "%(losers)s."),
    (False, True): N_("%(player)s went out with a capicu: %(points)d points to %(team)s, every pip left in all "
                      "hands (%(pips)d) and the %(bonus)d-point capicu bonus."),
    (True, True): N_("%(player)s went out with a capicu: %(points)d points to %(team)s, the pips left in the "
                     "hands of %(losers)s (%(pips)d) and the %(bonus)d-point capicu bonus."),
}
_BLOCKED_FEWER = {
    False: N_("Blocked: %(team)s held fewer pips (%(fewer)d against %(more)d), so %(points)d points to "
              "%(team)s, every pip left on both sides."),
    True: N_("Blocked: %(team)s held fewer pips (%(fewer)d against %(more)d), so %(points)d points to "
             "%(team)s, the pips left in the hands of %(losers)s."),
}
_BLOCKED_BLOCKER = {
    False: N_("Blocked by %(blocker)s, and these rules give a blocked hand to the blocker's side: "
              "%(points)d points to %(team)s, every pip left on both sides."),
    True: N_("Blocked by %(blocker)s, and these rules give a blocked hand to the blocker's side: "
             "%(points)d points to %(team)s, the pips left in the hands of %(losers)s."),
}


def score_hand(rules: TeamRules, players, hands, went_out=None, blocked=False, blocker=None, capicu=False,
               last_tile=None, ends=None) -> HandResult:
    """Score one hand: either someone went out, or it is blocked and someone laid the blocking tile.

    A capicu is claimed with capicu=True and proved with the last tile laid and the two ends
    it could go on (`ends`, e.g. (3, 5) or "3-5"); a claim that is not a capicu is refused.
    """
    seat = seating(_check_rules(rules), players)
    names = list(seat.order)
    blocked = as_flag(blocked, "blocked")
    capicu = as_flag(capicu, "capicu")
    if went_out is not None:
        went_out = _one_of(went_out, names, N_("'%(player)s' went out but is not one of the players."))
    if blocker is not None:
        blocker = _one_of(blocker, names, N_("'%(player)s' laid the blocking tile but is not one of the players."))
    if blocked and went_out is not None:
        raise RulesError(N_("A blocked hand has nobody going out, yet %(player)s is marked as going out."),
                         player=went_out)
    if not blocked and went_out is None:
        raise RulesError(N_("Say who went out, or mark the hand as blocked."))
    if blocked and blocker is None:
        raise RulesError(N_("A blocked hand needs the player who laid the blocking tile: that player opens "
                            "the next hand."))
    if not blocked and blocker is not None:
        raise RulesError(N_("Only a blocked hand has a blocker, yet %(player)s is marked as one."), player=blocker)
    if capicu and went_out is None:
        raise RulesError(N_("A capicu is going out, so a blocked hand cannot be one."))
    last = check_capicu(last_tile, ends) if capicu else None
    most_tiles = HAND + SET_SIZES[TOP] - len(names) * HAND  # 7, or 21 in 1 v 1 with the whole boneyard drawn
    held = read_hands(hands, names, TOP, most_tiles)
    check_out(held, went_out)
    if last is not None:
        for player, (tiles, _) in held.items():
            if tiles and last in tiles:
                raise RulesError(N_("[%(tile)s] was laid last, so it cannot still be in %(player)s's hand."),
                                 tile=str(last), player=player)
    pips = tuple(sum(held[player][1] for player in team) for team in seat.teams)
    everything = sum(pips)

    def won_by(team: int, reason: str, **params) -> HandResult:
        losers = pips[1 - team]
        points = losers if rules.score_losers_only else everything
        bonus = rules.capicu_bonus if capicu else 0
        params.update(points=points + bonus, pips=points, bonus=bonus, team=seat.team_names[team],
                      losers=seat.team_names[1 - team])
        team_points = {0: 0, 1: 0}
        team_points[team] = points + bonus
        return HandResult(winner_team=team, points=points + bonus, team_points=team_points, team_pips=pips,
                          went_out=went_out, blocker=blocker, capicu=capicu, reason=Message(reason, params))

    if went_out is not None:
        return won_by(seat.team_of(went_out), _OUT[rules.score_losers_only, bool(capicu and rules.capicu_bonus)],
                      player=went_out)
    if rules.blocked_to_blocker:
        return won_by(seat.team_of(blocker), _BLOCKED_BLOCKER[rules.score_losers_only], blocker=blocker)
    if pips[0] == pips[1]:
        return HandResult(winner_team=None, points=0, team_points={0: 0, 1: 0}, team_pips=pips, went_out=None,
                          blocker=blocker, capicu=False,
                          reason=Message(N_("Blocked with %(pips)d pips on each side: nobody scores."),
                                         {"pips": pips[0]}))
    fewer = 0 if pips[0] < pips[1] else 1
    return won_by(fewer, _BLOCKED_FEWER[rules.score_losers_only], fewer=pips[fewer], more=pips[1 - fewer])


# -- the match ----------------------------------------------------------------------------


@dataclass(frozen=True)
class MatchState:
    """Team totals after the hands so far, and the winner once a team reaches the target."""

    totals: dict = field(hash=False)
    team_names: tuple
    hands_played: int
    finished: bool
    winner_team: Optional[int]
    cochon: bool
    summary: Optional[Message]


def match_state(rules: TeamRules, players, hand_results) -> MatchState:
    """Add up the hands; the first team to reach the target wins (seed 003: "atteint").

    Only one team scores in a hand, so two teams can never reach it together. Cochon: the
    winners won while the other team still has 0.
    """
    seat = seating(_check_rules(rules), players)
    if isinstance(hand_results, (str, Mapping, HandResult)) or not isinstance(hand_results, (list, tuple)):
        raise RulesError(N_("The hands played must be given as a list of hand results."))
    totals = {0: 0, 1: 0}
    winner = None
    for number, result in enumerate(hand_results, start=1):
        _check_result(result, number, seat)
        if winner is not None:
            raise RulesError(N_("The match was already won after hand %(hand)d, so hand %(number)d cannot be "
                                "scored."), hand=number - 1, number=number)
        for team in (0, 1):
            totals[team] += result.team_points[team]
        reached = [team for team in (0, 1) if totals[team] >= rules.target]
        if reached:
            winner = reached[0]
    cochon = winner is not None and totals[1 - winner] == 0
    summary = None
    if winner is not None:
        params = {"team": seat.team_names[winner], "won": totals[winner], "lost": totals[1 - winner]}
        if cochon:
            summary = Message(N_("The match goes to %(team)s, %(won)d to 0: cochon!"), params)
        else:
            summary = Message(N_("The match goes to %(team)s, %(won)d to %(lost)d."), params)
    return MatchState(totals=totals, team_names=seat.team_names, hands_played=len(hand_results),
                      finished=winner is not None, winner_team=winner, cochon=cochon, summary=summary)


def _check_result(result, number: Optional[int], seat: Seating) -> None:
    """A hand result that belongs to this table; `number` None means the last hand, for opener."""
    if not isinstance(result, HandResult):
        if number is None:
            raise RulesError(N_("The last hand must be a scored hand, or nothing before the first hand."))
        raise RulesError(N_("Hand %(number)d is not a scored hand."), number=number)
    for player in (result.went_out, result.blocker):
        if player is not None and player not in seat.order:
            if number is None:
                raise RulesError(N_("The last hand was played by %(player)s, who is not at this table."),
                                 player=shown(player))
            raise RulesError(N_("Hand %(number)d was played by %(player)s, who is not at this table."),
                             number=number, player=shown(player))
    points = result.team_points
    if not isinstance(points, Mapping) or set(points) != {0, 1} or \
            not all(type(value) is int and value >= 0 for value in points.values()):
        raise RulesError(N_("A scored hand must give points to the two teams."))


def opener(rules: TeamRules, players, previous: Optional[HandResult] = None) -> Message:
    """Who opens the next hand (seed 003, "Qui ouvre" and "Les jeux bloqués").

    First hand: the holder of [6-6] opens with it. Then the player who went out in the last
    hand opens with any tile; after a blocked hand, the player who laid the blocking tile does,
    whichever side won it.
    """
    seat = seating(_check_rules(rules), players)
    if previous is None:
        if rules.one_v_one:
            # Seed 003 does not say what happens when [6-6] is undealt in 1 v 1: the app's choice.
            return Message(N_("First hand: whoever holds [6-6] opens with it. If it was not dealt, whoever "
                              "holds the highest double opens with that double; if nobody holds a double, "
                              "shuffle and deal again."))
        return Message(N_("First hand: whoever holds [6-6] opens with it."))
    _check_result(previous, None, seat)
    if previous.went_out is not None:
        return Message(N_("%(player)s went out last hand, so %(player)s opens, with any tile."),
                       {"player": previous.went_out})
    if previous.blocker is not None:
        return Message(N_("%(player)s laid the blocking tile last hand, so %(player)s opens, with any tile."),
                       {"player": previous.blocker})
    raise RulesError(N_("The last hand says neither who went out nor who blocked it."))
