"""Every error a user can cause gets a page (or, under /api/, JSON) in their language.

Nothing here shows a stack trace or SQL: an unexpected failure is logged and answered with
a plain 500 message.
"""

from flask import jsonify, make_response, render_template, request
from flask_babel import gettext as _
from flask_wtf.csrf import CSRFError
from sqlalchemy.exc import OperationalError
from werkzeug.exceptions import HTTPException

from referee.web import db


def _messages():
    return {
        400: (_("Bad request"), _("The request could not be understood.")),
        403: (_("Not allowed"), _("Only a scorer of this game can change it. Open the scorer link or scan the scorer QR code.")),
        404: (_("Not found"), _("There is no such page or game. Check the link.")),
        405: (_("Not allowed"), _("This address does not accept that kind of request.")),
        409: (_("Changed meanwhile"), _("Someone else changed this game first. Reload to see the new version.")),
        413: (_("Too large"), _("What was sent is too large.")),
        429: (_("Slow down"), _("Too many attempts. Wait a minute and try again.")),
        503: (_("Database unavailable"), _("The database did not answer. Nothing was saved; try again in a moment.")),
        507: (_("Server disk full"), _("The server's disk is full, so this was not saved. Earlier scores are safe; "
                                       "tell whoever runs the server.")),
        500: (_("Something went wrong"), _("The server could not finish this. Nothing was half-saved; try again.")),
    }


def respond(code: int, message: str = None):
    title, text = _messages().get(code, (_("Error"), _("Something went wrong.")))
    message = message or text
    if request.path.startswith("/api/"):
        return jsonify(error=message), code
    if request.headers.get("HX-Request") == "true" and request.headers.get("HX-Boosted") != "true":
        # An htmx fragment request: show the message in place of the page's main content.
        body = render_template("_error_card.html", title=title, message=message)
        return body, code, {"HX-Retarget": "main", "HX-Reswap": "innerHTML"}
    return render_template("error.html", title=title, message=message), code


KEPT_HEADERS = ("allow", "www-authenticate", "retry-after")


def _route() -> str:
    """The route's pattern, never the path: a path can hold a game's edit token (the scorer
    link), and a log is no place for a secret."""
    rule = request.url_rule
    return f"{request.method} {rule.rule if rule is not None else '(no route)'}"


def init_app(app):
    @app.errorhandler(CSRFError)
    def csrf_failed(_err):
        return respond(400, _("This form has expired or did not come from this app. Reload the page and try again."))

    @app.errorhandler(OperationalError)
    def database_failed(err):
        """The database refused the write: roll back, keep what was saved before, say why."""
        db.session().rollback()
        full = "full" in str(err.orig).lower() or "no space" in str(err.orig).lower()
        app.logger.error("database error on %s: %s", _route(), err.orig)
        return respond(507 if full else 503)

    @app.errorhandler(HTTPException)
    def http_error(err):
        """The error's page, keeping the headers that say what to do next (Allow on a 405,
        WWW-Authenticate on a 401, Retry-After on a 429)."""
        response = make_response(respond(err.code or 500))
        for name, value in err.get_headers():
            if name.lower() in KEPT_HEADERS:
                response.headers[name] = value
        return response

    @app.errorhandler(Exception)
    def unexpected(err):
        app.logger.exception("unexpected error on %s", _route())
        return respond(500)
