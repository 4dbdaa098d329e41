"""The referee desk: settle a dispute at the table from the house rules.

Pages under /referee (standalone, on a chosen preset) and /games/<id>/referee (on a game's
frozen house rules, with every ruling a scorer asks for saved in the game's log). Views
parse, call `referee.services.referee_desk`, and render; the JSON route for a foot ruling
is the API's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import re
from typing import Optional

from flask import Blueprint, abort, current_app, redirect, render_template, request, url_for
from flask_babel import gettext

from referee.rules.house_rules import HouseRules, PRESETS, preset, round_count, validate_players
from referee.rules.text import Message, N_, NP_, RulesError
from referee.services import games, photos, referee_desk
from referee.web import db, security
from referee.web.game.routes import can_edit
from referee.web.labels import rule_value

bp = Blueprint("desk", __name__, url_prefix="")

DEFAULT_PLAYERS = 4


# -- who is asking, under which rules -----------------------------------------------------


@dataclass
class Desk:
    """The rules a ruling is given under: a game's, or a preset chosen at the desk."""

    rules: HouseRules
    players: list
    preset: str
    game: object = None
    state: object = None
    editor: bool = False
    impossible_foot: str = ""
    round: Optional[int] = None
    error: Optional[RulesError] = None

    @property
    def url_args(self) -> dict:
        """What a form's action needs: the game, when there is one."""
        return {"game_id": self.game.id} if self.game else {}

    @property
    def link_args(self) -> dict:
        """What a link needs: the game, or the rules chosen at the standalone desk."""
        if self.game:
            return self.url_args
        args = {"preset": self.preset, "players": len(self.players)}
        if self.impossible_foot:
            args["impossible_foot"] = self.impossible_foot
        return args


def _desk(game_id, values) -> Desk:
    if game_id is not None:
        session = db.session()
        try:
            game = games.load(session, game_id)
        except games.NotFound:
            abort(404)
        state = games.view(session, game)
        if not state.kind.has_desk:
            abort(404)  # the desk rules on Chicken Foot feet; the other games have no such disputes
        upcoming = state.next_round
        return Desk(rules=state.rules, players=list(state.players), preset=state.preset, game=game, state=state,
                    editor=can_edit(game), round=upcoming.number if upcoming else None)
    name = (values.get("preset") or "pagat").strip().lower()
    choice = (values.get("impossible_foot") or "").strip()
    try:
        rules = preset(name, **({"impossible_foot": choice} if choice else {}))
        count = validate_players(rules, values.get("players") or str(DEFAULT_PLAYERS))
    except RulesError as err:
        return Desk(rules=PRESETS["pagat"], players=_seats(DEFAULT_PLAYERS), preset="pagat", error=err)
    return Desk(rules=rules, players=_seats(count), preset=name, impossible_foot=choice)


def _seats(count: int) -> list:
    return [gettext("Player %(n)d", n=i + 1) for i in range(count)]


def _form():
    return request.form if request.method == "POST" else request.args


# -- the desk's front page ------------------------------------------------------------------


@bp.route("/referee")
def index():
    return _menu(None)


@bp.route("/games/<game_id>/referee")
def game_desk(game_id):
    return _menu(game_id)


def _menu(game_id):
    desk = _desk(game_id, request.args)
    return render_template("desk.html", desk=desk, rulings_log=_log(desk),
                           questions=referee_desk.QUESTIONS, presets=list(PRESETS),
                           settle_choices=referee_desk.SETTLE_CHOICES, state=desk.state), 422 if desk.error else 200


# -- the foot ---------------------------------------------------------------------------------


