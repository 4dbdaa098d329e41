"""The database engine and one session per request.

SQLite gets WAL mode and a busy timeout so that several server processes can share one
file; any other URL (PostgreSQL) is used as given.
"""

from flask import current_app, g
from sqlalchemy import event
from sqlmodel import Session, SQLModel, create_engine

from referee import models  # noqa: F401  (registers the tables on SQLModel.metadata)


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


def init_app(app):
    engine = make_engine(app.config["SQLALCHEMY_DATABASE_URI"])
    SQLModel.metadata.create_all(engine)
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
