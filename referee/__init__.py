"""referee: scorekeeper and referee for Chicken Foot dominoes at a real table.

The layers are folders: `rules/` (the pure game rules), `services/` (what the pages and
the API call), `storage/` (tables and migrations) and `web/` (blueprints, templates,
static files, translations). `create_app` in `app.py` wires them together.
"""

from referee.app import create_app

__all__ = ["create_app"]
