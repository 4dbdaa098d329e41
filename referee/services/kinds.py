"""The three games the app keeps score for, behind one small interface for the service layer.

Chicken Foot (the default, `referee.rules.house_rules` and `referee.rules.scoring`), team
dominoes 2 v 2 (`referee.rules.team_game`) and the regular draw game
(`referee.rules.draw_game`). Each kind turns stored entries
into what the scoreboard shows: the columns (players, or teams), each round's points per
column, the totals, who leads, whether the match is over and who won. Every decision is the
rules core's; this module only maps between its shapes and the service layer's.
"""

from dataclasses import dataclass, field
from typing import Optional

from referee.rules import draw_game, house_rules as cf_rules, scoring, team_game
from referee.rules.text import Message, N_, RulesError

CHICKEN_FOOT, TEAM, DRAW = "chicken-foot", "team", "draw"


@dataclass
class Entry:
    """One round as entered: per player tiles (list), a pip total (a number, or a
    `scoring.PipTotal` that also holds the [0-0]); how it ended.

    `started_on` is the double a Chicken Foot round really started on when the table's rules
    let it start below its planned double (None: the planned one). `capicu_ends` are the two
    open ends of the line before a capicu tile was laid: a new entry names them (the page
    and the API require them); a saved capicu was checked against them when it was saved,
    so without them its ends are its own two numbers.
    """

    hands: dict
    went_out: Optional[str] = None
    blocked: bool = False
    out_on_double: bool = False
    blocker: Optional[str] = None
    capicu_tile: Optional[str] = None
    capicu_ends: Optional[object] = None
    started_on: Optional[str] = None


@dataclass
class Scored:
    """A scored round: points per player (stored with each hand) and per scoreboard column."""

    player_points: dict
    column_points: dict
    winner_column: Optional[str] = None
    reason: Optional[Message] = None
    result: object = None


@dataclass
class Standing:
    totals: dict
    finished: bool
    winners: list
    summary: Optional[Message] = None
    leaders: list = field(default_factory=list)


class Kind:
    """What every game has unless it says otherwise: a column per player, no round doubles,
    no fixed number of rounds, no seating to explain, tiles up to the set's top number, a
    [0-0] left in hand worth its pips (none).

    The pages ask a kind what they need rather than comparing its name: the word for one
    deal (`unit`, "round" or "hand"), whether the referee desk rules on it, whether its
    rounds open on a double, whether a blocked hand asks who blocked it, and how its
    rules are written."""

    name = ""
    high_wins = True
    title = ""
    #: The game's name in a list of games ("Team dominoes", without its seating).
    short_title = ""
    unit = "hand"
    has_desk = False
    round_doubles = False
    asks_blocker = False
    has_presets = False

    def rules_spec(self, preset: str, overrides: dict) -> dict:
        """The game's rules as the API shows them and takes them back."""
        return dict(overrides)

    def table_overrides(self, preset: str, overrides: dict, players: int) -> dict:
        """The table's changes as this many players play them (what a new game stores)."""
        return dict(overrides)

    def placeholder_seats(self, rules) -> int:
        """How many seats to preview before any name is typed."""
        return 2

    def columns(self, rules, players: list) -> list:
        return list(players)

    def column_of(self, rules, players: list, player: str) -> str:
        return player

    def seating(self, rules, players: list) -> Optional[Message]:
        return None

    def tiles_top(self, rules) -> int:
        return rules.set

    def round_double(self, rules, number: int):
        return None

    def started_double(self, rules, number: int, started=None):
        """The double round `number` really started on: none in a game without round doubles."""
        if started is not None:
            raise RulesError(N_("The hands of this game do not open on a round's double, so none can be named."))
        return None

    def rounds_planned(self, rules, played: int) -> Optional[int]:
        return None

    def double_blank(self, rules, number: int) -> int:
        return 0

    def next_match_order(self, rules, players: list) -> list:
        """The seats of a rematch, first seat first. The team and draw games open their first
        hand by the tiles (team_game.opener: whoever holds [6-6]; draw_game.opener_text: whoever
        holds the highest double), never by a seat, so the table keeps its order."""
        return list(players)


