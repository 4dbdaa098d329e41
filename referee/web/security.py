"""Headers every response carries, CSRF for the HTML forms, and who may write to a game.

A scorer proves itself with the game's edit token: the API in an `Authorization: Bearer`
header, a browser through its session cookie after opening the scorer link once. The token
is compared in constant time and never put in a URL after that first visit.
"""

from flask import abort, request, session
from flask_wtf import CSRFProtect

from referee.services import games, rate_limits
from referee.web import db

csrf = CSRFProtect()

CSP = ("default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
       "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")


def init_app(app):
    csrf.init_app(app)

    @app.after_request
    def headers(response):
        response.headers.setdefault("Content-Security-Policy", CSP)
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        return response


#: Scorer tokens a browser keeps, the most recently opened games first. The session cookie
#: holds them, and a browser drops a cookie over 4 KB: with no bound, a phone that had
#: scored some hundred games could no longer score a new one. An older game is opened
#: again with its scorer link (or QR code), which puts it back among these.
KEPT_TOKENS = 30


def remember_token(game_id: str, token: str) -> None:
    # A list of pairs, oldest first: the session's JSON sorts an object's keys, which would
    # lose the order the oldest are dropped in.
    kept = [pair for pair in session.get("scorer", []) if pair[0] != game_id]
    session["scorer"] = (kept + [[game_id, token]])[-KEPT_TOKENS:]
    session.permanent = True


def scorer_tokens() -> dict:
    """The edit tokens this browser holds, by game."""
    return {game_id: token for game_id, token in session.get("scorer", [])}


def token_for(game_id: str):
    return scorer_tokens().get(game_id)


def verify_token(game, token) -> None:
    """Check a presented edit token. The right token is never refused; wrong ones count
    against this client for this game only, and past the limit are answered 429.

    Counting per game and client means a guesser on the same Wi-Fi (one public address)
    or behind the same proxy cannot lock the real scorer out of their own game.
    """
    if token is None:
        raise games.Forbidden(game.id)  # nothing presented: refused, but not a guess
    try:
        games.check_token(game, token)
        return
    except games.Forbidden:
        pass
    guesser = f"{client()[:40]}|{game.id}"
    if rate_limits.over_limit(db.session(), guesser, "token"):
        abort(429)
    rate_limits.record(db.session(), guesser, "token")
    raise games.Forbidden(game.id)


def client() -> str:
    """Who is asking, as far as rate limits go: the client's address."""
    return (request.remote_addr or "unknown")[:64]


def limit(kind: str) -> None:
    """Refuse with 429 when this client is over the limit for `kind`."""
    if rate_limits.over_limit(db.session(), client(), kind):
        abort(429)


def count(kind: str) -> None:
    """Count one attempt of `kind` against this client."""
    rate_limits.record(db.session(), client(), kind)
