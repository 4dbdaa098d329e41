"""The JSON API: the same flows as the pages, for other clients and outside checks.

Writes need `Authorization: Bearer <edit_token>`. Every error is `{"error": "..."}` in the
caller's language with a 4xx status; nothing is written unless the whole request is valid.
"""

import json

from flask import Blueprint, current_app, jsonify, make_response, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from referee.rules.text import Message, N_, RulesError
from referee.rules.scoring import PipTotal
from referee.rules.tiles import SET_SIZES, parse_tile
from referee.services import games, kinds, photos, rate_limits, referee_desk, rounds
from referee.services.games import MAX_NAME
from referee.web import db, security
from referee.web.api import openapi
from referee.web.errors import respond
from referee.web.i18n import say
from referee.web.security import verify_token

bp = Blueprint("api", __name__, url_prefix="/api")

HAND_KEYS = {"tiles", "pips"}
# A typed total may also say it holds the [0-0], which has no pips but may count 50 or 25.
PIPS_KEYS = {"pips", "double_blank"}


def _fail(code: int, message):
    return jsonify(error=say(message)), code


#: No request of this API needs more than a few kilobytes, or more than a few levels of
#: nesting (a round: hands -> player -> tiles); the limits keep a hostile body from costing
#: memory or the parser's recursion.
MAX_JSON_BYTES = 64 * 1024
MAX_JSON_DEPTH = 16


class BadJSON(Exception):
    """The body is not JSON this API can read at all (400), as against JSON with wrong values (422)."""

    def __init__(self, message: Message):
        super().__init__(message.msgid)
        self.message = message


