"""Players across games: their record, renaming, and merging two names for one person.

Scores are stored against a player's id, never their name, so a rename or a merge moves
no points: it changes which name the same rows are shown under.
"""

from dataclasses import dataclass
from typing import Optional

from sqlmodel import Session, select

from referee.rules.text import Message, N_, RulesError
from referee.services import games, kinds
from referee.storage.database import writing
from referee.storage.models import Game, Hand, Player, Round, Seat


@dataclass
class RoundResult:
    game_id: str
    number: int
    points: int
    at: object


@dataclass
class Record:
    player: Player
    games: list          # GameView, oldest first
    won: int
    rounds: list         # RoundResult, oldest first
    double_blank_penalties: int

    @property
    def counted_kinds(self) -> list:
        """The games whose rounds the round figures count (see `record`), by name."""
        return [Message(kind.short_title) for kind in kinds.KINDS.values() if _counts_rounds(kind)]

    @property
    def average(self) -> Optional[float]:
        return sum(r.points for r in self.rounds) / len(self.rounds) if self.rounds else None

    @property
    def best(self) -> Optional[RoundResult]:
        return min(self.rounds, key=lambda r: r.points) if self.rounds else None

    @property
    def worst(self) -> Optional[RoundResult]:
        return max(self.rounds, key=lambda r: r.points) if self.rounds else None


def load_player(db: Session, player_id) -> Player:
    player = db.get(Player, player_id) if isinstance(player_id, int) else None
    if player is None:
        raise games.NotFound(player_id)
    return player


def all_players(db: Session) -> list:
    return list(db.exec(select(Player).order_by(Player.name)))


def record(db: Session, player: Player) -> Record:
    game_rows = db.exec(select(Game).join(Seat, Seat.game_id == Game.id).where(Seat.player_id == player.id)
                        .order_by(Game.created)).all()
    views = [games.view(db, g) for g in game_rows]
    won = sum(1 for v in views if v.won_by(player.name))
    # Points per round mean penalty points only where the low total wins (Chicken Foot); the
    # team and draw games count points won, so their rounds stay out of the averages.
    rows = db.exec(select(Hand, Round).where(Hand.round_id == Round.id).where(Hand.player_id == player.id)
                   .where(Round.game_id.in_([v.id for v in views if _counts_rounds(v.kind)]))
                   .order_by(Round.created, Round.id)).all()
    rules = {v.id: v.rules for v in views}
    results = [RoundResult(r.game_id, r.number, h.points, r.created) for h, r in rows]
    penalties = sum(1 for h, r in rows
                    if (h.double_blank or h.tiles and "0-0" in h.tiles.split()) and rules[r.game_id].double_blank)
    return Record(player=player, games=views, won=won, rounds=results, double_blank_penalties=penalties)


def _counts_rounds(kind) -> bool:
    """Points per round are penalty points only where the low total wins."""
    return not kind.high_wins


def can_manage(db: Session, player: Player, tokens: dict) -> bool:
    """Only someone who scores every game this player sat at may rename or merge them.

    Names are shared across games, so a rename or a merge changes what every one of those
    games shows: holding the token of one game (a stranger's own game with a "Vera" in it)
    gives no say over the others.
    """
    seated = db.exec(select(Game).join(Seat, Seat.game_id == Game.id).where(Seat.player_id == player.id)).all()
    for game in seated:
        try:
            games.check_token(game, tokens.get(game.id))
        except games.Forbidden:
            return False
    return bool(seated)


def rename(db: Session, player: Player, new_name) -> None:
    name = games.clean_name(new_name)
    player_id = player.id
    with writing(db):
        player = db.get(Player, player_id, populate_existing=True)
        clash = db.exec(select(Player).where(Player.name == name)).first()
        if clash is not None and clash.id != player.id:
            raise RulesError(N_("%(name)s already exists. If it is the same person, merge the two instead."),
                             name=name)
        player.name = name
        db.add(player)
        _touch_games(db, player.id)


def merge(db: Session, player: Player, into_name) -> Player:
    """Move every seat, hand and round of `player` to the player named `into_name`."""
    if not isinstance(into_name, str):
        raise RulesError(N_("Name the player to merge into."))
    player_id = player.id
    with writing(db):
        player = db.get(Player, player_id, populate_existing=True)
        if player is None:
            raise games.NotFound(player_id)
        return _merge(db, player, into_name)


def _merge(db: Session, player: Player, into_name: str) -> Player:
    target = db.exec(select(Player).where(Player.name == " ".join(into_name.split()))).first()
    if target is None:
        raise RulesError(N_("There is no player named %(name)s to merge into."), name=games.clean_name(into_name))
    if target.id == player.id:
        raise RulesError(N_("A player cannot be merged into themselves."))
    shared = set(db.exec(select(Seat.game_id).where(Seat.player_id == player.id))) & set(
        db.exec(select(Seat.game_id).where(Seat.player_id == target.id)))
    if shared:
        raise RulesError(N_("%(one)s and %(other)s sat at the same game, so they are two people."),
                         one=player.name, other=target.name)
    _touch_games(db, player.id)
    for seat in db.exec(select(Seat).where(Seat.player_id == player.id)):
        seat.player_id = target.id
        db.add(seat)
    for hand in db.exec(select(Hand).where(Hand.player_id == player.id)):
        hand.player_id = target.id
        db.add(hand)
    for row in db.exec(select(Round).where(Round.went_out == player.id)):
        row.went_out = target.id
        db.add(row)
    db.flush()
    db.delete(player)
    return target


def _touch_games(db: Session, player_id: int) -> None:
    """Names appear on game pages: bump those games so polling phones pick the change up."""
    for game in db.exec(select(Game).join(Seat, Seat.game_id == Game.id).where(Seat.player_id == player_id)):
        games.touch(game)
        db.add(game)
