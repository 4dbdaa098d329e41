"""Home, the new-game page, and the app shell (service worker, offline page, health)."""

from referee.web.pages.routes import bp

__all__ = ["bp"]
