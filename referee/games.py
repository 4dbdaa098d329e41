"""The service layer: games as the web pages and the API see them.

Views hand this module plain values (names, a rules spec, a `RoundEntry`); it asks the
rules core for every decision, writes in one transaction, and raises `RulesError` (bad
input, 422), `NotFound` (404) or `Conflict` (409). No Flask import: the same functions
serve the HTML pages, the JSON API and the tests.
"""

from __future__ import annotations

import hmac
from dataclasses import dataclass, field
from typing import Optional

from sqlalchemy import update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from referee import scoring
from referee.models import Game, Hand, Player, Round, RoundChange, Seat, utcnow
from referee.rules import HouseRules, deal, opener, preset, round_double
from referee.text import N_, Message, RulesError
from referee.tiles import Tile, parse_hand

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
    if any(not ch.isprintable() for ch in name):
        raise RulesError(N_("A player name cannot contain control characters."))
    return name


def clean_players(raw_names) -> list[str]:
    if not isinstance(raw_names, (list, tuple)):
        raise RulesError(N_("Players must be a list of names."))
    names = [clean_name(n) for n in raw_names if not (isinstance(n, str) and not n.strip())]
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


def rules_from_spec(spec) -> tuple[str, dict, HouseRules]:
    """A preset name, or {"preset": name, **overrides}: validated by the core."""
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
    return name, overrides, preset(name, **overrides)


# -- the game as everybody sees it ----------------------------------------------------


@dataclass
class RoundEntry:
    """What was entered for one round: per player a tile list, a pip total, or None."""

    hands: dict
    went_out: Optional[str] = None
    blocked: bool = False
    out_on_double: bool = False


@dataclass
class RoundView:
    number: int
    double: Tile
    scores: Optional[dict] = None
    hands: dict = field(default_factory=dict)
    went_out: Optional[str] = None
    blocked: bool = False
    out_on_double: bool = False
    version: int = 0

    @property
    def played(self) -> bool:
        return self.scores is not None


@dataclass
class GameView:
    id: str
    players: list
    preset: str
    overrides: dict
    rules: HouseRules
    rounds: list
    totals: dict
    running: list
    finished: bool
    winners: list
    version: int
    updated: object
    player_ids: dict = field(default_factory=dict)
    keep_photos: bool = False

    @property
    def played(self) -> list:
        return [r for r in self.rounds if r.played]

    @property
    def next_round(self) -> Optional[RoundView]:
        if self.finished:
            return None
        return next((r for r in self.rounds if not r.played), None)

    @property
    def leaders(self) -> list:
        return scoring.leaders(self.totals) if self.played else []

    @property
    def deal(self):
        return deal(self.rules, len(self.players))

    def opener(self, number: int) -> Message:
        return opener(self.rules, self.players, number - 1)

    def round(self, number: int) -> RoundView:
        for r in self.rounds:
            if r.number == number and r.played:
                return r
        raise NotFound(number)


def load(db: Session, game_id: str) -> Game:
    game = db.get(Game, game_id) if isinstance(game_id, str) else None
    if game is None:
        raise NotFound(game_id)
    return game


def view(db: Session, game: Game) -> GameView:
    rules = preset(game.preset, **game.overrides)
    seats = db.exec(select(Seat, Player).where(Seat.game_id == game.id).where(Seat.player_id == Player.id).order_by(Seat.seat)).all()
    players = [p.name for _, p in seats]
    names = {p.id: p.name for _, p in seats}
    stored = db.exec(select(Round).where(Round.game_id == game.id).order_by(Round.number)).all()
    hands = {}
    if stored:
        for hand in db.exec(select(Hand).where(Hand.round_id.in_([r.id for r in stored]))):
            hands.setdefault(hand.round_id, []).append(hand)
    played = []
    for r in stored:
        rows = hands.get(r.id, [])
        played.append(RoundView(
            number=r.number, double=round_double(rules, r.number - 1),
            scores={names[h.player_id]: h.points for h in rows},
            hands={names[h.player_id]: (parse_hand(h.tiles.split(), rules.set) if h.tiles is not None else h.pips)
                   for h in rows},
            went_out=names.get(r.went_out), blocked=r.blocked, out_on_double=r.out_on_double, version=r.version))
    rounds = played + _planned(rules, len(played))
    score_list = [r.scores for r in played]
    totals = scoring.totals(players, score_list)
    winners = []
    if game.finished:
        first_out = played[-1].went_out if played else None
        winners = scoring.winners(rules, totals, first_out=first_out)
    return GameView(id=game.id, players=players, preset=game.preset, overrides=dict(game.overrides),
                    rules=rules, rounds=rounds, totals=totals,
                    running=scoring.running_totals(players, score_list), finished=game.finished,
                    winners=winners, version=game.version, updated=game.updated,
                    player_ids={p.name: p.id for _, p in seats}, keep_photos=game.keep_photos)


