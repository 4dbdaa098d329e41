"""Tables. A game keeps its house rules as the preset name plus overrides, so the rules
object is always rebuilt by the rules (`referee.rules.house_rules.preset`), never stored half-parsed."""

import secrets
from datetime import datetime, timezone
from typing import Optional

from sqlalchemy import Column, Index, JSON, UniqueConstraint
from sqlmodel import Field, SQLModel


def utcnow() -> datetime:
    return datetime.now(timezone.utc)


def new_game_id() -> str:
    return secrets.token_urlsafe(6)


def new_token() -> str:
    return secrets.token_urlsafe(18)


class Player(SQLModel, table=True):
    id: Optional[int] = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True, max_length=80)
    created: datetime = Field(default_factory=utcnow)


class Game(SQLModel, table=True):
    id: str = Field(default_factory=new_game_id, primary_key=True, max_length=16)
    edit_token: str = Field(default_factory=new_token, max_length=64)
    kind: str = Field(default="chicken-foot", max_length=16)
    preset: str = Field(max_length=40)
    overrides: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    created: datetime = Field(default_factory=utcnow)
    updated: datetime = Field(default_factory=utcnow)
    version: int = 1
    finished: bool = False
    keep_photos: bool = False
    #: The game started as this one's rematch, once someone has started it: a second tap on
    #: Rematch (or another scorer's) opens that game rather than starting another.
    rematch: Optional[str] = Field(default=None, max_length=16)


class Seat(SQLModel, table=True):
    """A player at a game, in seating order (seat 0 is the first named)."""

    __table_args__ = (UniqueConstraint("game_id", "seat", name="uq_seat_game_seat"),
                      UniqueConstraint("game_id", "player_id", name="uq_seat_game_player"))
    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    seat: int


class Round(SQLModel, table=True):
    """A saved round. `entry_key` is the key of the form or request that saved it: the same
    entry sent again (a retry, Back after Save, a double tap) finds it instead of saving twice."""

    __table_args__ = (UniqueConstraint("game_id", "number", name="uq_round_game_number"),
                      Index("uq_round_game_entry_key", "game_id", "entry_key", unique=True))
    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    number: int
    went_out: Optional[int] = Field(default=None, foreign_key="player.id")
    blocked: bool = False
    out_on_double: bool = False
    blocker: Optional[int] = Field(default=None, foreign_key="player.id")
    capicu_tile: Optional[str] = Field(default=None, max_length=8)
    entry_key: Optional[str] = Field(default=None, max_length=64)
    #: The double the round really started on, where the house rules let it start on a lower
    #: one (Pagat's "next lower double"); None when it started on its planned double.
    started_on: Optional[str] = Field(default=None, max_length=8)
    version: int = 1
    created: datetime = Field(default_factory=utcnow)
    updated: datetime = Field(default_factory=utcnow)


class Hand(SQLModel, table=True):
    """What one player had left at the end of one round, and the points it cost."""

    __table_args__ = (UniqueConstraint("round_id", "player_id", name="uq_hand_round_player"),)
    id: Optional[int] = Field(default=None, primary_key=True)
    round_id: int = Field(foreign_key="round.id", index=True)
    player_id: int = Field(foreign_key="player.id", index=True)
    tiles: Optional[str] = Field(default=None, max_length=2000)
    pips: Optional[int] = None
    #: A typed total that also holds the [0-0] (no pips, but the house rules may count it).
    double_blank: bool = False
    points: int


class Attempt(SQLModel, table=True):
    """A failed token guess or a photo upload, kept a few minutes to rate-limit each client."""

    id: Optional[int] = Field(default=None, primary_key=True)
    client: str = Field(max_length=64, index=True)
    kind: str = Field(max_length=16)
    at: datetime = Field(default_factory=utcnow, index=True)


class RoundChange(SQLModel, table=True):
    """History of a round: every save, correction and undo, with the time and what was entered."""

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True)
    number: int
    action: str = Field(max_length=16)
    entry: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    at: datetime = Field(default_factory=utcnow)


# -- Referee desk (referee/rulings.py) ---------------------------------------------------

from sqlalchemy import DateTime, Text  # noqa: E402  (kept with the one table that needs them)


class Ruling(SQLModel, table=True):
    """One ruling the referee desk gave during a game, for the game's log and its export.

    `answer` and `rule` are the English text; `data` keeps the same sentences as msgids with
    their parameters, so the log can be shown again in the reader's language.
    """

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, nullable=False)
    round_number: Optional[int] = None
    at: datetime = Field(default_factory=utcnow, sa_column=Column(DateTime(timezone=True), nullable=False))
    question: str = Field(max_length=32)
    foot: Optional[dict] = Field(default=None, sa_column=Column(JSON, nullable=True))
    outcome: str = Field(max_length=32)
    answer: str = Field(sa_column=Column(Text, nullable=False))
    rule: str = Field(sa_column=Column(Text, nullable=False))
    data: dict = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