@dataclass
class FootForm:
    """What was tapped on the foot page, and the ruling it gives (or what is still missing)."""

    double: object = None
    starting: bool = False
    laid: list = field(default_factory=list)
    toes: list = field(default_factory=list)
    boneyard: str = "0"
    tiles: list = field(default_factory=list)
    redraw: bool = False
    prompt: Optional[Message] = None
    error: Optional[RulesError] = None
    answer: Optional[referee_desk.Answer] = None
    seen: list = field(default_factory=list)      # the tiles a photo of the table showed, "a-b"
    unsure: list = field(default_factory=list)    # the ones it was not sure of
    seen_toes: list = field(default_factory=list)  # "double:toe" as the photo showed them, toes...
    seen_arms: list = field(default_factory=list)  # ...and as a starting double's arms
    photo: Optional[str] = None                   # the annotated photo, sent back by a page without JavaScript


def _foot_form(desk: Desk, form) -> FootForm:
    taps = FootForm(starting=bool(form.get("starting")), boneyard=(form.get("boneyard") or "0").strip(),
                    seen=form.getlist("seen"), unsure=form.getlist("seen_unsure"),
                    seen_toes=form.getlist("seen_toe"), seen_arms=form.getlist("seen_arm"),
                    photo=_kept_photo(form.get("seen_photo")))
    raw = (form.get("double") or "").strip()
    if not raw:
        taps.prompt = Message(N_("Tap the double in dispute."))
        taps.redraw = bool(form.get("shown_double"))
        return taps
    try:
        taps.double = referee_desk.pick_double(desk.rules, raw)
    except RulesError as err:
        taps.error = err
        return taps
    taps.tiles = referee_desk.picker(desk.rules, taps.double)
    shown = form.get("shown_double")
    taps.redraw = shown != str(taps.double) or form.get("shown_starting") != ("1" if taps.starting else "0")
    if shown != str(taps.double) and taps.seen:
        # A new double after a photo of the table: its tiles read there are ticked.
        taps.laid = [t for t in taps.seen if _carries(t, taps.double.high) and t != str(taps.double)]
        pairs = (pair.split(":", 1) for pair in (taps.seen_arms if taps.starting else taps.seen_toes) if ":" in pair)
        taps.toes = [toe for double, toe in pairs if double == str(taps.double) and toe in taps.laid]
        taps.prompt = Message(N_("The tiles carrying %(number)d read in the photo are ticked: check them, "
                                 "mark the toes, and give the ruling."), {"number": taps.double.high})
        return taps
    if shown != str(taps.double):
        # A new double: its picker starts empty, whatever was tapped for the last one.
        taps.prompt = Message(N_("Now tap the tiles carrying %(number)d that are on the table."),
                              {"number": taps.double.high})
        return taps
    taps.laid, taps.toes = form.getlist("on"), form.getlist("toe")
    try:
        taps.answer = referee_desk.judge_taps(desk.rules, taps.double, taps.laid, taps.toes, taps.boneyard,
                                         taps.starting, len(desk.players))
    except RulesError as err:
        taps.error = err
    return taps


@bp.route("/referee/foot", methods=["GET", "POST"])
@bp.route("/games/<game_id>/referee/foot", methods=["GET", "POST"])
def foot(game_id=None):
    form = _form()
    desk = _desk(game_id, form)
    notice, status = None, 200
    posted = request.method == "POST"
    choice = form.get("settle") if posted else None
    if choice and desk.game:
        if not desk.editor:
            abort(403)
        try:
            desk.rules = referee_desk.settle_open_rule(db.session(), desk.game, choice)
            notice = Message(N_("Recorded as a house rule for the rest of the match: %(choice)s."),
                             {"choice": rule_value("impossible_foot", choice)})
        except RulesError as err:
            db.session().rollback()
            desk.error, status = err, 422
        except games.Conflict as conflict:
            desk.error, status = conflict.message, 409
    taps = _foot_form(desk, form)
    if taps.error and posted:
        status = 422
    saved = None
    if posted and taps.answer and desk.game and status == 200:
        if desk.editor:
            # the same ruling sent again (Enter, Back and resend) is in the log once
            if not referee_desk.is_logged(_log(desk), taps.answer, desk.round):
                saved = referee_desk.record(db.session(), desk.game, taps.answer, desk.round)
        else:
            notice = Message(N_("Only a scorer's rulings are saved in the game's log."))
    rulings_log = _log(desk)
    return render_template("desk_foot.html", desk=desk, rulings_log=rulings_log,
                           logged=_logged(desk, rulings_log, taps.answer), ends_round=_ends_round(desk, taps.answer),
                           taps=taps, notice=notice, saved=saved, posted=posted,
                           doubles=referee_desk.doubles(desk.rules), settle_choices=referee_desk.SETTLE_CHOICES,
                           title=referee_desk.question_title(referee_desk.FOOT)), status


