"""The service layer: games as the web pages and the API see them.

Views hand this module plain values (names, a rules spec, a `RoundEntry`); it asks the
rules core for every decision, writes in one transaction, and raises `RulesError` (bad
input, 422), `NotFound` (404) or `Conflict` (409). No Flask import: the same functions
serve the HTML pages, the JSON API and the tests.
"""

from __future__ import annotations

import hmac
import re
import unicodedata
from dataclasses import dataclass, field
from typing import NamedTuple, Optional

from sqlalchemy import bindparam
from sqlmodel import Session, select

from referee.rules.text import Message, N_, RulesError
from referee.rules.scoring import DOUBLE_BLANK, PipTotal
from referee.rules.tiles import Tile, check_one_owner, parse_hand
from referee.services import kinds
from referee.services.kinds import Entry as RoundEntry
from referee.storage.database import writing
from referee.storage.models import Game, Hand, Player, Round, Seat, utcnow

MAX_PLAYERS = 8
MIN_PLAYERS = 2
MAX_NAME = 40


class NotFound(LookupError):
    pass


class Conflict(RuntimeError):
    """Someone else changed the game first; `current` is the fresh state to show."""

    def __init__(self, message: Message, current=None):
        super().__init__(str(message))
        self.message = message
        self.current = current


class Forbidden(PermissionError):
    pass


@dataclass(frozen=True)
class Saved:
    """A round just written and the match's standing after it: all the phone that saved it is told."""

    number: int
    version: int
    scores: dict
    standing: kinds.Standing


class MissingEntry(RulesError):
    """A player has nothing entered; `player` says who, so the page can point at them."""

    def __init__(self, player: str):
        super().__init__(N_("Nothing is entered for %(player)s: tap their tiles, type their pips, or mark that they went out."), player=player)
        self.player = player


# -- players and names ------------------------------------------------------------


def clean_name(raw) -> str:
    """A player name as typed, trimmed; refused when empty, too long or unprintable."""
    if not isinstance(raw, str):
        raise RulesError(N_("A player name must be text."))
    name = " ".join(raw.split())
    if not name:
        raise RulesError(N_("A player name cannot be empty."))
    if len(name) > MAX_NAME:
        raise RulesError(N_("A player name can have at most %(max)d characters."), max=MAX_NAME)
    if any(_unprintable(ch) for ch in name):
        raise RulesError(N_("A player name cannot contain control characters."))
    return name


