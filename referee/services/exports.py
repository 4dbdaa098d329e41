"""Getting scores out: one game as CSV or JSON, and the whole database as one JSON backup.

The backup is lossless by construction: every column of every table, rows in primary-key
order, values as the database returns them. Restoring it into an empty database and
backing up again gives the same bytes.
"""

import csv
import io
import json
from datetime import datetime

from sqlalchemy import DateTime, Integer, func, insert, select, text
from sqlmodel import Session, SQLModel

from referee.rules.scoring import PipTotal
from referee.rules.text import N_, RulesError
from referee.services import games, referee_desk, rounds
from referee.storage.database import writing

BACKUP_FORMAT = "referee-backup"
BACKUP_VERSION = 1
# Cells a spreadsheet would run as a formula; see OWASP "CSV injection".
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def game_json(db: Session, game) -> dict:
    state = games.view(db, game)
    return {
        "id": state.id,
        "game": state.kind.name,
        "players": state.players,
        "rules": {"preset": state.preset, **state.overrides},
        "rounds": [_round_json(r) for r in state.played],
        "totals": state.totals,
        "finished": state.finished,
        "winners": state.winners,
        "history": [{"round": c.number, "action": c.action, "at": c.at.isoformat(), "entry": c.entry}
                    for c in rounds.history(db, game)],
        "rulings": referee_desk.log_json(db, game.id),
    }


def _round_json(r) -> dict:
    hands = {name: _hand_json(held) for name, held in r.hands.items()}
    return {"number": r.number, "double": str(r.double) if r.double else None, "hands": hands,
            "went_out": r.went_out, "blocker": r.blocker, "capicu_tile": r.capicu_tile,
            "blocked": r.blocked, "out_on_double": r.out_on_double, "scores": r.scores, "version": r.version}


CSV_COLUMNS = ("game", "round", "double", "player", "tiles", "pips", "went_out", "blocked", "points", "total")


def game_csv(db: Session, game) -> str:
    """One row per player per round, with the running total after that round."""
    state = games.view(db, game)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_COLUMNS)
    for r, running in zip(state.played, state.running):
        for name in state.players:
            held = r.hands[name]
            tiles = " ".join(str(t) for t in held) if isinstance(held, list) else ""
            pips = "" if isinstance(held, list) else held.pips if isinstance(held, PipTotal) else held
            if isinstance(held, PipTotal) and held.double_blank:
                tiles = "0-0"  # the typed total's pips, and the [0-0] beside them
            column = state.column_of(name)
            writer.writerow([safe_cell(v) for v in (state.id, r.number, str(r.double or ""), name, tiles, pips,
                                                    "yes" if r.went_out == name else "", "yes" if r.blocked else "",
                                                    r.scores[column], running[column])])
    return out.getvalue()


def _hand_json(held) -> dict:
    if isinstance(held, list):
        return {"tiles": [str(t) for t in held]}
    if isinstance(held, PipTotal):
        return {"pips": held.pips, "double_blank": held.double_blank}
    return {"pips": held}


def safe_cell(value):
    """A text cell a spreadsheet will show as text, never run as a formula."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


# -- whole-database backup ---------------------------------------------------------------


def backup(db: Session) -> str:
    """Every table, read in one transaction: one snapshot of the database even while phones
    are saving, so no hand is ever backed up without its round."""
    db.rollback()  # a fresh read transaction, begun by the first SELECT below
    tables = {}
    for table in SQLModel.metadata.sorted_tables:
        rows = db.execute(select(table).order_by(*table.primary_key.columns)).mappings().all()
        tables[table.name] = [{key: _plain(value) for key, value in row.items()} for row in rows]
    document = {"format": BACKUP_FORMAT, "version": BACKUP_VERSION, "tables": tables}
    return json.dumps(document, ensure_ascii=False, sort_keys=True, indent=1) + "\n"


def restore(db: Session, text_: str) -> int:
    """Load a backup into an empty database, in one transaction; returns the rows written."""
    try:
        document = json.loads(text_)
    except ValueError:
        raise RulesError(N_("This file is not a backup made by this app.")) from None
    if not isinstance(document, dict) or document.get("format") != BACKUP_FORMAT:
        raise RulesError(N_("This file is not a backup made by this app."))
    if document.get("version") != BACKUP_VERSION:
        raise RulesError(N_("This backup has version %(version)s, which this app cannot read."),
                         version=str(document.get("version"))[:20])
    tables = document.get("tables")
    if not isinstance(tables, dict):
        raise RulesError(N_("This file is not a backup made by this app."))
    for table in SQLModel.metadata.sorted_tables:
        rows = tables.get(table.name, [])
        if not isinstance(rows, list) or not all(isinstance(row, dict) for row in rows):
            raise RulesError(N_("The backup's table %(table)s is damaged."), table=table.name)
    _check_references(tables)
    written = 0
    try:
        with writing(db):
            for table in SQLModel.metadata.sorted_tables:
                if db.execute(select(func.count()).select_from(table)).scalar():
                    raise RulesError(N_("The database already holds games; restore a backup only into an empty "
                                        "one."))
            for table in SQLModel.metadata.sorted_tables:
                rows = tables.get(table.name, [])
                if rows:
                    db.execute(insert(table), [_typed(table, row) for row in rows])
                    written += len(rows)
            _reset_sequences(db)
    except RulesError:
        raise
    except Exception:
        raise RulesError(N_("The backup could not be restored: it does not fit this database.")) from None
    return written


def _check_references(tables: dict) -> None:
    """Refuse a backup in which a row points at a row it does not hold (a hand whose round is
    missing, say), before anything is written."""
    for table in SQLModel.metadata.sorted_tables:
        for key in table.foreign_keys:
            column, target = key.parent.name, key.column
            held = {row.get(target.name) for row in tables.get(target.table.name, [])}
            for row in tables.get(table.name, []):
                if row.get(column) is not None and row.get(column) not in held:
                    raise RulesError(N_("The backup is not whole: a row of %(table)s points at a row of %(target)s "
                                        "that it does not hold. Nothing was restored."),
                                     table=table.name, target=target.table.name)


def _plain(value):
    return value.isoformat() if isinstance(value, datetime) else value


def _typed(table, row: dict) -> dict:
    typed = {}
    for column in table.columns:
        value = row.get(column.name)
        if _is_datetime(column) and isinstance(value, str):
            value = datetime.fromisoformat(value)
        typed[column.name] = value
    return typed


def _is_datetime(column) -> bool:
    """True for date-time columns, whether plain or wrapped in a TypeDecorator (SQLModel's)."""
    kind = getattr(column.type, "impl", column.type)
    return isinstance(kind, DateTime)


def _reset_sequences(db: Session) -> None:
    """PostgreSQL hands out ids from sequences that an insert with explicit ids does not move."""
    if db.get_bind().dialect.name != "postgresql":
        return
    for table in SQLModel.metadata.sorted_tables:
        for column in table.primary_key.columns:
            if isinstance(column.type, Integer):
                db.execute(text(f"SELECT setval(pg_get_serial_sequence('{table.name}', '{column.name}'), "
                                f"COALESCE((SELECT MAX({column.name}) FROM \"{table.name}\"), 0) + 1, false)"))