#: The annotated photo as the desk shows it: a JPEG data: URI of at most about 300 KB.
_PHOTO_URI = re.compile(r"^data:image/jpeg;base64,[A-Za-z0-9+/]+={0,2}$")
_MOST_PHOTO_CHARS = 400_000


def _kept_photo(value) -> Optional[str]:
    """A page without JavaScript posts the whole form, so the photo of the table comes back
    with it (in a <noscript>, so that htmx never sends it); anything but a JPEG is dropped."""
    if value and len(value) <= _MOST_PHOTO_CHARS and _PHOTO_URI.match(value):
        return value
    return None


def _carries(name: str, number: int) -> bool:
    try:
        return number in map(int, name.split("-"))
    except ValueError:
        return False


@bp.route("/referee/foot/photo", methods=["POST"])
@bp.route("/games/<game_id>/referee/foot/photo", methods=["POST"])
def foot_photo(game_id=None):
    """Photograph the table: the tiles read are ticked in the picker (the doubtful ones
    marked), the toes the photo shows too, for the player to confirm; nothing is logged
    until the ruling is asked for."""
    form = request.form.copy()
    desk = _desk(game_id, form)
    if not photos.available():
        return _foot_page(desk, _foot_form(desk, form), error=RulesError(NEEDS_VISION)), 503
    security.limit("photo")
    security.count("photo")
    upload = request.files.get("photo")
    data = upload.read() if upload else b""
    try:
        reading = photos.read_table(data, desk.rules.set, current_app.config["MAX_PHOTO_BYTES"])
    except RulesError as err:
        status = 413 if isinstance(err, photos.TooLarge) else 422
        return _foot_page(desk, _foot_form(desk, form), error=err), status
    except photos.Unavailable:
        return _foot_page(desk, _foot_form(desk, form), error=RulesError(NEEDS_VISION)), 503
    except photos.Busy:
        return _foot_page(desk, _foot_form(desk, form), error=RulesError(BUSY)), 503
    form.setlist("seen", reading.names)
    form.setlist("seen_unsure", reading.unsure)
    form.setlist("seen_toe", reading.toes_of_doubles())
    form.setlist("seen_arm", reading.toes_of_doubles(starting=True))
    number = None
    raw = (form.get("double") or "").strip()
    note = Message(NP_("Read %(count)d tile on the table. Tap the double in dispute: its tiles read are ticked.",
                       "Read %(count)d tiles on the table. Tap the double in dispute: its tiles read are ticked.",
                       "count"), {"count": len(reading.names)})
    if raw:
        try:
            double = referee_desk.pick_double(desk.rules, raw)
        except RulesError:
            double = None
        if double is not None:
            number = double.high
            foot = reading.foot(double, bool(form.get("starting")))
            form.setlist("on", foot.laid)
            form.setlist("toe", foot.toes)
            form["shown_double"] = str(double)
            form["shown_starting"] = "1" if form.get("starting") else "0"
            if foot.found:
                note = Message(N_("Read %(count)d tiles on the table, %(carrying)d of them carrying %(number)d, "
                                  "and %(toes)d toes against [%(double)s]. Check the ticks below, tap to correct, "
                                  "and give the ruling."),
                               {"count": len(reading.names), "carrying": len(foot.laid), "number": number,
                                "toes": len(foot.toes), "double": str(double)})
            else:
                note = Message(NP_("Read %(count)d tile on the table, but not [%(double)s] itself: check the "
                                   "ticks below and the toes, and give the ruling.",
                                   "Read %(count)d tiles on the table, but not [%(double)s] itself: check the "
                                   "ticks below and the toes, and give the ruling.", "count"),
                               {"count": len(reading.names), "double": str(double)})
    taps = _foot_form(desk, form)
    return _foot_page(desk, taps, photo=reading.image(number), photo_note=note), 200


