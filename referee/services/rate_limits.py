"""Rate limits per client, kept in the database so that every server process sees them.

Failed edit-token guesses and photo uploads are counted over a sliding minute; past the
limit the client is refused (429) until the minute has passed, whatever it sends.
"""

from datetime import timedelta

from sqlalchemy import delete, func, select
from sqlmodel import Session

from referee.storage.database import writing
from referee.storage.models import Attempt, utcnow

WINDOW = timedelta(minutes=1)
LIMITS = {"token": 10, "photo": 12}


def over_limit(db: Session, client: str, kind: str) -> bool:
    """Whether `client` has used up its attempts of `kind` in the last minute."""
    since = utcnow() - WINDOW
    count = db.execute(select(func.count()).select_from(Attempt).where(
        Attempt.client == client, Attempt.kind == kind, Attempt.at > since)).scalar_one()
    return count >= LIMITS[kind]


def record(db: Session, client: str, kind: str) -> None:
    """Count one attempt, and forget those older than the window."""
    with writing(db):  # on its own: the refused request commits nothing it had begun
        db.execute(delete(Attempt).where(Attempt.at < utcnow() - WINDOW))
        db.add(Attempt(client=client, kind=kind))