def _body() -> dict:
    if (request.content_length or 0) > MAX_JSON_BYTES:
        raise BadJSON(Message(N_("The request body is larger than %(kb)d KB."), {"kb": MAX_JSON_BYTES // 1024}))
    raw = request.stream.read(MAX_JSON_BYTES + 1)
    if len(raw) > MAX_JSON_BYTES:
        raise BadJSON(Message(N_("The request body is larger than %(kb)d KB."), {"kb": MAX_JSON_BYTES // 1024}))
    if _depth(raw) > MAX_JSON_DEPTH:
        raise BadJSON(Message(N_("The request body nests deeper than %(depth)d levels."), {"depth": MAX_JSON_DEPTH}))
    try:
        data = json.loads(raw)
    except ValueError:
        raise BadJSON(Message(N_("The request body is not valid JSON."))) from None
    if not isinstance(data, dict):
        raise RulesError(N_("The request body must be a JSON object."))
    return data


def _depth(raw: bytes) -> int:
    """How deep the brackets of a JSON text nest, outside its strings, without parsing it."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return deepest


def _game(game_id):
    return games.load(db.session(), game_id)


def _bearer():
    """The token sent as `Authorization: Bearer <token>`; a header in any other shape is a wrong token."""
    header = request.headers.get("Authorization")
    if header is None:
        return None
    return header[7:].strip() if header[:7].lower() == "bearer " else ""


class MissingToken(Exception):
    """A write sent no credentials at all (401), as against a wrong token (403)."""


def _authorised(game) -> None:
    token = _bearer()
    if token is None:
        raise MissingToken()
    verify_token(game, token)


def _entry(data: dict) -> games.RoundEntry:
    hands = data.get("hands")
    if not isinstance(hands, dict):
        raise RulesError(N_("'hands' must map each player to {\"tiles\": [...]} or {\"pips\": N}."))
    parsed = {}
    for name, hand in hands.items():
        if hand is None:
            continue
        if not isinstance(hand, dict) or len(set(hand) & HAND_KEYS) != 1 or set(hand) - HAND_KEYS - PIPS_KEYS \
                or ("tiles" in hand and set(hand) - HAND_KEYS):
            raise RulesError(N_("The hand of %(player)s must be {\"tiles\": [...]} or {\"pips\": N}."), player=str(name)[:MAX_NAME])
        if "tiles" in hand:
            if not isinstance(hand["tiles"], list) or not all(isinstance(t, str) for t in hand["tiles"]):
                raise RulesError(N_("The tiles of %(player)s must be a list like [\"3-4\", \"0-0\"]."), player=str(name)[:MAX_NAME])
            parsed[name] = hand["tiles"]
        else:
            pips = hand["pips"]
            if isinstance(pips, float) and pips.is_integer():
                pips = int(pips)  # JSON Schema's integer: 12.0 is 12
            if not isinstance(pips, int) or isinstance(pips, bool):
                raise RulesError(N_("The pips of %(player)s must be a whole number."), player=str(name)[:MAX_NAME])
            blank = hand.get("double_blank", False)
            if not isinstance(blank, bool):
                raise RulesError(N_("'%(key)s' must be true or false."), key="double_blank")
            parsed[name] = PipTotal(pips, True) if blank else pips
    names = {}
    for key in ("went_out", "blocker"):
        value = data.get(key)
        if value is not None and not isinstance(value, str):
            raise RulesError(N_("'%(key)s' must be a player's name or null."), key=key)
        names[key] = value
    flags = {}
    for key in ("blocked", "out_on_double", "capicu"):
        value = data.get(key, False)
        if not isinstance(value, bool):
            raise RulesError(N_("'%(key)s' must be true or false."), key=key)
        flags[key] = value
    last_tile = data.get("last_tile")
    if last_tile is not None and not isinstance(last_tile, str):
        raise RulesError(N_("'last_tile' must be a tile like \"5-3\"."))
    if flags.pop("capicu") and last_tile is None:
        raise RulesError(N_("A capicu needs 'last_tile': the tile that went out on both ends."))
    ends = data.get("ends")
    if last_tile is not None:
        if ends is None:
            raise RulesError(N_("A capicu needs 'ends': the two open ends of the line before the last tile, "
                                "like [3, 5] or \"3-5\"."))
        if not isinstance(ends, (str, list)) or isinstance(ends, list) and not all(
                isinstance(end, (int, str)) and not isinstance(end, bool) for end in ends):
            raise RulesError(N_("'ends' must be the two open ends of the line before the last tile, like [3, 5] "
                                "or \"3-5\"."))
        last_tile = _written(last_tile)
    started_on = data.get("started_on")
    if started_on is not None and not isinstance(started_on, str):
        raise RulesError(N_("'started_on' must be the double the round started on, like \"8-8\", or null."))
    return games.RoundEntry(hands=parsed, capicu_tile=last_tile, capicu_ends=ends, started_on=started_on,
                            **names, **flags)


def _written(tile: str) -> str:
    """A tile as the app writes it ("5-3" for "[3-5]"); left as sent when it is no tile, for
    the rules to refuse with their own reason."""
    try:
        return str(parse_tile(tile, max(SET_SIZES)))
    except RulesError:
        return tile


def _game_json(state: games.GameView) -> dict:
    """A game as the API shows it; `totals` are per team in team games, as on the scoreboard."""
    body = {
        "id": state.id,
        "game": state.kind.name,
        "players": state.players,
        "rules": state.kind.rules_spec(state.preset, state.overrides),
        "deal": {"per_player": state.deal.per_player, "boneyard": state.deal.boneyard},
        "totals": state.totals,
        "rounds": [{"number": r.number, "double": str(r.double) if r.double else None, "scores": r.scores,
                    "went_out": r.went_out, "blocked": r.blocked, "version": r.version if r.played else None}
                   for r in state.rounds],
        "finished": state.finished,
        "winners": state.winners,
    }
    if state.columns != state.players:
        body["teams"] = {column: [p for p in state.players if state.column_of(p) == column]
                         for column in state.columns}
    return body


@bp.errorhandler(RulesError)
def _rules_error(err):
    db.session().rollback()
    return _fail(422, err)


@bp.errorhandler(BadJSON)
def _bad_json(err):
    return _fail(400, err.message)


@bp.errorhandler(MissingToken)
def _missing_token(_err):
    response, code = _fail(401, Message(N_("This needs the game's edit token: send it as "
                                           "'Authorization: Bearer <token>'.")))
    response.headers["WWW-Authenticate"] = 'Bearer realm="referee"'
    return response, code


@bp.errorhandler(games.NotFound)
def _not_found(_err):
    return _fail(404, Message(N_("There is no such game or round.")))


@bp.errorhandler(games.Forbidden)
def _forbidden(_err):
    if request.endpoint == "api.foot_ruling":
        return _fail(403, Message(N_("Only a scorer can log a ruling in this game: send its edit token "
                                    "as 'Authorization: Bearer <token>', or leave the header out to "
                                    "get the ruling without logging it.")))
    return _fail(403, Message(N_("Only a scorer can change this game: send its edit token as 'Authorization: Bearer <token>'.")))


@bp.errorhandler(429)
def _too_many(_err):
    """Too many attempts (wrong edit tokens, photos): say when to try again, as they are
    counted over a minute."""
    response = make_response(respond(429))
    response.headers["Retry-After"] = str(int(rate_limits.WINDOW.total_seconds()))
    return response


@bp.errorhandler(games.Conflict)
def _conflict(err):
    db.session().rollback()
    game_id = (request.view_args or {}).get("game_id")
    if game_id is None:
        return _fail(409, err.message)
    state = games.view(db.session(), _game(game_id))
    return jsonify(error=say(err.message), game=_game_json(state)), 409


@bp.route("/games", methods=["POST"])
def create_game():
    data = _body()
    session = db.session()
    kind = data.get("game", kinds.CHICKEN_FOOT)
    if not isinstance(kind, str):
        raise RulesError(N_("'game' must be one of %(kinds)s."), kinds=", ".join(kinds.KINDS))
    players = data.get("players")
    if isinstance(players, list) and any(isinstance(name, str) and len(name) > MAX_NAME for name in players):
        # As sent, before spaces are trimmed: the limit the API document states (maxLength).
        raise RulesError(N_("A player name can have at most %(max)d characters."), max=MAX_NAME)
    game = games.create_game(session, data.get("players"), data.get("rules"), kind)
    return jsonify(_created(game)), 201


def _created(game) -> dict:
    """A new game as its scorer gets it: with its edit token, and each round's double alone."""
    body = _game_json(games.view(db.session(), game))
    body["edit_token"] = game.edit_token
    body["rounds"] = [{"number": r["number"], "double": r["double"]} for r in body["rounds"]]
    return body


@bp.route("/games/<game_id>/rematch", methods=["POST"])
def start_rematch(game_id):
    """The same table plays again, as the game page's Rematch: 201 with the new game and its
    edit token (the caller scores it, as the phone that tapped Rematch does); 200 with the
    same game for every later call, from any scorer; 409 before the match is over."""
    game = _game(game_id)
    _authorised(game)
    try:
        new, started = games.rematch(db.session(), game)
    except RulesError as err:  # the match not over: a conflict with the game as it is (_conflict)
        raise games.Conflict(err.message) from None
    return jsonify(_created(new)), 201 if started else 200


@bp.route("/games/<game_id>")
def get_game(game_id):
    return jsonify(_game_json(games.view(db.session(), _game(game_id))))


@bp.route("/games/<game_id>/rounds", methods=["POST"])
def add_round(game_id):
    game = _game(game_id)
    _authorised(game)
    data = _body()
    expected = _integer(data.get("number"))
    if data.get("number") is not None and expected is None:
        raise RulesError(N_("'number' must be the number of the round being recorded."))
    key = data.get("entry_key")  # checked by rounds.record_round
    try:
        return _round_saved(rounds.record_round(db.session(), game, _entry(data), expected, key)), 201
    except rounds.AlreadySaved as saved:
        # The same entry sent again (a retry after a lost answer): nothing is saved twice,
        # and the caller is told where its entry went.
        db.session().rollback()
        state = games.view(db.session(), game)
        return jsonify(error=say(saved.message), round=saved.number, already_saved=True,
                       game=_game_json(state)), 409


@bp.route("/games/<game_id>/rounds/<int:number>", methods=["PUT"])
def correct_round(game_id, number):
    game = _game(game_id)
    _authorised(game)
    data = _body()
    version = _integer(data.get("version"))
    if data.get("version") is not None and version is None:
        raise RulesError(N_("'version' must be the round's version number."))
    return _round_saved(rounds.correct_round(db.session(), game, number, _entry(data), version)), 200


@bp.route("/games/<game_id>/rounds/last", methods=["DELETE"])
def undo_round(game_id):
    return _undo(game_id, None)


@bp.route("/games/<game_id>/rounds/<int:number>", methods=["DELETE"])
def undo_numbered_round(game_id, number):
    """Undo round `number`, only while it is the last: a second undo of it is a 409."""
    return _undo(game_id, number)


def _undo(game_id, number):
    game = _game(game_id)
    _authorised(game)
    undone = rounds.undo_round(db.session(), game, number)
    return jsonify(undone=undone, game=_game_json(games.view(db.session(), game))), 200


def _round_saved(saved: games.Saved):
    return jsonify(round=saved.number, version=saved.version, scores=saved.scores, totals=saved.standing.totals,
                   finished=saved.standing.finished, winners=saved.standing.winners)


FOOT_KEYS = {"rules", "game", "double", "on_table", "toes_laid", "drawable", "starting", "players"}


@bp.route("/rulings/foot", methods=["POST"])
def foot_ruling():
    """{"rules" or "game", "double", "on_table", "toes_laid", "drawable", "starting"} -> the ruling.

    With a game and its edit token the ruling is logged with the game; without the token it
    is only given."""
    data = _body()
    unknown = sorted(set(data) - FOOT_KEYS, key=str)
    if unknown:
        raise RulesError(N_("'%(key)s' is not part of a foot ruling: send %(keys)s."),
                         key=str(unknown[0])[:MAX_NAME], keys=", ".join(sorted(FOOT_KEYS)))
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
        if not kinds.kind(game.kind).has_desk:
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
    on_table = _on_table(data.get("on_table"))
    if len(on_table) > SET_SIZES[rules.set]:
        raise RulesError(N_("A double-%(top)d set has only %(size)d tiles."), top=rules.set,
                         size=SET_SIZES[rules.set])
    starting = data.get("starting", False)
    if not isinstance(starting, bool):
        raise RulesError(N_("'%(key)s' must be true or false."), key="starting")
    answer = referee_desk.judge(rules, double, on_table, toes_laid=_whole(data, "toes_laid", 0),
                                drawable=_whole(data, "drawable", 0), starting=starting, players=players)
    if log:
        referee_desk.record(session, game, answer, round_number)
    ruling = answer.ruling
    return jsonify(completable=ruling.completable, toes_missing=ruling.toes_missing,
                   unseen=[str(tile) for tile in ruling.unseen], outcome=ruling.outcome,
                   explanation=" ".join(say(part) for part in answer.parts), rule=say(answer.rule),
                   logged=log), 200


def _on_table(value) -> list:
    """The tiles on the table: typed ("1-5"), or as POST /api/photos/read answers them
    ({"tile": "1-5", "confidence": ..., "polygon": ...}), a tile read twice counted once."""
    if isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
        if not all(isinstance(item.get("tile"), str) for item in value):
            raise RulesError(N_("Each tile read must be {\"tile\": \"1-5\", ...}, as POST /api/photos/read "
                                "answers it."))
        return list(dict.fromkeys(item["tile"] for item in value))
    if not isinstance(value, list) or not all(isinstance(tile, str) for tile in value):
        raise RulesError(N_("'on_table' must be a list of tiles like [\"1-1\", \"1-5\"]."))
    return value


@bp.route("/photos/read", methods=["POST"])
def read_photo():
    """A photo of a table or a hand (multipart, field `photo`) -> every face-up tile read,
    with its confidence and its outline in the photo's pixels, and the pips."""
    if not photos.available():
        return _fail(503, Message(NEEDS_VISION))
    security.limit("photo")
    security.count("photo")
    upload = request.files.get("photo")
    data = upload.read() if upload else b""
    try:
        reading = photos.read_table(data, max(SET_SIZES), current_app.config["MAX_PHOTO_BYTES"])
    except photos.TooLarge as err:
        return _fail(413, err)
    except photos.Unavailable:
        return _fail(503, Message(NEEDS_VISION))
    except photos.Busy:
        response, code = _fail(503, Message(N_("The photo counter is busy with another photo. "
                                               "Send yours again in a moment.")))
        response.headers["Retry-After"] = "5"
        return response, code
    return jsonify(tiles=reading.tiles, pips=reading.pips), 200


NEEDS_VISION = N_("Reading a photo needs the vision extra: pip install -e '.[vision]'")


@bp.errorhandler(RequestEntityTooLarge)
def _too_large(_err):
    if request.endpoint == "api.read_photo":
        return _fail(413, photos.too_large(current_app.config["MAX_PHOTO_BYTES"]))
    return _fail(413, Message(N_("The request body is larger than %(kb)d KB."), {"kb": MAX_JSON_BYTES // 1024}))


def _whole(data: dict, key: str, default):
    value = data.get(key, default)
    if value is default:
        return value
    number = _integer(value)
    if number is None:
        raise RulesError(N_("'%(key)s' must be a whole number."), key=key)
    return number


def _integer(value):
    """A whole number as JSON Schema's "integer" has it (12.0 is 12; true is not 1), else None."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


@bp.route("/openapi.json")
def openapi_document():
    return jsonify(openapi.document())


def unknown(_rest):
    """No such route; or, where the path is a route but not for this method, 405 with Allow."""
    allowed = _methods_for(request.path)
    if not allowed:
        return respond(404)
    response = make_response(respond(405))
    response.headers["Allow"] = ", ".join(sorted(allowed))
    return response


@bp.record_once
def _catch_all(state):
    """`unknown` answers every path under /api that no route takes, for every method: a rule
    without methods matches them all (Flask's own rules always list theirs), so TRACE or any
    other method gets the same 405 and an Allow naming only what the path really takes."""
    app = state.app
    app.url_map.add(app.url_rule_class(f"{state.url_prefix}/<path:_rest>", endpoint=f"{bp.name}.unknown"))
    app.view_functions[f"{bp.name}.unknown"] = unknown


@bp.before_request
def _options():
    """OPTIONS: 204 with the methods the path takes (Flask's automatic answer would list the
    catch-all's too); 404 where no route is."""
    if request.method != "OPTIONS":
        return None
    allowed = _methods_for(request.path)
    if not allowed:
        return respond(404)
    response = current_app.response_class(status=204)
    del response.headers["Content-Type"]  # no body, so no type
    response.headers["Allow"] = ", ".join(sorted(allowed))
    return response


def _methods_for(path: str) -> set:
    adapter = current_app.url_map.bind("localhost")
    allowed = set()
    for method in ("GET", "POST", "PUT", "DELETE", "PATCH"):
        try:
            endpoint, _ = adapter.match(path, method=method)
        except HTTPException:
            continue
        if endpoint != "api.unknown":
            allowed.add(method)
    if "GET" in allowed:
        allowed.add("HEAD")
    return allowed | {"OPTIONS"} if allowed else set()