#: Characters that reorder the text around them: a name holding one could show on the
#: scoreboard as another name.
_DIRECTION = set("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def _unprintable(ch: str) -> bool:
    """Control, surrogate, private-use and direction characters; not the joiners and selectors
    of emoji sequences (a family emoji is one name's worth of text), nor characters newer than
    this Python's Unicode tables (the newest emoji), which it knows only as unassigned."""
    return ch in _DIRECTION or unicodedata.category(ch) in ("Cc", "Cs", "Co", "Zl", "Zp")


def clean_players(raw_names, skip_empty: bool = False) -> list[str]:
    """The players' names, checked. `skip_empty` drops empty seats (the new-game form has
    eight name fields); the API names every player and an empty name is refused."""
    if not isinstance(raw_names, (list, tuple)):
        raise RulesError(N_("Players must be a list of names."))
    names = [clean_name(n) for n in raw_names if not (skip_empty and isinstance(n, str) and not n.strip())]
    if len(names) < MIN_PLAYERS or len(names) > MAX_PLAYERS:
        raise RulesError(N_("A game needs %(min)d to %(max)d players; %(count)d were given."),
                         min=MIN_PLAYERS, max=MAX_PLAYERS, count=len(names))
    folded = [n.casefold() for n in names]
    for name in names:
        if folded.count(name.casefold()) > 1:
            raise RulesError(N_("%(name)s is named twice."), name=name)
    return names


def known_names(db: Session) -> list[str]:
    return list(db.exec(select(Player.name).order_by(Player.name)))


def _player(db: Session, name: str) -> Player:
    found = db.exec(select(Player).where(Player.name == name)).first()
    if found is None:
        found = Player(name=name)
        db.add(found)
        db.flush()
    return found


# -- rules ------------------------------------------------------------------------


def rules_from_spec(spec, kind_name: str = kinds.CHICKEN_FOOT) -> tuple:
    """Validated rules for a game of `kind_name`, from what a form or the API sent.

    Chicken Foot: a preset name, or {"preset": name, **overrides}. Team and draw games:
    an object of their options (or nothing, for their sources' defaults).
    """
    kind = kinds.kind(kind_name)
    if not kind.has_presets:
        if spec is not None and not isinstance(spec, dict):
            raise RulesError(N_("Rules for this game must be an object of its options."))
        overrides = dict(spec or {})
        return kind.name, overrides, kind.rules(kind.name, overrides)
    if spec is None:
        spec = "pagat"
    if isinstance(spec, str):
        name, overrides = spec, {}
    elif isinstance(spec, dict):
        overrides = dict(spec)
        name = overrides.pop("preset", "pagat")
        if not isinstance(name, str):
            raise RulesError(N_("The preset must be named by text."))
    else:
        raise RulesError(N_("Rules must be a preset name or an object with a preset and overrides."))
    return name, overrides, kind.rules(name, overrides)


# -- the game as everybody sees it ----------------------------------------------------


@dataclass
class RoundView:
    """A round (a hand, in the team and draw games): its points per scoreboard column."""

    number: int
    double: Optional[Tile]
    scores: Optional[dict] = None
    hands: dict = field(default_factory=dict)
    went_out: Optional[str] = None
    blocked: bool = False
    out_on_double: bool = False
    version: int = 0
    blocker: Optional[str] = None
    capicu_tile: Optional[str] = None
    winner_column: Optional[str] = None
    reason: Optional[Message] = None
    started_on: Optional[str] = None

    @property
    def played(self) -> bool:
        return self.scores is not None


@dataclass(frozen=True)
class Placing:
    """Where a column (a player, or a team) finished: places are shared by equal totals."""

    place: int
    column: str
    total: int
    behind: int
    won: bool


@dataclass
class GameView:
    id: str
    kind: object
    players: list
    columns: list
    preset: str
    overrides: dict
    rules: object
    rounds: list
    totals: dict
    running: list
    finished: bool
    winners: list
    leaders: list
    summary: Optional[Message]
    version: int
    updated: object
    scored: list = field(default_factory=list)
    player_ids: dict = field(default_factory=dict)
    keep_photos: bool = False
    rematch: Optional[str] = None

    @property
    def played(self) -> list:
        return [r for r in self.rounds if r.played]

    @property
    def next_round(self) -> Optional[RoundView]:
        if self.finished:
            return None
        return next((r for r in self.rounds if not r.played), None)

    @property
    def deal(self):
        return self.kind.deal(self.rules, self.players)

    @property
    def tiles_top(self) -> int:
        return self.kind.tiles_top(self.rules)

    def opener(self, number: int) -> Message:
        return self.kind.opener(self.rules, self.players, number, self.scored)

    def describe(self) -> list:
        return self.kind.describe(self.rules)

    def column_of(self, player: str) -> str:
        """The scoreboard column a player's points go to: their own, or their team's."""
        return self.kind.column_of(self.rules, self.players, player)

    def won_by(self, player: str) -> bool:
        return self.finished and self.winners == [self.column_of(player)]

    @property
    def seating(self) -> Optional[Message]:
        return self.kind.seating(self.rules, self.players)

    @property
    def placings(self) -> list:
        return placings(self)

    @property
    def next_match_order(self) -> list:
        """The seats a rematch would have, first seat first."""
        return self.kind.next_match_order(self.rules, self.players)

    def round(self, number: int) -> RoundView:
        for r in self.rounds:
            if r.number == number and r.played:
                return r
        raise NotFound(number)


#: What a game's id can be (models.new_game_id: URL-safe base64). Anything else is no
#: game, and is not sent to the database (PostgreSQL refuses a NUL in text: a 500).
_GAME_ID = re.compile(r"[A-Za-z0-9_-]{1,16}")


def _is_game_id(game_id: object) -> bool:
    return isinstance(game_id, str) and _GAME_ID.fullmatch(game_id) is not None


def load(db: Session, game_id: str) -> Game:
    game = db.get(Game, game_id) if _is_game_id(game_id) else None
    if game is None:
        raise NotFound(game_id)
    return game


def lock(db: Session, game_id: str) -> Game:
    """The game, read afresh inside a write transaction with its row locked until the end of
    it: every write to a game takes this first, so writes to one game never interleave."""
    query = select(Game).where(Game.id == game_id).with_for_update().execution_options(populate_existing=True)
    game = db.exec(query).first() if _is_game_id(game_id) else None
    if game is None:
        raise NotFound(game_id)
    return game


class Poll(NamedTuple):
    """What a scoreboard poll needs to answer 304 and to tell a scorer from a watcher."""

    id: str
    version: int
    edit_token: str


# Built once: every phone polls every 2 s, and this statement on the session's connection
# costs a third of loading the ORM object (about 0.2 ms against 0.6 ms, measured).
_POLL = select(Game.id, Game.version, Game.edit_token).where(Game.id == bindparam("game_id"))


def poll(db: Session, game_id: str) -> Poll:
    row = db.connection().execute(_POLL, {"game_id": game_id}).first() if _is_game_id(game_id) else None
    if row is None:
        raise NotFound(game_id)
    return Poll(*row)


def view(db: Session, game: Game) -> GameView:
    """The game as the pages show it, every number worked out again by the rules core."""
    kind = kinds.kind(game.kind)
    rules = kind.rules(game.preset, game.overrides)
    seats = db.exec(select(Seat, Player).where(Seat.game_id == game.id).where(Seat.player_id == Player.id)
                    .order_by(Seat.seat)).all()
    players = [p.name for _, p in seats]
    names = {p.id: p.name for _, p in seats}
    # Plain rows, not ORM objects: this runs on every poll that finds the game changed.
    stored = db.execute(select(Round.id, Round.number, Round.went_out, Round.blocked, Round.out_on_double,
                               Round.version, Round.blocker, Round.capicu_tile, Round.started_on)
                        .where(Round.game_id == game.id).order_by(Round.number)).all()
    hands = {}
    if stored:
        rows = db.execute(select(Hand.round_id, Hand.player_id, Hand.tiles, Hand.pips, Hand.double_blank)
                          .join(Round, Hand.round_id == Round.id).where(Round.game_id == game.id))
        for round_id, player_id, tiles, pips, double_blank in rows:
            typed = PipTotal(pips, True) if double_blank else pips
            hands.setdefault(round_id, []).append((player_id, tiles, typed))
    top = kind.tiles_top(rules)
    played, scored = [], []
    for r in stored:
        held = {names[player_id]: (parse_hand(tiles.split(), top) if tiles is not None else pips)
                for player_id, tiles, pips in hands.get(r.id, [])}
        entry = RoundEntry(hands=held, went_out=names.get(r.went_out), blocked=r.blocked,
                           out_on_double=r.out_on_double, blocker=names.get(r.blocker), capicu_tile=r.capicu_tile,
                           started_on=r.started_on)
        result = kind.score(rules, players, r.number, _scoring_entry(entry))
        scored.append(result)
        played.append(RoundView(
            number=r.number, double=kind.started_double(rules, r.number, r.started_on), scores=result.column_points,
            hands=held, started_on=r.started_on,
            went_out=entry.went_out, blocked=r.blocked, out_on_double=r.out_on_double, version=r.version,
            blocker=entry.blocker, capicu_tile=r.capicu_tile, winner_column=result.winner_column,
            reason=result.reason))
    standing = kind.standing(rules, players, scored)
    columns = kind.columns(rules, players)
    rounds = played + _planned(kind, rules, len(played), standing.finished)
    running, total = [], {c: 0 for c in columns}
    for r in played:
        total = {c: total[c] + r.scores[c] for c in columns}
        running.append(total)
    return GameView(id=game.id, kind=kind, players=players, columns=columns, preset=game.preset,
                    overrides=dict(game.overrides), rules=rules, rounds=rounds, totals=standing.totals,
                    running=running, finished=standing.finished, winners=standing.winners,
                    leaders=standing.leaders, summary=standing.summary, version=game.version,
                    updated=game.updated, scored=scored, player_ids={p.name: p.id for _, p in seats},
                    keep_photos=game.keep_photos, rematch=game.rematch)


def placings(state: GameView) -> list:
    """A finished match's final order: the winners first (place 1), then every other column by
    its total, best first (lowest in Chicken Foot, highest in the team and draw games: the
    kind's `high_wins`). Equal totals share a place and the next place is skipped (1, 2, 2, 4);
    `behind` is how many points a column finished from the winner's total. The winners are the
    rules' (a tie that the first one out wins has one winner and a second place 0 behind).
    Nothing before the match is over."""
    if not state.finished:
        return []
    sign = 1 if state.kind.high_wins else -1
    columns, totals = state.columns, state.totals
    winners = [c for c in columns if c in state.winners]
    best = max(sign * totals[c] for c in (winners or columns))
    ranked = sorted(columns, key=lambda c: (c not in winners, -sign * totals[c], columns.index(c)))
    result = []
    for index, column in enumerate(ranked):
        if column in winners:
            place = 1
        elif index and ranked[index - 1] not in winners and totals[ranked[index - 1]] == totals[column]:
            place = result[-1].place
        else:
            place = index + 1
        result.append(Placing(place=place, column=column, total=totals[column],
                              behind=0 if column in winners else best - sign * totals[column],
                              won=column in winners))
    return result


def _scoring_entry(entry: RoundEntry) -> RoundEntry:
    """A stored hand of the player who went out is empty; the core wants it as such."""
    hands = dict(entry.hands)
    if entry.went_out is not None and hands.get(entry.went_out) in (None, 0):
        hands[entry.went_out] = []
    return RoundEntry(hands=hands, went_out=entry.went_out, blocked=entry.blocked, out_on_double=entry.out_on_double,
                      blocker=entry.blocker, capicu_tile=entry.capicu_tile, started_on=entry.started_on)


def _planned(kind, rules, played: int, finished: bool) -> list:
    """The rounds still to come: to the last double, or the next one when the match has no fixed length."""
    total = kind.rounds_planned(rules, played)
    upto = (played if finished else played + 1) if total is None else total
    return [RoundView(number=i + 1, double=kind.round_double(rules, i + 1)) for i in range(played, upto)]


# -- writes -----------------------------------------------------------------------------


def create_game(db: Session, names, rules_spec, kind_name: str = kinds.CHICKEN_FOOT,
                skip_empty: bool = False) -> Game:
    players = clean_players(names, skip_empty)
    name, overrides, _ = rules_from_spec(rules_spec, kind_name)
    kind = kinds.kind(kind_name)
    overrides = kind.table_overrides(name, overrides, len(players))  # a big table's set follows its players
    rules = kind.rules(name, overrides)
    kind.deal(rules, players)  # refuses a player count the rules cannot deal for
    with writing(db):
        game = _insert_game(db, kind_name, name, overrides, [_player(db, n).id for n in players])
    return game


def _insert_game(db: Session, kind_name: str, preset: str, overrides: dict, player_ids: list) -> Game:
    game = Game(kind=kind_name, preset=preset, overrides=overrides)
    db.add(game)
    db.flush()
    for seat, player_id in enumerate(player_ids):
        db.add(Seat(game_id=game.id, player_id=player_id, seat=seat))
    return game


class Rematch(NamedTuple):
    """The table's next game, and whether this call started it (a later call, from this
    phone or another, gets the same game)."""
    game: Game
    started: bool


def rematch(db: Session, game: Game) -> Rematch:
    """A new game for the same table once the match is over: the same players, seated as
    before, under the same house rules (the preset and every change the table made, a rule
    it settled during the match included, or the team or draw game's options).

    Who opens moves on as the rules say (`Kind.next_match_order`): where the first turn goes
    round the table, the order turns by one seat so that the next player opens the first
    round; elsewhere the tiles decide and the order is kept.

    A game has one rematch: a second tap, or another scorer's, gets the game already started.
    Whether this call started it is told under the game's lock, so of two phones asking at
    the same moment exactly one hears that it did. Refused before the match is over.
    """
    with writing(db):
        game = lock(db, game.id)
        if game.rematch is not None:
            started = db.get(Game, game.rematch)
            if started is not None:
                return Rematch(started, started=False)
        state = view(db, game)
        if not state.finished:
            raise RulesError(N_("This match is not over yet: a rematch can start once it is."))
        order = state.kind.next_match_order(state.rules, state.players)
        new = _insert_game(db, game.kind, game.preset, dict(game.overrides), [state.player_ids[n] for n in order])
        game.rematch = new.id
        touch(game)
        db.add(game)
    return Rematch(new, started=True)


def check_token(game: Game | Poll, token) -> None:
    """Only the game's id and edit token are read, so a poll's lean row will do."""
    if not isinstance(token, str) or not hmac.compare_digest(token.encode(), game.edit_token.encode()):
        raise Forbidden(game.id)


def rotate_token(db: Session, game: Game) -> str:
    with writing(db):
        game = lock(db, game.id)
        game.edit_token = Game.model_fields["edit_token"].default_factory()
        touch(game)
        db.add(game)
    return game.edit_token


def score_entry(state: GameView, number: int, entry: RoundEntry) -> tuple:
    """Each player's parsed hand, and the round scored as the house rules score it.

    Used both for the preview before saving and for the save itself, so the page never
    shows a number the save would not store.
    """
    if state.finished:
        raise RulesError(N_("This match is over; its scores can no longer be changed."))
    top = state.tiles_top
    double = state.kind.started_double(state.rules, number, entry.started_on)
    hands, missing = {}, []
    for player in state.players:
        held = entry.hands.get(player)
        if player == entry.went_out:
            held = held if held not in (None, [], "") else []
        if held is None:
            missing.append(player)
            continue
        if isinstance(held, list):
            held = parse_hand(held, top)
            if double is not None and double in held:
                raise RulesError(N_("[%(tile)s] opened this round, so %(player)s cannot still hold it."),
                                 tile=str(double), player=player)
        elif isinstance(held, PipTotal):
            if not state.kind.round_doubles:
                held = held.pips  # the team and draw games count the [0-0] at its face value, 0
            elif held.double_blank and double == DOUBLE_BLANK:
                raise RulesError(N_("[%(tile)s] opened this round, so %(player)s cannot still hold it."),
                                 tile=str(double), player=player)
        hands[player] = held
    unknown = set(entry.hands) - set(state.players)
    if unknown:
        raise RulesError(N_("%(name)s does not play in this game."), name=sorted(unknown)[0])
    if missing:
        # what the hands entered so far already get wrong is told before who is missing: a
        # photo of one hand comes back before the others are entered
        check_one_owner({player: [DOUBLE_BLANK] * held.double_blank if isinstance(held, PipTotal) else held
                         for player, held in hands.items() if isinstance(held, (list, PipTotal))})
        raise MissingEntry(missing[0])
    scored = state.kind.score(state.rules, state.players, number, RoundEntry(
        hands=hands, went_out=entry.went_out, blocked=entry.blocked, out_on_double=entry.out_on_double,
        blocker=entry.blocker, capicu_tile=entry.capicu_tile, capicu_ends=entry.capicu_ends,
        started_on=entry.started_on))
    return hands, scored


def touch(game: Game) -> None:
    game.version += 1
    game.updated = utcnow()


def keep_photos(db: Session, game: Game, keep: bool) -> None:
    """Whether the game's uploaded hand photos are kept (its owner's choice, off by default)."""
    with writing(db):
        game = lock(db, game.id)
        game.keep_photos = keep
        touch(game)
        db.add(game)


def recent(db: Session, count: int = 200) -> list:
    """The games changed most recently, newest first, as the home page lists them."""
    rows = db.exec(select(Game).order_by(Game.updated.desc()).limit(count)).all()
    return [view(db, game) for game in rows]
