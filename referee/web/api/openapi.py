"""The OpenAPI 3.1 description of the JSON API, served at /api/openapi.json.

Written by hand to say exactly what the API promises, in both directions: every request the
API can accept is valid here, what is invalid here is refused with a 4xx, and every status
code and header an operation answers is listed. Where a rule cannot be written in JSON Schema
(a hand must name the game's players; a preset's player range; case-insensitive duplicate
names) it is said in words, and the API answers 422. The test suite runs schemathesis, all
of its checks, against the live app with this document (tests/reliability/test_schemathesis.py).

Where the API reads a value leniently, as the HTML forms send it ("12" for 12, "yes" for
true, "Highest Draw" for "highest-draw"), the schema says so too: those patterns, and each
game's rules, are in `value_schemas.py`.
"""

from referee.services.games import MAX_PLAYERS, MIN_PLAYERS
from referee.services.kinds import KINDS
from referee.services.rate_limits import LIMITS
from referee.web import LARGEST_ADDRESS_NUMBER
from referee.web.api.value_schemas import (CHICKEN_FOOT_RULES, DRAW_RULES, NAME, TEAM_RULES, TILE, TILE_PATTERN,
                                           YES, nocase, trimmed)

TOKEN_LIMIT = LIMITS["token"]

# -- requests -------------------------------------------------------------------------------------

PLAYERS = {"type": "array", "items": {"$ref": "#/components/schemas/Name"}, "minItems": MIN_PLAYERS,
           "maxItems": MAX_PLAYERS, "uniqueItems": True,
           "description": "the players in seat order; no name twice, whatever its case (422); the house rules "
                          "may take fewer players (422)"}


def _new_game(kind: str, rules: dict, required_kind: bool, players: dict = PLAYERS, **more) -> dict:
    return {"type": "object", "required": ["players", "game"] if required_kind else ["players"],
            "properties": {"players": players, "game": {"const": kind},
                           "rules": {"anyOf": [{"type": "null"}, rules]}}, **more}


TRUE = {"anyOf": [{"const": True}, {"const": 1}, {"type": "string", "pattern": trimmed(nocase(w) for w in YES)}]}
#: Team dominoes: two teams of two, or 1 v 1 with one_v_one.
TEAM_PLAYERS = {
    "if": {"required": ["rules"],
           "properties": {"rules": {"type": "object", "required": ["one_v_one"], "properties": {"one_v_one": TRUE}}}},
    "then": {"properties": {"players": {"minItems": 2, "maxItems": 2}}},
    "else": {"properties": {"players": {"minItems": 4, "maxItems": 4}}},
}


NEW_GAME = {
    "description": "A game of Chicken Foot (the default), team dominoes or the draw game, with its rules.",
    "oneOf": [
        _new_game("chicken-foot", {"$ref": "#/components/schemas/ChickenFootRules"}, False),
        _new_game("team", {"$ref": "#/components/schemas/TeamRules"}, True, allOf=[TEAM_PLAYERS]),
        _new_game("draw", {"$ref": "#/components/schemas/DrawRules"}, True, {**PLAYERS, "maxItems": 4}),
    ],
    "examples": [{"players": ["Ann", "Bob", "Cy"], "rules": "kelley"}],
}
assert {variant["properties"]["game"]["const"] for variant in NEW_GAME["oneOf"]} == set(KINDS)

HAND = {"oneOf": [
    {"type": "object", "required": ["tiles"], "additionalProperties": False,
     "properties": {"tiles": {"type": "array", "items": {"$ref": "#/components/schemas/Tile"},
                              "description": "the tiles left in hand; [] for none"}}},
    {"type": "object", "required": ["pips"], "additionalProperties": False,
     "properties": {"pips": {"type": "integer", "minimum": 0, "description": "the pips left in hand"},
                    "double_blank": {"type": "boolean",
                                     "description": "Chicken Foot: the hand also holds [0-0], which has no pips; "
                                                    "its points add the house value of [0-0] (50 or 25)"}}},
    {"type": "null", "description": "nothing entered for this player (allowed for who went out)"},
]}
ENDS = {"oneOf": [{"type": "array", "items": {"oneOf": [{"type": "integer"}, {"type": "string"}]}},
                  {"type": "string"}],
        "description": "the two open ends of the line before the capicu tile, like [3, 5], \"3-5\" or \"[3-5]\"; "
                       "the tile must fit both (422)"}