def _planned(rules: HouseRules, played: int) -> list:
    """The rounds still to come: to the last double, or one more for a target match."""
    total = scoring.round_count(rules)
    upto = played + 1 if total is None else total
    return [RoundView(number=i + 1, double=round_double(rules, i)) for i in range(played, upto)]


# -- writes -----------------------------------------------------------------------------


def create_game(db: Session, names, rules_spec) -> Game:
    players = clean_players(names)
    name, overrides, rules = rules_from_spec(rules_spec)
    deal(rules, len(players))  # refuses a player count the rules cannot deal for
    game = Game(preset=name, overrides=overrides)
    db.add(game)
    db.flush()
    for seat, player_name in enumerate(players):
        db.add(Seat(game_id=game.id, player_id=_player(db, player_name).id, seat=seat))
    db.commit()
    return game


def check_token(game: Game, token) -> None:
    if not isinstance(token, str) or not hmac.compare_digest(token.encode(), game.edit_token.encode()):
        raise Forbidden(game.id)


def rotate_token(db: Session, game: Game) -> str:
    game.edit_token = Game.model_fields["edit_token"].default_factory()
    touch(game)
    db.add(game)
    db.commit()
    return game.edit_token


def score_entry(state: GameView, number: int, entry: RoundEntry) -> tuple[dict, dict]:
    """Each player's parsed hand and points for this entry, as the house rules compute them.

    Used both for the preview before saving and for the save itself, so the page never
    shows a number the save would not store.
    """
    if state.finished:
        raise RulesError(N_("This match is over; its scores can no longer be changed."))
    top = state.rules.set
    double = round_double(state.rules, number - 1)
    hands = {}
    for player in state.players:
        held = entry.hands.get(player)
        if player == entry.went_out:
            held = held if held not in (None, [], "") else []
        if held is None:
            raise MissingEntry(player)
        if isinstance(held, list):
            held = parse_hand(held, top)
            if double in held:
                raise RulesError(N_("[%(tile)s] opened this round, so %(player)s cannot still hold it."),
                                 tile=str(double), player=player)
        hands[player] = held
    unknown = set(entry.hands) - set(state.players)
    if unknown:
        raise RulesError(N_("%(name)s does not play in this game."), name=sorted(unknown)[0])
    scores = scoring.score_round(state.rules, hands, went_out=entry.went_out,
                                 out_on_double=entry.out_on_double, blocked=entry.blocked)
    return hands, scores


def record_round(db: Session, game: Game, entry: RoundEntry, number: Optional[int] = None) -> int:
    """Save the next round; returns its number.

    `number` is the round the phone was showing: if another phone saved that round first,
    this one gets a Conflict instead of silently becoming the following round. Two saves
    racing each other are settled by the unique (game, number) key the same way.
    """
    state = view(db, game)
    upcoming = state.next_round
    if number is not None and (upcoming is None or number != upcoming.number) and any(
            r.number == number for r in state.played):
        raise _changed(number, state.round(number), N_("Round %(number)d was just saved from another phone; here is what it holds now."))
    if upcoming is None:
        raise RulesError(N_("This match is over; no more rounds can be recorded."))
    if number is not None and number != upcoming.number:
        raise RulesError(N_("Round %(number)d cannot be recorded now: the next round is %(next)d."),
                         number=number, next=upcoming.number)
    hands, scores = score_entry(state, upcoming.number, entry)
    row = Round(game_id=game.id, number=upcoming.number)
    try:
        _write_round(db, game, row, state, entry, hands, scores, "saved")
    except IntegrityError:
        db.rollback()
        fresh = view(db, game)
        if not any(r.number == upcoming.number for r in fresh.played):
            raise  # not the race for this round: a real fault, reported as one
        raise _changed(upcoming.number, fresh.round(upcoming.number),
                       N_("Round %(number)d was just saved from another phone; here is what it holds now.")) from None
    return upcoming.number


