"""Saving, correcting, undoing and restoring a game's rounds, each exactly once.

Every write is one transaction that first takes the game's lock and then checks what it
depends on (the next round's number, the round's version, the last round) against the last
committed state; two phones racing each other are served one after the other, and the
second is told what the first did (Conflict, 409) instead of writing on a stale view.

A round form carries a key of its own. The same entry sent again, by a retry after a
dropped connection, a double tap or a form restored by Back, finds the round it already
saved (AlreadySaved) and saves nothing.
"""

import re
from datetime import timedelta, timezone
from typing import Optional

from sqlalchemy import delete, insert
from sqlmodel import Session, select

from referee.rules.scoring import PipTotal
from referee.rules.text import Message, N_, RulesError
from referee.services.games import Conflict, NotFound, RoundEntry, RoundView, Saved, lock, score_entry, touch, view
from referee.storage.database import writing
from referee.storage.models import Hand, Round, RoundChange, utcnow

#: How long after an undo the round can be put back as it was.
RESTORE_MINUTES = 30
RESTORE_WITHIN = timedelta(minutes=RESTORE_MINUTES)
#: An entry's key: 1 to 64 characters, none of them a control character (PostgreSQL's text
#: refuses NUL, and a key is never meant to hold a line break).
ENTRY_KEY = re.compile(r"^[^\x00-\x1f\x7f]{1,64}$")
BAD_ENTRY_KEY = N_("'entry_key' must be a text of 1 to 64 characters that names this entry.")


class AlreadySaved(Conflict):
    """This entry's key saved a round before: `number` says which."""

    def __init__(self, number: int):
        super().__init__(Message(N_("Round %(number)d is already saved."), {"number": number}))
        self.number = number


def saved_with_key(db: Session, game, key: Optional[str]) -> Optional[int]:
    """The round an entry with this key saved, if it saved one (a key record_round would
    refuse saved nothing)."""
    if not key or not isinstance(key, str) or not ENTRY_KEY.match(key):
        return None
    return db.exec(select(Round.number).where(Round.game_id == game.id, Round.entry_key == key)).first()


def record_round(db: Session, game, entry: RoundEntry, number: Optional[int] = None,
                 key: Optional[str] = None) -> Saved:
    """Save the next round.

    `number` is the round the phone was showing: if another phone saved that round first,
    this one gets a Conflict instead of silently becoming the following round. `key` is the
    entry's own key: sent again, it saves nothing and raises AlreadySaved.
    """
    if key is not None and not (isinstance(key, str) and ENTRY_KEY.match(key)):
        raise RulesError(BAD_ENTRY_KEY)
    with writing(db):
        game = lock(db, game.id)
        saved = saved_with_key(db, game, key)
        if saved is not None:
            raise AlreadySaved(saved)
        state = view(db, game)
        upcoming = state.next_round
        if number is not None and (upcoming is None or number != upcoming.number) and any(
                r.number == number for r in state.played):
            raise _changed(number, state.round(number),
                           N_("Round %(number)d was just saved from another phone; here is what it holds now."))
        if upcoming is None:
            raise RulesError(N_("This match is over; no more rounds can be recorded."))
        if number is not None and number != upcoming.number:
            raise RulesError(N_("Round %(number)d cannot be recorded now: the next round is %(next)d."),
                             number=number, next=upcoming.number)
        hands, scored = score_entry(state, upcoming.number, entry)
        row = Round(game_id=game.id, number=upcoming.number, entry_key=key)
        return _write_round(db, game, row, state, entry, hands, scored, "saved")


def correct_round(db: Session, game, number: int, entry: RoundEntry, version: Optional[int] = None) -> Saved:
    """Replace a saved round's entry. With `version`, refuse if someone changed it since."""
    with writing(db):
        game = lock(db, game.id)
        state = view(db, game)
        current = state.round(number)
        if version is not None and version != current.version:
            raise _changed(number, current)
        hands, scored = score_entry(state, number, entry)
        row = db.exec(select(Round).where(Round.game_id == game.id, Round.number == number)).one()
        row.version += 1
        db.execute(delete(Hand).where(Hand.round_id == row.id))
        return _write_round(db, game, row, state, entry, hands, scored, "corrected")


def undo_round(db: Session, game, number: Optional[int] = None) -> int:
    """Remove the last round; with `number`, only if that round is still the last one.

    Two phones undoing round 5 at once remove round 5 once: the second is told it is gone
    (Conflict) rather than removing round 4 too.
    """
    with writing(db):
        game = lock(db, game.id)
        state = view(db, game)
        if state.finished:
            raise RulesError(N_("This match is over; its scores can no longer be changed."))
        last = state.played[-1] if state.played else None
        if number is not None and (last is None or number != last.number):
            if last is not None and number < last.number:
                raise Conflict(Message(N_("Only the last round (%(last)d) can be undone, not round %(number)d."),
                                       {"number": number, "last": last.number}))
            change = _last_change(db, game.id, number)
            if change is not None and change.action == "undone":
                raise Conflict(Message(N_("Round %(number)d is already undone."), {"number": number}))
            raise NotFound(number)  # a round that was never saved
        if last is None:
            raise RulesError(N_("No round has been recorded yet, so there is nothing to undo."))
        row = db.exec(select(Round).where(Round.game_id == game.id, Round.number == last.number)).one()
        db.execute(delete(Hand).where(Hand.round_id == row.id))
        db.delete(row)
        db.add(RoundChange(game_id=game.id, number=last.number, action="undone", entry=_entry_record(last)))
        touch(game)
        db.add(game)
        return last.number


