"""The database engine, and the migrations that bring its schema up to date.

SQLite gets WAL mode and a busy timeout so that several server processes can share one
file; any other URL (PostgreSQL) is used as given. The schema is brought to the newest
Alembic revision in `migrations/` before the app serves anything.

Every transaction reads one snapshot, so a page never shows a round without its hands
while another phone undoes it. On SQLite the driver's own transaction handling (which
leaves SELECTs outside any transaction) is turned off and each transaction starts with
BEGIN, or BEGIN IMMEDIATE for a write, so that two writers queue rather than fail. On
PostgreSQL reads run at REPEATABLE READ; writes run at READ COMMITTED and take the game's
row lock first, so each checks its precondition against the last committed state.
"""

from contextlib import contextmanager
from pathlib import Path

import alembic.command
import alembic.config
from sqlalchemy import event
from sqlmodel import Session, create_engine

MIGRATIONS = Path(__file__).resolve().parent / "migrations"


#: Execution options that make a transaction a write transaction, per database.
WRITING = {"sqlite": {"writing": True}, "postgresql": {"isolation_level": "READ COMMITTED"}}


def make_engine(url: str):
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False, "timeout": 30})
        event.listen(engine, "connect", _sqlite_pragmas)
        event.listen(engine, "begin", _sqlite_begin)
        return engine
    return create_engine(url, pool_pre_ping=True, isolation_level="REPEATABLE READ")


def write_options(engine) -> dict:
    """What to pass to `Session.connection(execution_options=...)` before a write."""
    return WRITING.get(engine.dialect.name, {})


def _sqlite_begin(connection):
    writing = connection.get_execution_options().get("writing")
    connection.exec_driver_sql("BEGIN IMMEDIATE" if writing else "BEGIN")


def _sqlite_pragmas(dbapi_connection, _record):
    dbapi_connection.isolation_level = None  # transactions are begun by _sqlite_begin, reads included
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


@contextmanager
def writing(db: Session):
    """One write transaction, begun afresh and committed at the end (rolled back on any error).

    Whatever the session had read before is let go first: a write must check what it
    depends on inside its own transaction, against the last committed state, and a read
    snapshot cannot be turned into a write on either database once another phone has
    written since.
    """
    db.rollback()
    db.connection(execution_options=write_options(db.get_bind()))
    try:
        yield db
        db.commit()
    except BaseException:
        db.rollback()
        raise
