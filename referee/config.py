"""Configuration read from the environment, with defaults that need no set-up.

Like microblog's Config: DATABASE_URL selects any SQLAlchemy database; without it the app
keeps an SQLite file in Flask's instance folder, so the first command in the README needs
nothing else installed.
"""

import os
import secrets
from pathlib import Path


class Config:
    LANGUAGES = ("en", "fr", "nl")
    BABEL_DEFAULT_LOCALE = "en"
    SESSION_COOKIE_HTTPONLY = True
    SESSION_COOKIE_SAMESITE = "Lax"
    PERMANENT_SESSION_LIFETIME = 60 * 60 * 24 * 365
    WTF_CSRF_TIME_LIMIT = None
    MAX_CONTENT_LENGTH = 25 * 1024 * 1024
    #: The largest hand photo read. A request to read one may be twice as large, so that a
    #: photo over this is answered on the round page, with what was typed there, rather
    #: than by a bare "too large" page.
    MAX_PHOTO_BYTES = 25 * 1024 * 1024


def sqlite_url(instance_path: str) -> str:
    return "sqlite:///" + str(Path(instance_path) / "referee.sqlite")


def load_secret_key(instance_path: str) -> str:
    """One key shared by every worker process: from SECRET_KEY, else a file made once.

    Sessions carry the scorer tokens, so every process behind `referee serve` must sign
    them with the same key; a per-process random key would log scorers out at random.
    """
    if os.environ.get("SECRET_KEY"):
        return os.environ["SECRET_KEY"]
    path = Path(instance_path) / "secret_key"
    if path.exists():
        return path.read_text().strip()
    # Write it whole under a temporary name, then link it into place: a process that loses
    # the race reads the winner's key, never a half-written file.
    draft = path.with_name(f"secret_key.{os.getpid()}")
    draft.write_text(secrets.token_hex(32))
    os.chmod(draft, 0o600)
    try:
        os.link(draft, path)
    except FileExistsError:
        pass
    finally:
        draft.unlink()
    return path.read_text().strip()
