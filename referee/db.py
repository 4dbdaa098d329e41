"""The database engine and one session per request.

The schema is brought up to date by the Alembic migrations in `referee/migrations/` on
start. SQLite gets WAL mode and a busy timeout so that several server processes can share one
file; any other URL (PostgreSQL) is used as given.
"""

from pathlib import Path

import alembic.command
import alembic.config
from flask import current_app, g
from sqlalchemy import event
from sqlmodel import Session, create_engine



def make_engine(url: str):
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        return engine
    return create_engine(url, pool_pre_ping=True)


def _sqlite_pragmas(dbapi_connection, _record):
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA synchronous=FULL")
    cursor.close()


MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def migrate(engine, revision: str = "head") -> None:
    """Bring the schema to `revision` with Alembic, in one transaction."""
    config = alembic.config.Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        alembic.command.upgrade(config, revision)


def init_app(app):
    engine = make_engine(app.config["SQLALCHEMY_DATABASE_URI"])
    migrate(engine)
    app.extensions["engine"] = engine
    app.teardown_appcontext(_close_session)


def session() -> Session:
    """The request's session, opened on first use and closed at teardown."""
    if "db" not in g:
        g.db = Session(current_app.extensions["engine"], expire_on_commit=False)
    return g.db


def _close_session(_exc):
    db = g.pop("db", None)
    if db is not None:
        db.close()
