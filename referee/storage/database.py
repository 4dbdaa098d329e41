"""The database engine, and the migrations that bring its schema up to date.

SQLite gets WAL mode and a busy timeout so that several server processes can share one
file; any other URL (PostgreSQL) is used as given. The schema is brought to the newest
Alembic revision in `migrations/` before the app serves anything.
"""

from pathlib import Path

import alembic.command
import alembic.config
from sqlalchemy import event
from sqlmodel import create_engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


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


def migrate(engine, revision: str = "head") -> None:
    """Bring the schema to `revision` with Alembic, in one transaction."""
    config = alembic.config.Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        alembic.command.upgrade(config, revision)
