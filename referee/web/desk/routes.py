"""The referee desk: settle a dispute at the table from the house rules.

Pages under /referee (standalone, on a chosen preset) and /games/<id>/referee (on a game's
frozen house rules, with every ruling a scorer asks for saved in the game's log). Views
parse, call `referee.services.referee_desk`, and render; the JSON route for a foot ruling
is the API's.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from flask import Blueprint, abort, redirect, render_template, request, url_for
from flask_babel import format_datetime, gettext

from referee.rules.house_rules import HouseRules, PRESETS, preset, round_count, validate_players
from referee.rules.text import Message, N_, RulesError
from referee.services import games, referee_desk
from referee.web import db
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


def _foot_form(desk: Desk, form) -> FootForm:
    taps = FootForm(starting=bool(form.get("starting")), boneyard=(form.get("boneyard") or "0").strip())
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
            saved = referee_desk.record(db.session(), desk.game, taps.answer, desk.round)
        else:
            notice = Message(N_("Only a scorer's rulings are saved in the game's log."))
    return render_template("desk_foot.html", desk=desk, rulings_log=_log(desk),
                           taps=taps, notice=notice, saved=saved, posted=posted,
                           doubles=referee_desk.doubles(desk.rules), settle_choices=referee_desk.SETTLE_CHOICES,
                           title=referee_desk.question_title(referee_desk.FOOT)), status


@bp.route("/referee/foot/ruling", methods=["POST"])
@bp.route("/games/<game_id>/referee/foot/ruling", methods=["POST"])
def foot_ruling(game_id=None):
    """The ruling alone (and the picker, when the double changed), for htmx to swap in."""
    desk = _desk(game_id, request.form)
    taps = _foot_form(desk, request.form)
    return render_template("_desk_ruling.html", desk=desk, taps=taps, redraw=taps.redraw, fragment=True,
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
            referee_desk.record(db.session(), desk.game, answer, desk.round)
            return redirect(url_for("desk.question", question=question, game_id=desk.game.id,
                                    round=round_number, saved=1), code=303)
    rounds = round_count(desk.rules) or desk.rules.set + 1
    return render_template("desk_question.html", desk=desk, rulings_log=_log(desk),
                           question=question, answer=answer, error=error,
                           title=referee_desk.question_title(question), round_number=round_number,
                           rounds=range(1, rounds + 1), saved=request.args.get("saved") == "1",
                           state=desk.state), 422 if error else 200


# -- the game's log on every page that includes _rulings_log.html -----------------------------


@bp.app_context_processor
def _log_helpers():
    return {"referee_question": referee_desk.question_title,
            "referee_time": lambda moment: format_datetime(moment, "short")}


def _log(desk: Desk) -> list:
    """The game's rulings so far, for the log at the foot of the page."""
    return referee_desk.log(db.session(), desk.game.id) if desk.game else []