def correct_round(db: Session, game: Game, number: int, entry: RoundEntry, version: Optional[int] = None) -> None:
    """Replace a saved round's entry. With `version`, refuse if someone changed it since."""
    state = view(db, game)
    current = state.round(number)
    if version is not None and version != current.version:
        raise _changed(number, current)
    hands, scores = score_entry(state, number, entry)
    row = db.exec(select(Round).where(Round.game_id == game.id, Round.number == number)).one()
    bumped = db.execute(update(Round).where(Round.id == row.id, Round.version == current.version)
                        .values(version=current.version + 1))
    if bumped.rowcount != 1:
        db.rollback()
        raise _changed(number, view(db, game).round(number))
    db.refresh(row)
    for hand in db.exec(select(Hand).where(Hand.round_id == row.id)):
        db.delete(hand)
    db.flush()
    _write_round(db, game, row, state, entry, hands, scores, "corrected")


def undo_last(db: Session, game: Game) -> int:
    state = view(db, game)
    if state.finished:
        raise RulesError(N_("This match is over; its scores can no longer be changed."))
    if not state.played:
        raise RulesError(N_("No round has been recorded yet, so there is nothing to undo."))
    last = state.played[-1]
    row = db.exec(select(Round).where(Round.game_id == game.id, Round.number == last.number)).one()
    for hand in db.exec(select(Hand).where(Hand.round_id == row.id)):
        db.delete(hand)
    db.delete(row)
    db.add(RoundChange(game_id=game.id, number=last.number, action="undone", entry=_entry_record(last)))
    touch(game)
    db.add(game)
    db.commit()
    return last.number


def history(db: Session, game: Game, number: Optional[int] = None) -> list:
    """Every save, correction and undo of one round, or of the whole game, oldest first."""
    query = select(RoundChange).where(RoundChange.game_id == game.id)
    if number is not None:
        query = query.where(RoundChange.number == number)
    return list(db.exec(query.order_by(RoundChange.at, RoundChange.id)))


def _changed(number: int, current: RoundView,
             msgid: str = N_("Round %(number)d was changed from another phone; here is the new version.")) -> Conflict:
    return Conflict(Message(msgid, {"number": number}), current)


def _write_round(db, game, row, state, entry, hands, scores, action):
    ids = {name: _player(db, name).id for name in state.players}
    row.went_out = ids.get(entry.went_out)
    row.blocked = entry.blocked or entry.went_out is None
    row.out_on_double = entry.out_on_double
    row.updated = utcnow()
    db.add(row)
    db.flush()
    for name in state.players:
        held = hands[name]
        tiles = " ".join(str(t) for t in held) if isinstance(held, list) else None
        pips = held if isinstance(held, int) else None
        db.add(Hand(round_id=row.id, player_id=ids[name], tiles=tiles, pips=pips, points=scores[name]))
    record = RoundView(number=row.number, double=round_double(state.rules, row.number - 1), scores=scores,
                       hands=hands, went_out=entry.went_out, blocked=row.blocked,
                       out_on_double=entry.out_on_double)
    db.add(RoundChange(game_id=game.id, number=row.number, action=action, entry=_entry_record(record)))
    totals = scoring.totals(state.players, [r.scores for r in state.played if r.number != row.number] + [scores])
    played = len([r for r in state.played if r.number != row.number]) + 1
    game.finished = scoring.match_over(state.rules, played, totals)
    touch(game)
    db.add(game)
    db.commit()


def _entry_record(r: RoundView) -> dict:
    hands = {name: ([str(t) for t in held] if isinstance(held, list) else held) for name, held in r.hands.items()}
    return {"hands": hands, "went_out": r.went_out, "blocked": r.blocked,
            "out_on_double": r.out_on_double, "scores": r.scores}


def touch(game: Game) -> None:
    game.version += 1
    game.updated = utcnow()