class ChickenFoot(Kind):
    name = CHICKEN_FOOT
    high_wins = False
    title = N_("Chicken Foot")
    short_title = N_("Chicken Foot")
    unit = "round"
    has_desk = True
    round_doubles = True
    has_presets = True

    def rules_spec(self, preset: str, overrides: dict) -> dict:
        return {"preset": preset, **overrides}

    def rules(self, preset_name, overrides):
        return cf_rules.preset(preset_name, **overrides)

    def table_overrides(self, preset: str, overrides: dict, players: int) -> dict:
        """A double chicken foot table of 7 or 8 plays double-twelve (house_rules.table_overrides)."""
        return cf_rules.table_overrides(preset, overrides, players)

    def deal(self, rules, players: list):
        return cf_rules.deal(rules, len(players))

    def round_double(self, rules, number: int):
        return cf_rules.round_double(rules, number - 1)

    def started_double(self, rules, number: int, started=None):
        return cf_rules.started_double(rules, number - 1, started)

    def rounds_planned(self, rules, played: int) -> Optional[int]:
        return scoring.round_count(rules)

    def double_blank(self, rules, number: int) -> int:
        """What a [0-0] left in hand counts in round `number`: none is left in the round
        it opens."""
        return 0 if self.round_double(rules, number) == scoring.DOUBLE_BLANK else rules.double_blank

    def score(self, rules, players, number, entry: Entry) -> Scored:
        points = scoring.score_round(rules, entry.hands, went_out=entry.went_out,
                                     out_on_double=entry.out_on_double, blocked=entry.blocked)
        return Scored(player_points=points, column_points=points, winner_column=entry.went_out)

    def standing(self, rules, players, scored: list) -> Standing:
        totals = scoring.totals(players, [s.column_points for s in scored])
        finished = bool(scored) and scoring.match_over(rules, len(scored), totals)
        winners = []
        if finished:
            winners = scoring.winners(rules, totals, first_out=scored[-1].winner_column)
        return Standing(totals=totals, finished=finished, winners=winners,
                        leaders=scoring.leaders(totals) if scored else [])

    def opener(self, rules, players, number, scored: list) -> Message:
        return cf_rules.opener(rules, players, number - 1)

    def describe(self, rules) -> list:
        return cf_rules.describe(rules)

    def next_match_order(self, rules, players: list) -> list:
        """Turned by one seat where the first turn goes round the table (house_rules.next_match_order)."""
        return cf_rules.next_match_order(rules, players)


class Team(Kind):
    name = TEAM
    high_wins = True
    title = N_("Team dominoes (2 v 2)")
    short_title = N_("Team dominoes")
    asks_blocker = True

    def placeholder_seats(self, rules) -> int:
        return 2 if rules.one_v_one else 4

    def rules(self, preset_name, overrides):
        return team_game.team_rules(**overrides)

    def deal(self, rules, players: list):
        return team_game.deal(rules, players)

    def columns(self, rules, players: list) -> list:
        return list(team_game.seating(rules, players).team_names)

    def column_of(self, rules, players: list, player: str) -> str:
        seats = team_game.seating(rules, players)
        return seats.team_names[seats.team_of(player)]

    def seating(self, rules, players: list) -> Message:
        return team_game.seating(rules, players).text

    def tiles_top(self, rules) -> int:
        return team_game.TOP

    def score(self, rules, players, number, entry: Entry) -> Scored:
        # The core checks the tile against the two ends the line showed before it. A capicu
        # saved without them was checked when it was saved: its ends are its own two numbers.
        tile = entry.capicu_tile
        ends = entry.capicu_ends if entry.capicu_ends is not None else tile
        result = team_game.score_hand(rules, players, entry.hands, went_out=entry.went_out, blocked=entry.blocked,
                                      blocker=entry.blocker, capicu=tile is not None, last_tile=tile, ends=ends)
        seats = team_game.seating(rules, players)
        names = seats.team_names
        column_points = {names[i]: result.team_points[i] for i in (0, 1)}
        player_points = {p: result.team_points[seats.team_of(p)] for p in players}
        winner = names[result.winner_team] if result.winner_team is not None else None
        return Scored(player_points=player_points, column_points=column_points, winner_column=winner,
                      reason=result.reason, result=result)

    def standing(self, rules, players, scored: list) -> Standing:
        state = team_game.match_state(rules, players, [s.result for s in scored])
        totals = {state.team_names[i]: state.totals[i] for i in (0, 1)}
        winners = [state.team_names[state.winner_team]] if state.finished else []
        return Standing(totals=totals, finished=state.finished, winners=winners, summary=state.summary,
                        leaders=_highest(totals) if scored else [])

    def opener(self, rules, players, number, scored: list) -> Message:
        return team_game.opener(rules, players, scored[number - 2].result if number > 1 else None)

    def describe(self, rules) -> list:
        return team_game.describe(rules)


class Draw(Kind):
    name = DRAW
    high_wins = True
    title = N_("Draw game")
    short_title = N_("Draw game")

    def rules(self, preset_name, overrides):
        return draw_game.draw_rules(**overrides)

    def deal(self, rules, players: list):
        return draw_game.deal(rules, players)

    def score(self, rules, players, number, entry: Entry) -> Scored:
        result = draw_game.score_hand(rules, entry.hands, went_out=entry.went_out, blocked=entry.blocked)
        return Scored(player_points=result.points, column_points=result.points, winner_column=result.winner,
                      reason=result.reason, result=result)

    def standing(self, rules, players, scored: list) -> Standing:
        state = draw_game.match_state(rules, players, [s.result for s in scored])
        return Standing(totals=dict(state.totals), finished=state.finished, winners=list(state.winners),
                        summary=state.summary, leaders=_highest(state.totals) if scored else [])

    def opener(self, rules, players, number, scored: list) -> Message:
        return draw_game.opener_text(rules)

    def describe(self, rules) -> list:
        return draw_game.describe(rules)


KINDS = {k.name: k for k in (ChickenFoot(), Team(), Draw())}


def kind(name) -> object:
    if name not in KINDS:
        raise RulesError(N_("'game' must be one of %(kinds)s."), kinds=", ".join(KINDS))
    return KINDS[name]


def _highest(totals: dict) -> list:
    best = max(totals.values())
    return [name for name, value in totals.items() if value == best]