NEEDS_VISION = N_("Reading a photo needs the vision extra: pip install -e '.[vision]'")
BUSY = N_("The photo counter is busy with another photo. Send yours again in a moment.")


def _foot_page(desk, taps, error=None, photo=None, photo_note=None):
    return render_template("desk_foot.html", desk=desk, rulings_log=_log(desk), taps=taps, notice=None, saved=None,
                           posted=False, photo_error=error, photo=photo, photo_note=photo_note,
                           doubles=referee_desk.doubles(desk.rules), settle_choices=referee_desk.SETTLE_CHOICES,
                           title=referee_desk.question_title(referee_desk.FOOT))


@bp.route("/referee/foot/ruling", methods=["POST"])
@bp.route("/games/<game_id>/referee/foot/ruling", methods=["POST"])
def foot_ruling(game_id=None):
    """The ruling alone (and the picker, when the double changed), for htmx to swap in."""
    desk = _desk(game_id, request.form)
    taps = _foot_form(desk, request.form)
    return render_template("_desk_ruling.html", desk=desk, taps=taps, redraw=taps.redraw, fragment=True,
                           logged=_logged(desk, _log(desk), taps.answer), ends_round=_ends_round(desk, taps.answer),
                           settle_choices=referee_desk.SETTLE_CHOICES), 422 if taps.error or desk.error else 200


# -- the short rulings ------------------------------------------------------------------------


@bp.route("/referee/<question>", methods=["GET", "POST"])
@bp.route("/games/<game_id>/referee/<question>", methods=["GET", "POST"])
def question(question, game_id=None):
    if question not in referee_desk.QUESTION_RULES:
        abort(404)
    form = _form()
    desk = _desk(game_id, form)
    round_number = form.get("round") or str(desk.round or 1)
    answer, error = None, desk.error
    try:
        answer = referee_desk.ask(desk.rules, question, desk.players, round_number)
    except RulesError as err:
        error = err
    if request.method == "POST":
        if not desk.game:
            abort(405)
        if not desk.editor:
            abort(403)
        if answer is not None:
            if not referee_desk.is_logged(_log(desk), answer, desk.round):
                referee_desk.record(db.session(), desk.game, answer, desk.round)
            return redirect(url_for("desk.question", question=question, game_id=desk.game.id,
                                    round=round_number, saved=1), code=303)
    rounds = round_count(desk.rules) or desk.rules.set + 1
    rulings_log = _log(desk)
    return render_template("desk_question.html", desk=desk, rulings_log=rulings_log,
                           logged=_logged(desk, rulings_log, answer),
                           question=question, answer=answer, error=error,
                           title=referee_desk.question_title(question), round_number=round_number,
                           rounds=range(1, rounds + 1), saved=request.args.get("saved") == "1",
                           state=desk.state), 422 if error else 200


# -- the game's log on every page that includes _rulings_log.html -----------------------------


@bp.app_context_processor
def _log_helpers():
    return {"referee_question": referee_desk.question_title}


def _log(desk: Desk) -> list:
    """The game's rulings so far, for the log at the foot of the page."""
    return referee_desk.log(db.session(), desk.game.id) if desk.game else []


def _logged(desk: Desk, rulings_log: list, answer) -> bool:
    """Whether this ruling is in the game's log already: its log button then says "Logged"."""
    return bool(desk.game and desk.editor and answer is not None
                and referee_desk.is_logged(rulings_log, answer, desk.round))


def _ends_round(desk: Desk, answer):
    """The round a ruling ends, when a scorer can go on to enter its hands (None otherwise)."""
    if desk.game and desk.editor and desk.round and answer is not None and answer.ends_round:
        return desk.round
    return None