ENTRY_FIELDS = {
    "hands": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/Hand"},
              "description": "per player's name: the tiles left in hand or their pip total; every name must be a "
                             "player of the game (422)"},
    "went_out": {"type": ["string", "null"], "description": "who went out"},
    "blocked": {"type": "boolean", "description": "nobody could play"},
    "out_on_double": {"type": "boolean"},
    "blocker": {"type": ["string", "null"], "description": "team games: who laid the blocking tile"},
    "capicu": {"type": "boolean", "description": "team games: went out with a capicu; needs last_tile"},
    "last_tile": {"type": ["string", "null"], "pattern": TILE_PATTERN,
                  "description": "team games: the capicu tile; needs ends"},
    "ends": {"description": ENDS["description"] + "; read only with last_tile"},
    "started_on": {"type": ["string", "null"], "pattern": TILE_PATTERN, "examples": ["8-8"],
                   "description": "Chicken Foot under the 'next lower double' variant: the double the round "
                                  "really started on, when nobody held its own; the skipped double is then "
                                  "an ordinary tile"},
}
ENTRY_RULES = [
    {"if": {"required": ["capicu"], "properties": {"capicu": {"const": True}}},
     "then": {"required": ["last_tile"], "properties": {"last_tile": {"type": "string"}}}},
    {"if": {"required": ["last_tile"], "properties": {"last_tile": {"type": "string"}}},
     "then": {"required": ["ends"], "properties": {"ends": ENDS}}},
]
ROUND_EXAMPLE = {"went_out": "Ann", "hands": {"Ann": {"tiles": []}, "Bob": {"pips": 23},
                                              "Cy": {"tiles": ["0-0", "4-1"]}}}
NEW_ROUND = {
    "type": "object", "required": ["hands"], "allOf": ENTRY_RULES,
    "description": "The next round. Other keys are ignored.",
    "properties": {
        **ENTRY_FIELDS,
        "number": {"type": ["integer", "null"], "minimum": 1,
                   "description": "the round the phone was showing: if that round was saved meanwhile, 409 "
                                  "with the game as it is now; any other round but the next, 422"},
        "entry_key": {"type": ["string", "null"], "minLength": 1, "maxLength": 64, "pattern": "^[^\\x00-\\x1f\\x7f]*$",
                      "description": "a key naming this entry; sent again, nothing is saved twice (409 with "
                                     "already_saved)"},
    },
    "examples": [ROUND_EXAMPLE],
}
CORRECTION = {
    "type": "object", "required": ["hands"], "allOf": ENTRY_RULES,
    "description": "The round as it should have been. Other keys are ignored.",
    "properties": {
        **ENTRY_FIELDS,
        "version": {"type": ["integer", "null"], "minimum": 1,
                    "description": "the version being corrected: if the round changed since, refused (409)"},
    },
    "examples": [{**ROUND_EXAMPLE, "version": 1}],
}

_RULING_FIELDS = {
    "double": {"$ref": "#/components/schemas/Tile", "description": "the double whose foot is asked about (422 "
                                                                    "unless a double of the set)"},
    "on_table": {"type": "array", "items": {"anyOf": [{"$ref": "#/components/schemas/Tile"},
                                                       {"$ref": "#/components/schemas/TileRead"}]},
                 "description": "every tile on the table, the double included; at most the set's tiles (422): "
                                "typed, or the tiles POST /api/photos/read answered (all of one kind)"},
    "toes_laid": {"type": "integer", "minimum": 0, "description": "toes (or arms) already on the double"},
    "drawable": {"type": "integer", "minimum": 0, "description": "tiles that can still be drawn"},
    "starting": {"type": "boolean", "description": "the round's starting double (arms, not toes)"},
}
RULING_REQUEST = {
    "description": "Either the house rules (and, if known, the number of players), or the Chicken Foot game "
                   "the ruling is for: with that game's edit token as a Bearer token the ruling is also logged "
                   "with the game; without one it is only given. Unknown keys are refused (422).",
    "oneOf": [
        {"type": "object", "required": ["rules", "double", "on_table"], "additionalProperties": False,
         "properties": {**_RULING_FIELDS, "rules": {"$ref": "#/components/schemas/ChickenFootRules"},
                        "game": {"type": "null"},
                        "players": {"type": ["integer", "null"], "minimum": MIN_PLAYERS,
                                    "description": "players at the table, within the rules' range (422)"}}},
        {"type": "object", "required": ["game", "double", "on_table"], "additionalProperties": False,
         "properties": {**_RULING_FIELDS, "game": {"type": "string", "description": "a Chicken Foot game's id"},
                        "rules": {"type": "null"}, "players": {"type": "null"}}},
    ],
    "examples": [{"rules": "pagat", "double": "1-1",
                  "on_table": ["1-1", "9-1", "1-0", "1-2", "1-3", "1-4", "1-5", "1-6"]}],
}

