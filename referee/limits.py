"""Rate limits per client, kept in the database so that every server process sees them.

Failed edit-token guesses and photo uploads are counted over a sliding minute; past the
limit the client gets 429 until the minute has passed, whatever it sends.
"""

from datetime import timedelta

from flask import abort, request
from sqlalchemy import delete, func, select

from referee import db
from referee.models import Attempt, utcnow

WINDOW = timedelta(minutes=1)
LIMITS = {"token": 10, "photo": 12}


def client() -> str:
    return (request.remote_addr or "unknown")[:64]


def check(kind: str) -> None:
    """Refuse with 429 when this client is over the limit for `kind`."""
    session = db.session()
    since = utcnow() - WINDOW
    count = session.execute(select(func.count()).select_from(Attempt).where(
        Attempt.client == client(), Attempt.kind == kind, Attempt.at > since)).scalar_one()
    if count >= LIMITS[kind]:
        abort(429)


def record(kind: str) -> None:
    """Count one attempt, and forget those older than the window."""
    session = db.session()
    session.rollback()  # the refused request must not commit anything it had begun
    session.execute(delete(Attempt).where(Attempt.at < utcnow() - WINDOW))
    session.add(Attempt(client=client(), kind=kind))
    session.commit()
