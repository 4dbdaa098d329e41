"""Languages: English, French and Dutch, chosen from the browser and switchable on every page.

The rules core returns `Message` objects (an English msgid and its parameters) instead of
finished sentences; `say` turns them into the reader's language here, at the edge.
"""

from datetime import datetime, timezone
from pathlib import Path
from urllib.parse import urlsplit

from flask import Blueprint, current_app, redirect, request, url_for
from flask_babel import Babel, format_date, format_datetime, format_percent, gettext, ngettext
from markupsafe import Markup, escape

from referee.rules.text import Message, Plural, RulesError

COOKIE = "lang"
NAMES = {"en": "English", "fr": "Français", "nl": "Nederlands"}

bp = Blueprint("i18n", __name__)


def select_locale():
    wanted = request.args.get("lang") or request.cookies.get(COOKIE)
    if wanted in current_app.config["LANGUAGES"]:
        return wanted
    return request.accept_languages.best_match(current_app.config["LANGUAGES"]) or "en"


def say(message) -> str:
    """A core Message or RulesError in the reader's language; plain strings pass through."""
    if isinstance(message, (Message, RulesError)):
        params = {k: say(v) if isinstance(v, Message) else v for k, v in message.params.items()}
        if isinstance(message.msgid, Plural):
            return ngettext(message.msgid, message.msgid.plural, params[message.msgid.counted], **params)
        return gettext(message.msgid, **params) if params else gettext(message.msgid)
    return str(message)


#: How much of a moment `local_time` shows: the date, the time to the minute, or to the second.
TIME_STYLES = {"date": "medium", "short": "short", "medium": "medium"}


def local_time(moment, style: str = "short") -> Markup:
    """A moment as a <time> element that the phone shows in its own time zone and language
    (app.js formats every `time[data-local]` with Intl.DateTimeFormat). The text inside is the
    server's rendering in UTC, which is what a phone without JavaScript shows."""
    if not isinstance(moment, datetime):
        return Markup("")
    moment = moment.replace(tzinfo=timezone.utc) if moment.tzinfo is None else moment.astimezone(timezone.utc)
    stamp = moment.strftime("%Y-%m-%dT%H:%M:%SZ")
    if style == "date":
        shown = format_date(moment, TIME_STYLES[style])
    else:
        shown = f"{format_datetime(moment, TIME_STYLES.get(style, 'short'), rebase=False)} UTC"
    return Markup('<time datetime="{}" data-local="{}">{}</time>').format(stamp, escape(style), shown)


@bp.route("/lang/<code>")
def switch(code):
    """Remember the chosen language in a cookie and go back to the page it was chosen on."""
    target = request.args.get("next", "")
    response = redirect(target if is_local_path(target) else url_for("pages.home"))
    if code in current_app.config["LANGUAGES"]:
        response.set_cookie(COOKIE, code, max_age=60 * 60 * 24 * 365, httponly=True, samesite="Lax")
    return response


def is_local_path(target: str) -> bool:
    """A path on this site and nothing else: one leading slash, no scheme or host, and no
    character a browser drops or reads as a slash ("/\t/evil.example" is "//evil.example")."""
    if not target.startswith("/") or len(target) > 2000:
        return False
    if any(ord(ch) < 0x20 or ord(ch) == 0x7F or ch == "\\" for ch in target):
        return False
    parts = urlsplit(target)
    return not parts.scheme and not parts.netloc and not target.startswith("//")


def init_app(app):
    Babel(app, locale_selector=select_locale,
          default_translation_directories=str(Path(__file__).resolve().parent / "translations"))
    app.jinja_env.filters["say"] = say
    app.jinja_env.globals.update(format_percent=format_percent, format_date=format_date, local_time=local_time)
    app.jinja_env.globals["LANGUAGE_NAMES"] = NAMES
    app.register_blueprint(bp)

    @app.context_processor
    def current_language():
        return {"current_lang": select_locale()}
