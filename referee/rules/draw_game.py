"""The regular draw game ("Gewoon Domino" in seed 004): everyone for themselves, a line with two ends.

2-4 players, double-six (double-nine and double-twelve as options); 7 tiles each with 2
players, 5 each with 3 or 4; whoever holds the highest double plays first, with any tile; a
player who cannot play draws until a tile fits or the boneyard is empty. The first player out
wins the hand and scores the pips left in the other hands; a blocked hand goes to the lowest
count. One hand decides the game, unless the table plays to a target total.

API
    DrawRules(set=6, target=None)                                frozen, always valid
    draw_rules(**overrides) -> DrawRules                         from form or JSON values
    DRAW_OPTIONS                                                 choices for forms
    describe(rules) -> [(rule, Message, source Message)]         the house-rules card
    deal(rules, players) -> referee.rules.Deal                   players: names or their number
    opener_text(rules) -> Message                                who plays first
    score_hand(rules, hands, went_out=None, blocked=False) -> DrawResult
    match_state(rules, players, results) -> DrawMatch            totals, finished, winners

`hands` maps every player to the tiles left in hand (a list, or a typed line) or to their pip
total. Bad input raises RulesError, never anything else.

Where seed 004 is silent, this module chooses:
- A blocked hand's winner (the lowest count) scores what a player who goes out scores: the pips
  left in the other hands (the seed says only that the hand "goes to the lowest count").
- Two or more players tied for the lowest count in a blocked hand: nobody scores. This is the
  app's choice, following seed 003's rule for a blocked team hand with equal pips ("À égalité,
  personne ne marque").
- When one hand decides the game, a blocked hand that nobody wins decides nothing: deal again.
- With a target, the first player to reach it wins ("atteint", as seed 003 plays its target).
  Only one player scores in a hand, so two can never reach it together.
- Every hand opens the same way (highest double); if nobody holds a double, shuffle and deal again.
"""

from dataclasses import dataclass, field
from typing import Mapping, Optional

from referee.rules.house_rules import CHOSEN, Deal
from referee.rules.team_game import check_out, player_names, read_hands
from referee.rules.text import Message, N_, RulesError, shown
from referee.rules.tiles import SET_SIZES
from referee.rules.values import as_flag, as_int

__all__ = ["DrawRules", "draw_rules", "DRAW_OPTIONS", "describe", "deal", "opener_text", "DrawResult",
           "score_hand", "DrawMatch", "match_state"]

# Seed 004: 7 tiles each with two players, 5 with three or four, whatever the set.
DEAL = {2: 7, 3: 5, 4: 5}

DRAW_OPTIONS = {
    "set": (6, 9, 12),
    # None: one hand decides (seed 004). The numbers are suggestions borrowed from team dominoes'
    # match lengths (seed 003); any whole number above 0 is accepted.
    "target": (None, 50, 100, 200),
}

REGULAR = Message(N_("Regular draw game"))


@dataclass(frozen=True)
class DrawRules:
    """The house rules of a draw game. Defaults are seed 004's: double-six, one hand decides."""

    set: int = 6
    target: Optional[int] = None

    def __post_init__(self):
        if type(self.set) is not int or self.set not in DRAW_OPTIONS["set"]:
            raise RulesError(N_("The draw game is played with a double-six, double-nine or double-twelve set, not "
                                "double-%(top)s."), top=shown(self.set))
        if self.target is not None and (type(self.target) is not int or self.target < 1):
            raise RulesError(N_("The target must be a whole number of points above 0, not %(target)s."),
                             target=shown(self.target))


def draw_rules(**overrides) -> DrawRules:
    """Seed 004's draw game with the table's changes, from Python values or what a form sends.

    A target of None, "" or "none" means one hand decides the game.
    """
    values = {}
    for name, value in overrides.items():
        if name == "set":
            values[name] = as_int(value, name)
        elif name == "target":
            one_hand = value is None or (isinstance(value, str) and value.strip().lower() in ("", "none",
                                                                                            "one-hand"))
            values[name] = None if one_hand else as_int(value, name)
        else:
            raise RulesError(N_("'%(name)s' is not a draw game rule: the rules are %(rules)s."),
                             name=shown(name), rules=", ".join(DRAW_OPTIONS))
    return DrawRules(**values)


def _check_rules(rules) -> DrawRules:
    if not isinstance(rules, DrawRules):
        raise RulesError(N_("These are not draw game rules."))
    return rules


def describe(rules: DrawRules) -> list:
    """(rule, value in words, source) for every rule, for the house-rules card."""
    _check_rules(rules)
    top = Message(N_("Double-%(top)d, %(tiles)d tiles"), {"top": rules.set, "tiles": SET_SIZES[rules.set]})
    if rules.target is None:
        length = Message(N_("One hand decides the game"))
    else:
        length = Message(N_("First to reach %(target)d points wins the game"), {"target": rules.target})
    default = DrawRules()
    return [("set", top, REGULAR if rules.set == default.set else CHOSEN),
            ("target", length, REGULAR if rules.target == default.target else CHOSEN)]


def _count(players) -> int:
    count = len(player_names(players)) if isinstance(players, (list, tuple)) else as_int(players, "players")
    if count not in DEAL:
        raise RulesError(N_("The draw game is for 2 to 4 players, not %(players)d."), players=count)
    return count


def deal(rules: DrawRules, players) -> Deal:
    """7 tiles each with 2 players, 5 with 3 or 4; the rest is the boneyard.

    `double_in_boneyard` is the chance the set's top double was not dealt.
    """
    _check_rules(rules)
    count = _count(players)
    size = SET_SIZES[rules.set]
    boneyard = size - count * DEAL[count]
    return Deal(players=count, per_player=DEAL[count], boneyard=boneyard, keep_back=0, drawable=boneyard,
                double_in_boneyard=boneyard / size)