# -- answers --------------------------------------------------------------------------------------

ERROR = {"type": "object", "required": ["error"], "properties": {"error": {"type": "string"}},
         "description": "what was wrong, in the caller's language (Accept-Language)"}
SCORES = {"type": "object", "additionalProperties": {"type": "integer"}}
ROUND = {
    "type": "object", "required": ["number", "double", "scores", "went_out", "blocked", "version"],
    "properties": {"number": {"type": "integer", "minimum": 1}, "double": {"type": ["string", "null"]},
                   "scores": {"oneOf": [SCORES, {"type": "null"}], "description": "null: not played yet"},
                   "went_out": {"type": ["string", "null"]}, "blocked": {"type": "boolean"},
                   "version": {"type": ["integer", "null"], "description": "null: not played yet"}},
}
_GAME_PROPERTIES = {
    "id": {"type": "string"}, "players": {"type": "array", "items": {"type": "string"}},
    "game": {"type": "string", "enum": list(KINDS)},
    "teams": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}},
              "description": "team games: the players of each team"},
    "rules": {"type": "object", "description": "the rules as the game was started with them: for Chicken Foot "
                                               "{\"preset\": name, ...changes}, for the other games their "
                                               "options"},
    "deal": {"type": "object", "required": ["per_player", "boneyard"],
             "properties": {"per_player": {"type": "integer"}, "boneyard": {"type": "integer"}}},
    "totals": {**SCORES, "description": "per player, or per team in team games"},
    "rounds": {"type": "array", "items": ROUND},
    "finished": {"type": "boolean"}, "winners": {"type": "array", "items": {"type": "string"}},
}
GAME = {"type": "object", "required": ["id", "game", "players", "rules", "deal", "totals", "rounds", "finished",
                                       "winners"],
        "properties": _GAME_PROPERTIES}
CREATED = {
    "type": "object", "required": [*GAME["required"], "edit_token"],
    "properties": {**_GAME_PROPERTIES,
                   "edit_token": {"type": "string", "description": "the token every write to this game needs"},
                   "rounds": {"type": "array", "items": {
                       "type": "object", "required": ["number", "double"],
                       "properties": {"number": {"type": "integer", "minimum": 1},
                                      "double": {"type": ["string", "null"]}}}}},
}
SAVED = {
    "type": "object", "required": ["round", "version", "scores", "totals", "finished", "winners"],
    "properties": {"round": {"type": "integer", "minimum": 1}, "version": {"type": "integer", "minimum": 1},
                   "scores": SCORES, "totals": SCORES, "finished": {"type": "boolean"},
                   "winners": {"type": "array", "items": {"type": "string"}}},
}
CONFLICT = {"type": "object", "required": ["error", "game"],
            "properties": {"error": {"type": "string"}, "game": {"$ref": "#/components/schemas/Game"},
                           "round": {"type": "integer", "description": "already_saved: where the entry went"},
                           "already_saved": {"const": True, "description": "the same entry_key was saved before"}},
            "description": "the game as it is now, to show instead"}
UNDONE = {"type": "object", "required": ["undone", "game"],
          "properties": {"undone": {"type": "integer", "minimum": 1}, "game": {"$ref": "#/components/schemas/Game"}}}
