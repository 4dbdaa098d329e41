"""One database session per request, opened on first use and closed at teardown.

The engine is made and migrated by the app factory (`referee.storage.database`); views only
take the request's session here and hand it to the service layer.
"""

from flask import current_app, g
from sqlmodel import Session


def init_app(app, engine):
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