def opener_text(rules: DrawRules) -> Message:
    """Who plays first (seed 004: the holder of the highest double begins, with any tile)."""
    _check_rules(rules)
    # What happens when nobody holds a double is the app's choice: the seed does not say.
    return Message(N_("Whoever holds the highest double ([%(double)s] if it was dealt) plays first, with any "
                      "tile. If nobody holds a double, shuffle and deal again."),
                   {"double": f"{rules.set}-{rules.set}"})


@dataclass(frozen=True)
class DrawResult:
    """One hand: who won it and what everyone scores (0 for all but the winner)."""

    winner: Optional[str]
    points: dict = field(hash=False)
    pips: dict = field(hash=False)
    went_out: Optional[str]
    blocked: bool
    tied: tuple
    reason: Message


def score_hand(rules: DrawRules, hands, went_out=None, blocked=False) -> DrawResult:
    """Score one hand: the first out, or the lowest count in a blocked hand, scores the others' pips."""
    _check_rules(rules)
    if not isinstance(hands, Mapping):
        raise RulesError(N_("The hands must be given per player name: tiles or a pip total for each."))
    names = player_names(list(hands))
    count = _count(names)
    blocked = as_flag(blocked, "blocked")
    if went_out is not None and (not isinstance(went_out, str) or went_out not in names):
        raise RulesError(N_("'%(player)s' went out but is not one of the players."), player=shown(went_out))
    if blocked and went_out is not None:
        raise RulesError(N_("A blocked hand has nobody going out, yet %(player)s is marked as going out."),
                         player=went_out)
    if not blocked and went_out is None:
        raise RulesError(N_("Say who went out, or mark the hand as blocked."))
    # Everything a player could hold: the deal plus the whole boneyard.
    most_tiles = SET_SIZES[rules.set] - (count - 1) * DEAL[count]
    held = read_hands(hands, names, rules.set, most_tiles)
    check_out(held, went_out)
    pips = {player: points for player, (_, points) in held.items()}
    points = {player: 0 for player in names}
    if went_out is not None:
        points[went_out] = sum(pips.values())
        return DrawResult(winner=went_out, points=points, pips=pips, went_out=went_out, blocked=False, tied=(),
                          reason=Message(N_("%(player)s went out and scores the %(points)d pips left in the "
                                            "other hands."), {"player": went_out, "points": points[went_out]}))
    lowest = min(pips.values())
    tied = tuple(player for player in names if pips[player] == lowest)
    if len(tied) > 1:
        # The app's choice (seed 004 is silent): a tie for the lowest count scores nothing.
        return DrawResult(winner=None, points=points, pips=pips, went_out=None, blocked=True, tied=tied,
                          reason=Message(N_("Blocked, and %(players)s tie for the lowest count (%(pips)d): "
                                            "nobody scores."), {"players": ", ".join(tied), "pips": lowest}))
    winner = tied[0]
    # The seed only says the hand goes to the lowest count; it scores what going out would.
    points[winner] = sum(pips.values()) - lowest
    return DrawResult(winner=winner, points=points, pips=pips, went_out=None, blocked=True, tied=(),
                      reason=Message(N_("Blocked: %(player)s has the lowest count (%(pips)d) and scores the "
                                        "%(points)d pips left in the other hands."),
                                     {"player": winner, "pips": lowest, "points": points[winner]}))


@dataclass(frozen=True)
class DrawMatch:
    """Totals after the hands so far, and who won once the game is over."""

    totals: dict = field(hash=False)
    hands_played: int
    finished: bool
    winners: tuple
    summary: Optional[Message]


def match_state(rules: DrawRules, players, results) -> DrawMatch:
    """Add up the hands: one won hand decides, or the first to reach the target wins."""
    _check_rules(rules)
    names = player_names(players)
    _count(names)
    if isinstance(results, (str, Mapping, DrawResult)) or not isinstance(results, (list, tuple)):
        raise RulesError(N_("The hands played must be given as a list of hand results."))
    totals = {player: 0 for player in names}
    winner = None
    for number, result in enumerate(results, start=1):
        if not isinstance(result, DrawResult) or not isinstance(result.points, Mapping):
            raise RulesError(N_("Hand %(number)d is not a scored hand."), number=number)
        if winner is not None:
            raise RulesError(N_("The game was already won after hand %(hand)d, so hand %(number)d cannot be "
                                "scored."), hand=number - 1, number=number)
        if set(result.points) != set(names) or (result.winner is not None and result.winner not in names):
            raise RulesError(N_("Hand %(number)d was not played by these players."), number=number)
        for player in names:
            value = result.points[player]
            if type(value) is not int or value < 0:
                raise RulesError(N_("Hand %(number)d has no points for %(player)s."), number=number,
                                 player=player)
            totals[player] += value
        if rules.target is None:
            winner = result.winner
        elif result.winner is not None and totals[result.winner] >= rules.target:
            winner = result.winner
    summary = None
    if winner is not None:
        if rules.target is None:
            summary = Message(N_("%(player)s wins the game: one hand decides it."), {"player": winner})
        else:
            summary = Message(N_("%(player)s wins the game with %(points)d points."),
                              {"player": winner, "points": totals[winner]})
    return DrawMatch(totals=totals, hands_played=len(results), finished=winner is not None,
                     winners=(winner,) if winner is not None else (), summary=summary)