RULING = {
    "type": "object", "required": ["completable", "toes_missing", "unseen", "outcome", "explanation", "rule",
                                   "logged"],
    "properties": {"completable": {"type": "boolean"}, "toes_missing": {"type": "integer", "minimum": 0},
                   "unseen": {"type": "array", "items": {"$ref": "#/components/schemas/Tile"}},
                   "outcome": {"type": "string",
                               "enum": ["completable", "play-on", "round-ends", "released", "table-decides"]},
                   "explanation": {"type": "string"}, "rule": {"type": "string"},
                   "logged": {"type": "boolean", "description": "logged with the game"}},
}

#: Every answer carries these (referee.web.security).
SECURITY_HEADERS = {
    "Content-Security-Policy": {"type": "string", "minLength": 1},
    "X-Content-Type-Options": {"const": "nosniff"},
    "Referrer-Policy": {"const": "no-referrer"},
    "X-Frame-Options": {"const": "DENY"},
}
HEADERS = {
    **{name: {"description": "sent with every answer", "required": True, "schema": schema}
       for name, schema in SECURITY_HEADERS.items()},
    "WWW-Authenticate": {"description": "how to authenticate: Bearer", "required": True,
                         "schema": {"type": "string", "pattern": "^Bearer( |$)"}},
    "Retry-After": {"description": "seconds to wait before trying again", "required": True,
                    "schema": {"type": "integer", "minimum": 1}},
    "Allow": {"description": "the methods this path takes", "required": True,
              "schema": {"type": "string", "minLength": 1}},
    "RetryAfterWhenBusy": {"description": "when the photo counter is busy: seconds to wait", "required": False,
                           "schema": {"type": "integer", "minimum": 1}},
}
#: Headers some answers add: the header's name, and its description in components.headers.
_EXTRA_HEADERS = {401: {"WWW-Authenticate": "WWW-Authenticate"}, 405: {"Allow": "Allow"},
                  429: {"Retry-After": "Retry-After"}, 503: {"Retry-After": "RetryAfterWhenBusy"}}

ERRORS = {
    400: "the body is not JSON this API can read: not JSON at all, larger than 64 KB or nested deeper than "
         "16 levels",
    401: "no credentials: send the game's edit token as 'Authorization: Bearer <token>'",
    403: "a wrong edit token",
    404: "no such game (or round)",
    405: "the path does not take this method; Allow lists those it does",
    409: "the game changed meanwhile; the answer holds the game as it is now",
    422: "well-formed JSON with values the API cannot take; the error says which and why",
    429: "too many attempts from this client (wrong edit tokens for this game, or photos): wait a minute "
         "(Retry-After)",
    413: "the photo is larger than the app reads (25 MB)",
    503: "the photo counter is busy with another photo, or not installed",
}

TILE_READ = {"type": "object", "required": ["tile", "confidence", "polygon"],
             "properties": {"tile": {"$ref": "#/components/schemas/Tile"},
                            "confidence": {"type": "number", "minimum": 0, "maximum": 1},
                            "polygon": {"type": "array", "items": {"type": "array", "items": {"type": "number"},
                                                                   "minItems": 2, "maxItems": 2}}},
             "description": "a tile read in a photo: its outline in the photo's pixels, below 0.8 doubtful"}
PHOTO_READING = {"type": "object", "required": ["tiles", "pips"], "additionalProperties": False,
                 "properties": {"tiles": {"type": "array", "items": {"$ref": "#/components/schemas/TileRead"}},
                                "pips": {"type": "integer", "minimum": 0}}}


def _headers(code: int) -> dict:
    names = {**{name: name for name in SECURITY_HEADERS}, **_EXTRA_HEADERS.get(code, {})}
    return {name: {"$ref": f"#/components/headers/{component}"} for name, component in names.items()}


def _answer(code: int, description: str, schema: dict, links: dict = None) -> dict:
    answer = {"description": description, "headers": _headers(code),
              "content": {"application/json": {"schema": schema}}}
    if links:
        answer["links"] = links
    return answer


def _ref(name: str) -> dict:
    return {"$ref": f"#/components/schemas/{name}"}


def _errors(*codes) -> dict:
    return {str(code): _answer(code, ERRORS[code], _ref("Conflict") if code == 409 else _ref("Error"))
            for code in codes}


