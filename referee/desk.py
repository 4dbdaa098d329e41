"""The referee desk: settle a dispute at the table from the house rules.

Pages under /referee (standalone, on a chosen preset) and /games/<id>/referee (on a game's
frozen house rules, with every ruling a scorer asks for saved in the game's log), and the
JSON route POST /api/rulings/foot. Views parse, call `referee.rulings`, and render.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

from flask import Blueprint, abort, jsonify, redirect, render_template, request, url_for
from flask_babel import format_datetime, gettext

from referee import db, games, kinds, rulings
from referee.i18n import say
from referee.labels import rule_value
from referee.play import can_edit
from referee.rules import PRESETS, HouseRules, preset, round_count, validate_players
from referee.security import verify_token
from referee.text import N_, Message, RulesError
from referee.tiles import SET_SIZES

bp = Blueprint("desk", __name__, url_prefix="")

DEFAULT_PLAYERS = 4
API_KEYS = {"rules", "game", "double", "on_table", "toes_laid", "drawable", "starting", "players"}


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
        if state.kind.name != kinds.CHICKEN_FOOT:
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
    return render_template("desk.html", desk=desk, questions=rulings.QUESTIONS, presets=list(PRESETS),
                           settle_choices=rulings.SETTLE_CHOICES, state=desk.state), 422 if desk.error else 200


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
    answer: Optional[rulings.Answer] = None


def _foot_form(desk: Desk, form) -> FootForm:
    taps = FootForm(starting=bool(form.get("starting")), boneyard=(form.get("boneyard") or "0").strip())
    raw = (form.get("double") or "").strip()
    if not raw:
        taps.prompt = Message(N_("Tap the double in dispute."))
        taps.redraw = bool(form.get("shown_double"))
        return taps
    try:
        taps.double = rulings.pick_double(desk.rules, raw)
    except RulesError as err:
        taps.error = err
        return taps
    taps.tiles = rulings.picker(desk.rules, taps.double)
    shown = form.get("shown_double")
    taps.redraw = shown != str(taps.double) or form.get("shown_starting") != ("1" if taps.starting else "0")
    if shown != str(taps.double):
        # A new double: its picker starts empty, whatever was tapped for the last one.
        taps.prompt = Message(N_("Now tap the tiles carrying %(number)d that are on the table."),
                              {"number": taps.double.high})
        return taps
    taps.laid, taps.toes = form.getlist("on"), form.getlist("toe")
    try:
        taps.answer = rulings.judge_taps(desk.rules, taps.double, taps.laid, taps.toes, taps.boneyard,
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
            desk.rules = rulings.settle_open_rule(db.session(), desk.game, choice)
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
            saved = rulings.record(db.session(), desk.game, taps.answer, desk.round)
        else:
            notice = Message(N_("Only a scorer's rulings are saved in the game's log."))
    return render_template("desk_foot.html", desk=desk, taps=taps, notice=notice, saved=saved, posted=posted,
                           doubles=rulings.doubles(desk.rules), settle_choices=rulings.SETTLE_CHOICES,
                           title=rulings.question_title(rulings.FOOT)), status


@bp.route("/referee/foot/ruling", methods=["POST"])
@bp.route("/games/<game_id>/referee/foot/ruling", methods=["POST"])
def foot_ruling(game_id=None):
    """The ruling alone (and the picker, when the double changed), for htmx to swap in."""
    desk = _desk(game_id, request.form)
    taps = _foot_form(desk, request.form)
    return render_template("_desk_ruling.html", desk=desk, taps=taps, redraw=taps.redraw, fragment=True,
                           settle_choices=rulings.SETTLE_CHOICES), 422 if taps.error or desk.error else 200


# -- the short rulings ------------------------------------------------------------------------


@bp.route("/referee/<question>", methods=["GET", "POST"])
@bp.route("/games/<game_id>/referee/<question>", methods=["GET", "POST"])
def question(question, game_id=None):
    if question not in rulings.QUESTION_RULES:
        abort(404)
    form = _form()
    desk = _desk(game_id, form)
    round_number = form.get("round") or str(desk.round or 1)
    answer, error = None, desk.error
    try:
        answer = rulings.ask(desk.rules, question, desk.players, round_number)
    except RulesError as err:
        error = err
    if request.method == "POST":
        if not desk.game:
            abort(405)
        if not desk.editor:
            abort(403)
        if answer is not None:
            rulings.record(db.session(), desk.game, answer, desk.round)
            return redirect(url_for("desk.question", question=question, game_id=desk.game.id,
                                    round=round_number, saved=1), code=303)
    rounds = round_count(desk.rules) or desk.rules.set + 1
    return render_template("desk_question.html", desk=desk, question=question, answer=answer, error=error,
                           title=rulings.question_title(question), round_number=round_number,
                           rounds=range(1, rounds + 1), saved=request.args.get("saved") == "1",
                           state=desk.state), 422 if error else 200


# -- the game's log on every page that includes _rulings_log.html -----------------------------


@bp.app_context_processor
def _log_helpers():
    return {"referee_log": lambda game_id: rulings.log(db.session(), game_id),
            "referee_question": rulings.question_title,
            "referee_time": lambda moment: format_datetime(moment, "short")}


# -- JSON ------------------------------------------------------------------------------------------


@bp.route("/api/rulings/foot", methods=["POST"])
def ruling_api():
    """{"rules" or "game", "double", "on_table", "toes_laid", "drawable", "starting"} -> the ruling."""
    try:
        return _ruling_api()
    except RulesError as err:
        db.session().rollback()
        return jsonify(error=say(err)), 422
    except games.NotFound:
        return jsonify(error=say(Message(N_("There is no such game or round.")))), 404
    except games.Forbidden:
        return jsonify(error=say(Message(N_("Only a scorer can log a ruling in this game: send its edit token "
                                            "as 'Authorization: Bearer <token>', or leave the header out to "
                                            "get the ruling without logging it.")))), 403


def _ruling_api():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise RulesError(N_("The request body must be a JSON object."))
    unknown = sorted(set(data) - API_KEYS, key=str)
    if unknown:
        raise RulesError(N_("'%(key)s' is not part of a foot ruling: send %(keys)s."),
                         key=str(unknown[0])[:40], keys=", ".join(sorted(API_KEYS)))
    session = db.session()
    game, log, round_number = None, False, None
    if data.get("game") is not None:
        if not isinstance(data["game"], str):
            raise RulesError(N_("'game' must be a game's id."))
        if data.get("rules") is not None:
            raise RulesError(N_("Send either 'rules' or 'game': a game's rulings follow its own house rules."))
        if data.get("players") is not None:
            raise RulesError(N_("Leave out 'players' when you name a game: the game knows its players."))
        game = games.load(session, data["game"])
        if game.kind != kinds.CHICKEN_FOOT:
            raise RulesError(N_("Foot rulings are for Chicken Foot games only."))
        token = _bearer()
        if token is not None:
            verify_token(game, token)
            log = True
        state = games.view(session, game)
        rules, players = state.rules, len(state.players)
        round_number = state.next_round.number if state.next_round else None
    else:
        if data.get("rules") is None:
            raise RulesError(N_("Say which house rules apply: 'rules' as a preset name or {\"preset\": ..., "
                                "...changes}, or the 'game' this ruling is for."))
        _, _, rules = games.rules_from_spec(data["rules"])
        players = _whole(data, "players", None)
    double = data.get("double")
    if not isinstance(double, str):
        raise RulesError(N_("'double' must be a tile written like \"1-1\"."))
    on_table = data.get("on_table")
    if not isinstance(on_table, list) or not all(isinstance(tile, str) for tile in on_table):
        raise RulesError(N_("'on_table' must be a list of tiles like [\"1-1\", \"1-5\"]."))
    if len(on_table) > SET_SIZES[rules.set]:
        raise RulesError(N_("A double-%(top)d set has only %(size)d tiles."), top=rules.set,
                         size=SET_SIZES[rules.set])
    starting = data.get("starting", False)
    if not isinstance(starting, bool):
        raise RulesError(N_("'%(key)s' must be true or false."), key="starting")
    answer = rulings.judge(rules, double, on_table, toes_laid=_whole(data, "toes_laid", 0),
                           drawable=_whole(data, "drawable", 0), starting=starting, players=players)
    if log:
        rulings.record(session, game, answer, round_number)
    ruling = answer.ruling
    return jsonify(completable=ruling.completable, toes_missing=ruling.toes_missing,
                   unseen=[str(tile) for tile in ruling.unseen], outcome=ruling.outcome,
                   explanation=" ".join(say(part) for part in answer.parts), rule=say(answer.rule),
                   logged=log), 200


def _whole(data: dict, key: str, default):
    value = data.get(key, default)
    if value is default:
        return value
    if type(value) is not int:
        raise RulesError(N_("'%(key)s' must be a whole number."), key=key)
    return value


def _bearer():
    """The token sent as `Authorization: Bearer <token>`; a header in any other shape is a wrong token."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    return header[7:].strip() if header[:7].lower() == "bearer " else ""
