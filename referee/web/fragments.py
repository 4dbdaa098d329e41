"""Rendered scoreboard fragments for watchers, shared by every server process on this machine.

Every phone at a table polls the same game; between two saves they all want the same bytes.
The first process to render a version writes it to one file per game and language in the
instance folder, and the other processes read that file instead of rendering it again. The
file starts with the version it holds, so a save makes it stale for every process at once
and nothing stale is ever served. Writing is best effort: on a full or read-only disk the
fragment is rendered each time, as if there were no cache. Scorers' fragments carry their
own CSRF token and are never cached.
"""

import os
import threading
from contextlib import suppress
from pathlib import Path
from typing import Optional


def read(folder: Path, name: str, version: int) -> Optional[str]:
    """The fragment `name` as rendered at `version` by any process, or None."""
    try:
        stamp, _, body = (folder / f"{name}.html").read_text(encoding="utf-8").partition("\n")
    except (OSError, UnicodeError):
        return None
    return body if stamp == str(version) else None


def write(folder: Path, name: str, version: int, body: str) -> None:
    """Keep `body` as the fragment `name` at `version` for the other processes."""
    path = folder / f"{name}.html"
    # Written whole under a name of its own, then renamed into place: a reader sees the old
    # file or the new one, never half of one.
    draft = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        draft.write_text(f"{version}\n{body}", encoding="utf-8")
        os.replace(draft, path)
    except OSError:
        with suppress(OSError):
            draft.unlink()