def _body(schema: dict) -> dict:
    return {"required": True, "content": {"application/json": {"schema": schema}}}


GAME_ID = {"name": "game_id", "in": "path", "required": True,
           "schema": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,16}$"},
           "description": "the id POST /api/games answered"}
NUMBER = {"name": "number", "in": "path", "required": True,
          "schema": {"type": "integer", "minimum": 1, "maximum": LARGEST_ADDRESS_NUMBER},
          "description": "a round's number"}
AUTH = [{"editToken": []}]

#: How the answers lead on (OpenAPI links): a new game's id to its other routes; a saved
#: round's number and version to correcting or undoing it.
GAME_LINKS = {
    "GetGame": {"operationId": "getGame", "parameters": {"game_id": "$response.body#/id"}},
    "RecordRound": {"operationId": "recordRound", "parameters": {"game_id": "$response.body#/id"},
                    "description": "with the edit token of this answer"},
    "UndoLastRound": {"operationId": "undoLastRound", "parameters": {"game_id": "$response.body#/id"},
                      "description": "with the edit token of this answer"},
    "AskForARuling": {"operationId": "footRuling",
                      "requestBody": {"game": "$response.body#/id", "double": "$response.body#/rounds/0/double",
                                      "on_table": ["$response.body#/rounds/0/double"], "starting": True},
                      # The whole body, not merged into a generated one (schemathesis's extension).
                      "x-schemathesis": {"merge_body": False},
                      "description": "Chicken Foot: the first round's starting double, alone on the table; with "
                                     "the edit token of this answer the ruling is logged with the game"},
}
ROUND_LINKS = {
    "GetGame": {"operationId": "getGame", "parameters": {"game_id": "$request.path.game_id"}},
    "CorrectRound": {"operationId": "correctRound",
                     "parameters": {"game_id": "$request.path.game_id", "number": "$response.body#/round"},
                     "requestBody": {"version": "$response.body#/version"}},
    "UndoRound": {"operationId": "undoRound",
                  "parameters": {"game_id": "$request.path.game_id", "number": "$response.body#/round"}},
    "RecordRound": {"operationId": "recordRound", "parameters": {"game_id": "$request.path.game_id"}},
    "UndoLastRound": {"operationId": "undoLastRound", "parameters": {"game_id": "$request.path.game_id"}},
}
CORRECTED_LINKS = {
    "GetGame": ROUND_LINKS["GetGame"],
    "CorrectRound": ROUND_LINKS["CorrectRound"],
    "UndoRound": ROUND_LINKS["UndoRound"],
}
UNDONE_LINKS = {
    "GetGame": ROUND_LINKS["GetGame"],
    "RecordRound": ROUND_LINKS["RecordRound"],
}