def restorable(db: Session, game, state=None) -> Optional[int]:
    """The round an undo removed that can still be put back: undone lately, and still next."""
    state = state or view(db, game)
    upcoming = state.next_round
    if upcoming is None:
        return None
    change = _last_change(db, game.id, upcoming.number)
    if change is None or change.action != "undone" or _aware(change.at) < utcnow() - RESTORE_WITHIN:
        return None
    return upcoming.number


def restore_round(db: Session, game, number: int) -> Saved:
    """Put an undone round back exactly as it was entered."""
    with writing(db):
        game = lock(db, game.id)
        state = view(db, game)
        if restorable(db, game, state) != number:
            raise Conflict(Message(N_("Round %(number)d can no longer be restored."), {"number": number}))
        entry = undone_entry(db, game, number)
        hands, scored = score_entry(state, number, entry)
        row = Round(game_id=game.id, number=number)
        return _write_round(db, game, row, state, entry, hands, scored, "restored")


def undone_entry(db: Session, game, number: int) -> Optional[RoundEntry]:
    """What was entered for a round before it was undone, to fill its form again."""
    change = _last_change(db, game.id, number)
    if change is None or change.action != "undone":
        return None
    record = change.entry
    return RoundEntry(hands={name: _held_entry(held) for name, held in record.get("hands", {}).items()},
                      went_out=record.get("went_out"),
                      blocked=bool(record.get("blocked")) and record.get("went_out") is None,
                      out_on_double=bool(record.get("out_on_double")), blocker=record.get("blocker"),
                      capicu_tile=record.get("capicu_tile"), started_on=record.get("started_on"))


def history(db: Session, game, number: Optional[int] = None) -> list:
    """Every save, correction, undo and restore of one round, or of the whole game, oldest first."""
    query = select(RoundChange).where(RoundChange.game_id == game.id)
    if number is not None:
        query = query.where(RoundChange.number == number)
    return list(db.exec(query.order_by(RoundChange.at, RoundChange.id)))


def _last_change(db: Session, game_id: str, number: int) -> Optional[RoundChange]:
    return db.exec(select(RoundChange).where(RoundChange.game_id == game_id, RoundChange.number == number)
                   .order_by(RoundChange.id.desc()).limit(1)).first()


def _aware(moment):
    """SQLite hands back naive datetimes for what was stored in UTC."""
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def _changed(number: int, current: RoundView,
             msgid: str = N_("Round %(number)d was changed from another phone; here is the new version.")) -> Conflict:
    return Conflict(Message(msgid, {"number": number}), current)


def _write_round(db, game, row, state, entry, hands, scored, action) -> Saved:
    """Write a scored round, its hands and its history line, and bump the game's version.

    Everything is worked out before the first write: SQLite lets one writer in at a time, and
    another phone's save waits for as long as this transaction holds the lock.
    """
    ids = state.player_ids
    record = RoundView(number=row.number, double=None, scores=scored.column_points, hands=hands,
                       went_out=entry.went_out, blocked=entry.blocked or entry.went_out is None,
                       out_on_double=entry.out_on_double, blocker=entry.blocker, capicu_tile=entry.capicu_tile,
                       started_on=entry.started_on)
    held = [_hand_row(hands[name], ids[name], scored.player_points[name]) for name in state.players]
    # Every round counts, the later ones too when an earlier round is corrected.
    results = state.scored[:row.number - 1] + [scored] + state.scored[row.number:]
    standing = state.kind.standing(state.rules, state.players, results)
    row.went_out = ids.get(entry.went_out)
    row.blocked = record.blocked
    row.out_on_double = entry.out_on_double
    row.blocker = ids.get(entry.blocker)
    row.capicu_tile = entry.capicu_tile
    row.started_on = entry.started_on
    row.updated = utcnow()
    db.add(row)
    db.flush()
    db.execute(insert(Hand), [dict(hand, round_id=row.id) for hand in held])
    db.add(RoundChange(game_id=game.id, number=row.number, action=action, entry=_entry_record(record)))
    game.finished = standing.finished
    touch(game)
    db.add(game)
    db.flush()
    return Saved(number=row.number, version=row.version, scores=scored.column_points, standing=standing)


def _hand_row(held, player_id: int, points: int) -> dict:
    """One hand as stored: its tiles, or its typed total (and whether that holds the [0-0])."""
    if isinstance(held, list):
        return dict(player_id=player_id, points=points, tiles=" ".join(str(t) for t in held), pips=None,
                    double_blank=False)
    typed = held if isinstance(held, PipTotal) else PipTotal(held)
    return dict(player_id=player_id, points=points, tiles=None, pips=typed.pips, double_blank=typed.double_blank)


def _entry_record(r: RoundView) -> dict:
    """A round as its history keeps it (and as an undone round is entered again)."""
    hands = {name: _held_record(held) for name, held in r.hands.items()}
    record = {"hands": hands, "went_out": r.went_out, "blocked": r.blocked,
              "out_on_double": r.out_on_double, "scores": r.scores}
    if r.blocker is not None or r.capicu_tile is not None:
        record.update(blocker=r.blocker, capicu_tile=r.capicu_tile)
    if r.started_on is not None:
        record.update(started_on=r.started_on)
    return record


def _held_record(held):
    if isinstance(held, list):
        return [str(t) for t in held]
    if isinstance(held, PipTotal):
        return {"pips": held.pips, "double_blank": held.double_blank}
    return held


def _held_entry(held):
    """A hand from the history back into what a round entry takes."""
    return PipTotal(held["pips"], bool(held.get("double_blank"))) if isinstance(held, dict) else held


