"""A small per-process cache of rendered scoreboard fragments for watchers.

Every phone at a table polls the same game; between two saves they all want the same bytes.
The key holds the game's version, so a save makes the old entry unreachable in every process
at once: nothing is shared between processes and nothing can go stale. Scorers' fragments
carry their own CSRF token and are never cached.
"""

import threading
from collections import OrderedDict

SIZE = 512

_entries: OrderedDict = OrderedDict()
_lock = threading.Lock()


def cached(key, render):
    """The fragment for `key`, rendered by `render()` only the first time it is asked for."""
    with _lock:
        if key in _entries:
            _entries.move_to_end(key)
            return _entries[key]
    body = render()
    with _lock:
        _entries[key] = body
        while len(_entries) > SIZE:
            _entries.popitem(last=False)
    return body