def document() -> dict:
    return {
        "openapi": "3.1.0",
        "info": {"title": "referee", "version": "1",
                 "description": "Chicken Foot scorekeeper and referee. Writes need the game's edit token as "
                                "'Authorization: Bearer <token>': without one they are answered 401 (with "
                                f"WWW-Authenticate), with a wrong one 403, and after {TOKEN_LIMIT} wrong "
                                "ones in a minute 429 (with Retry-After). Errors are {\"error\": \"...\"} in the "
                                "caller's language; nothing is written unless the whole request is valid. A method a "
                                "path does not take is answered 405 with Allow; OPTIONS answers 204 with "
                                "Allow."},
        "components": {
            "securitySchemes": {"editToken": {"type": "http", "scheme": "bearer",
                                              "description": "the edit_token POST /api/games answered"}},
            "headers": HEADERS,
            "responses": {"MethodNotAllowed": _answer(405, ERRORS[405], _ref("Error"))},
            "schemas": {
                "Error": ERROR, "Tile": TILE, "Name": NAME, "Hand": HAND,
                "ChickenFootRules": CHICKEN_FOOT_RULES, "TeamRules": TEAM_RULES, "DrawRules": DRAW_RULES,
                "NewGame": NEW_GAME, "NewRound": NEW_ROUND, "Correction": CORRECTION,
                "RulingRequest": RULING_REQUEST, "Game": GAME, "CreatedGame": CREATED, "Saved": SAVED,
                "Conflict": CONFLICT, "Undone": UNDONE, "Ruling": RULING,
                "TileRead": TILE_READ, "PhotoReading": PHOTO_READING,
            },
        },
        "paths": {
            "/api/games": {"post": {
                "operationId": "createGame", "summary": "Start a game",
                "requestBody": _body(_ref("NewGame")),
                "responses": {"201": _answer(201, "the new game and its edit token", _ref("CreatedGame"),
                                             GAME_LINKS),
                              **_errors(400, 422)},
            }},
            "/api/games/{game_id}": {"get": {
                "operationId": "getGame", "summary": "A game's players, rounds and totals",
                "parameters": [GAME_ID],
                "responses": {"200": _answer(200, "the game", _ref("Game")), **_errors(404)},
            }},
            "/api/games/{game_id}/rounds": {"post": {
                "operationId": "recordRound", "summary": "Record the next round",
                "parameters": [GAME_ID], "security": AUTH,
                "requestBody": _body(_ref("NewRound")),
                "responses": {"201": _answer(201, "the saved round", _ref("Saved"), ROUND_LINKS),
                              **_errors(400, 401, 403, 404, 409, 422, 429)},
            }},
            "/api/games/{game_id}/rounds/{number}": {"put": {
                "operationId": "correctRound", "summary": "Correct a saved round",
                "parameters": [GAME_ID, NUMBER], "security": AUTH,
                "requestBody": _body(_ref("Correction")),
                "responses": {"200": _answer(200, "the corrected round", _ref("Saved"), CORRECTED_LINKS),
                              **_errors(400, 401, 403, 404, 409, 422, 429)},
            }, "delete": {
                "operationId": "undoRound",
                "summary": "Undo round `number`, only while it is the last round",
                "description": "409 when it is already undone or is not the last round; 422 when the match "
                               "is over.",
                "parameters": [GAME_ID, NUMBER], "security": AUTH,
                "responses": {"200": _answer(200, "what was undone", _ref("Undone"), UNDONE_LINKS),
                              **_errors(401, 403, 404, 409, 422, 429)},
            }},
            "/api/games/{game_id}/rounds/last": {"delete": {
                "operationId": "undoLastRound", "summary": "Undo the last round",
                "description": "422 when no round is saved yet or the match is over.",
                "parameters": [GAME_ID], "security": AUTH,
                "responses": {"200": _answer(200, "what was undone", _ref("Undone"), UNDONE_LINKS),
                              **_errors(401, 403, 404, 409, 422, 429)},
            }},
            "/api/games/{game_id}/rematch": {"post": {
                "operationId": "startRematch", "summary": "Play again at the same table once the match is over",
                "description": "The same players, seats and house rules, opened by the next player where the "
                               "rules move the first turn on. 201 with the new game and its edit token; 200 "
                               "with the same game for every later call; 409 while the match is not over.",
                "parameters": [GAME_ID], "security": AUTH,
                "responses": {"201": _answer(201, "the new game and its edit token", _ref("CreatedGame"),
                                             GAME_LINKS),
                              "200": _answer(200, "the rematch already started", _ref("CreatedGame"), GAME_LINKS),
                              **_errors(401, 403, 404, 409, 429)},
            }},
            "/api/rulings/foot": {"post": {
                "operationId": "footRuling", "summary": "Can this foot still be completed, and what now?",
                # The token is optional: with a game and its token the ruling is logged too.
                "security": [{}, {"editToken": []}],
                "requestBody": _body(_ref("RulingRequest")),
                "responses": {"200": _answer(200, "the ruling", _ref("Ruling")),
                              **_errors(400, 403, 404, 422, 429)},
            }},
            "/api/photos/read": {"post": {
                "operationId": "readPhoto", "summary": "Read the face-up tiles in a photo of a table or a hand",
                "description": "422 for a file that is not a readable photo; rate-limited per client (the "
                               "photo limit, 429).",
                "requestBody": {"required": True, "content": {"multipart/form-data": {"schema": {
                    "type": "object", "required": ["photo"],
                    "properties": {"photo": {"type": "string", "format": "binary"}}}}}},
                "responses": {"200": _answer(200, "the tiles read", _ref("PhotoReading")),
                              **_errors(413, 422, 429, 503)},
            }},
        },
    }
