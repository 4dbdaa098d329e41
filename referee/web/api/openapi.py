"""The OpenAPI 3.1 description of the JSON API, served at /api/openapi.json.

Written by hand to say exactly what the API promises, in both directions: every request the
API can accept is valid here, what is invalid here is refused with a 4xx, and every status
code and header an operation answers is listed. Where a rule cannot be written in JSON Schema
(a hand must name the game's players; a preset's player range; case-insensitive duplicate
names) it is said in words, and the API answers 422. The test suite runs schemathesis, all
of its checks, against the live app with this document (tests/reliability/test_schemathesis.py).

Where the API reads a value leniently, as the HTML forms send it ("12" for 12, "yes" for
true, "Highest Draw" for "highest-draw"), the schema says so too: the patterns below are
built from the same rules the reading code follows (`referee.rules.values`,
`house_rules._coerce`, `referee.rules.tiles`).
"""

from referee.rules import draw_game, house_rules, team_game
from referee.services.games import MAX_NAME, MAX_PLAYERS, MIN_PLAYERS
from referee.services.kinds import KINDS

# -- patterns for values as people type them ------------------------------------------------

#: Besides A-Z, the one character whose lowercase is an ASCII letter: the Kelvin sign (k).
_ALSO_LOWER = {"k": "\u212a"}


def _nocase(word: str, ascii_only: bool = False) -> str:
    """A pattern matching `word` in any case, as `str.lower()` compares (or, `ascii_only`, as a
    regex with re.IGNORECASE | re.ASCII does)."""
    out = []
    for ch in word:
        if ch.isascii() and ch.isalpha():
            also = "" if ascii_only else _ALSO_LOWER.get(ch.lower(), "")
            out.append(f"[{ch.upper()}{ch.lower()}{also}]")
        else:
            out.append("\\" + ch if ch in "-.+|/[]()" else ch)
    return "".join(out)


#: Whitespace as Python's `str.strip()` and `str.split()` see it: `\\s` of JSON Schema's regexes
#: leaves out the information separators U+001C to U+001F, which Python counts as spaces.
WS = "[\\s\\x1c-\\x1f]"


def _trimmed(alternatives) -> str:
    """Any of the alternatives, with spaces allowed around it (the reading code strips them)."""
    return f"^{WS}*(?:" + "|".join(alternatives) + f"){WS}*$"


def _number_text(value: int) -> str:
    """`value` written as text that `values.as_int` reads: an optional sign, up to 9 digits."""
    if value == 0:
        return "[+-]?0{1,9}"
    digits = str(value)
    return f"\\+?0{{0,{9 - len(digits)}}}{digits}"


#: Any whole number above 0 as text that `values.as_int` reads (at most 9 digits in all).
POSITIVE_TEXT = "\\+?(?:" + "|".join(f"0{{0,{9 - k}}}[1-9][0-9]{{{k - 1}}}" for k in range(1, 10)) + ")"


def _ints(choices) -> dict:
    """One of these whole numbers, as a JSON number or as text."""
    return {"anyOf": [{"enum": list(choices)},
                      {"type": "string", "pattern": _trimmed(_number_text(c) for c in choices)}]}


def _words(choices, separators: bool = True) -> dict:
    """One of these words, in any case, with spaces around it. With `separators` (as
    `house_rules._coerce` reads them) spaces or underscores may stand for each hyphen."""
    def one(choice: str) -> str:
        parts = [_nocase(part) for part in choice.split("-")]
        return (f"(?:-|(?:{WS}|_)+)" if separators else "-").join(parts)
    return {"type": "string", "pattern": _trimmed(one(c) for c in choices), "examples": list(choices)}


def _described(schema: dict, text: str) -> dict:
    return {**schema, "description": text}


YES, NO = ("true", "yes", "on", "1"), ("false", "no", "off", "0")
FLAG = {"anyOf": [{"type": "boolean"}, {"enum": [0, 1]},
                  {"type": "string", "pattern": _trimmed(_nocase(w) for w in YES + NO)}],
        "description": "true or false; also 0 or 1, or as a form sends it: \"yes\", \"no\", \"on\", \"off\""}
WHOLE_TEXT = "[+-]?[0-9]{1,9}"
WHOLE = {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": _trimmed([WHOLE_TEXT])}],
         "description": "a whole number, or the same number as text"}
POSITIVE = {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": _trimmed([POSITIVE_TEXT])}],
            "description": "a whole number above 0, or the same number as text"}
NO_TARGET = ["", _nocase("none")]

#: A tile as `referee.rules.tiles.parse_tile` reads it: two numbers (or "blank") apart, in
#: brackets or not, spaces around it stripped. Inside, only ASCII spaces count (its regex is
#: ASCII). Whether the numbers belong to the game's set is for the API to say (422).
_END = "([0-9]+|" + _nocase("blank", ascii_only=True) + ")"
_ASCII_SPACE = "[\\t-\\r ]"
TILE_PATTERN = (f"^{WS}*\\[?{_ASCII_SPACE}*{_END}{_ASCII_SPACE}*(?:[-\u2013|/]|{_ASCII_SPACE})"
                f"{_ASCII_SPACE}*{_END}{_ASCII_SPACE}*\\]?{WS}*$")
TILE = {"type": "string", "pattern": TILE_PATTERN, "examples": ["3-4", "[9-9]", "blank-2"]}

#: Characters a name can never hold (`games.clean_name`), whitespace aside (runs of it become
#: one space): control characters, those that reorder the text around them, private use (the
#: planes 15 and 16 of private use are refused too, but listing them here makes generating
#: names from this schema many times slower).
_REFUSED = ("\\x00-\\x08\\x0e-\\x1b\\x7f-\\x84\\x86-\\x9f"
            "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ue000-\uf8ff")
NAME = {"type": "string", "minLength": 1, "maxLength": MAX_NAME,
        "allOf": [{"pattern": f"^[^{_REFUSED}]*$"}, {"pattern": "[^\\s\\x1c-\\x1f]"}],
        "description": "a player's name as it shows on the scoreboard: not only spaces; spaces at either end "
                       "are trimmed and runs of spaces become one; no control or direction characters, no "
                       "private-use code points, none this server's Unicode does not know yet (422)"}

# -- house rules --------------------------------------------------------------------------------

_OPTIONS = house_rules.OPTIONS
CHICKEN_FOOT_PRESET = _described(_words(house_rules.PRESETS, separators=False),
                                 "a preset named in docs/rules.md (any case)")
_PAIR = f"{WHOLE_TEXT}:{WHOLE_TEXT}"
_DEAL_SEPARATOR = f"(?:[,;]|{WS})"
DEAL_TABLE = {
    "description": "tiles each player gets, by number of players: {\"2\": 15, \"3\": 13}, [[2, 15], [3, 13]] "
                   "or \"2:15, 3:13\"; it must suit the set and the players (422)",
    "anyOf": [
        {"type": "object", "minProperties": 1, "propertyNames": {"pattern": _trimmed([WHOLE_TEXT])},
         "additionalProperties": WHOLE},
        {"type": "array", "minItems": 1, "items": {"anyOf": [
            {"type": "array", "minItems": 2, "maxItems": 2, "items": WHOLE},
            # Each pair is read as any two things: two digits of text, or an object's two keys, are too.
            {"type": "string", "pattern": "^[0-9]{2}$"},
            {"type": "object", "minProperties": 2, "maxProperties": 2,
             "propertyNames": {"pattern": _trimmed([WHOLE_TEXT])}}]}},
        {"type": "string",
         "pattern": f"^{_DEAL_SEPARATOR}*{_PAIR}(?:{_DEAL_SEPARATOR}+{_PAIR})*{_DEAL_SEPARATOR}*$"},
    ],
}
CHICKEN_FOOT_OPTIONS = {
    "preset": CHICKEN_FOOT_PRESET,
    "set": _ints(_OPTIONS["set"]),
    "deal_table": DEAL_TABLE,
    "opening": _words(_OPTIONS["opening"]),
    "missing_double": _words(_OPTIONS["missing_double"]),
    "arms": {"anyOf": [_ints([a for a in _OPTIONS["arms"] if isinstance(a, int)]),
                       _words(["per-player"], separators=False)]},
    "toes": _ints(_OPTIONS["toes"]),
    "must_play_drawn": FLAG,
    "keep_back": _words(_OPTIONS["keep_back"]),
    "impossible_foot": _words(_OPTIONS["impossible_foot"]),
    "double_blank": _described(_ints(_OPTIONS["double_blank"]), "what a [0-0] left in hand counts"),
    "out_on_double_penalty": _ints(_OPTIONS["out_on_double_penalty"]),
    "chicken_little": _ints(_OPTIONS["chicken_little"]),
    "match_length": _words(_OPTIONS["match_length"]),
    "target": {"anyOf": [{"type": "null"}, {"type": "string", "pattern": _trimmed(NO_TARGET)}, POSITIVE],
               "description": "the agreed total, with match_length \"target\" only (422 otherwise)"},
    "round_start": _words(_OPTIONS["round_start"]),
    "target_ends": _words(_OPTIONS["target_ends"]),
    "tie": _words(_OPTIONS["tie"]),
    "players_min": WHOLE,
    "players_max": WHOLE,
}
assert set(CHICKEN_FOOT_OPTIONS) == {"preset", *house_rules.RULE_FIELDS}
_NO_TARGET = {"anyOf": [{"type": "null"}, {"type": "string", "pattern": _trimmed(NO_TARGET)}]}
_PLAYED_TO_A_TOTAL = {"required": ["match_length"], "properties": {"match_length": _words(["target"])}}
#: An agreed total, and the match length that plays to one, go together (422 otherwise).
TARGET_NEEDS_ITS_LENGTH = [
    {"if": {"required": ["target"], "properties": {"target": {"not": _NO_TARGET}}}, "then": _PLAYED_TO_A_TOTAL},
    {"if": _PLAYED_TO_A_TOTAL, "then": {"required": ["target"], "properties": {"target": POSITIVE}}},
]
CHICKEN_FOOT_RULES = {
    "description": "Chicken Foot: a preset's name, or {\"preset\": name, ...changes}; a combination no table "
                   "could play (more arms than the set allows, an opening and a missing double that "
                   "contradict, a player count the deal cannot serve) is refused with 422",
    "anyOf": [CHICKEN_FOOT_PRESET,
              {"type": "object", "additionalProperties": False, "properties": CHICKEN_FOOT_OPTIONS,
               "allOf": TARGET_NEEDS_ITS_LENGTH}],
}
TEAM_RULES = {
    "type": "object", "additionalProperties": False,
    "description": "team dominoes' options; players: 4 (two teams of two), or 2 with one_v_one",
    "properties": {
        "set": _ints(team_game.TEAM_OPTIONS["set"]),
        "target": {"anyOf": [POSITIVE, _words(team_game.TARGETS, separators=False)],
                   "description": "points that win the match, or classic (100), short (50), long (200)"},
        "score_losers_only": FLAG,
        "blocked_to_blocker": FLAG,
        "capicu_bonus": {"anyOf": [_ints(team_game.TEAM_OPTIONS["capicu_bonus"]),
                                   _words(["off", "none", "no"], separators=False)]},
        "one_v_one": FLAG,
    },
}
assert set(TEAM_RULES["properties"]) == set(team_game.TEAM_FIELDS)
DRAW_RULES = {
    "type": "object", "additionalProperties": False,
    "description": "the draw game's options; players: 2 to 4",
    "properties": {
        "set": _ints(draw_game.DRAW_OPTIONS["set"]),
        "target": {"anyOf": [{"type": "null"}, {"type": "string", "pattern": _trimmed(NO_TARGET + [_nocase("one-hand")])},
                             POSITIVE],
                   "description": "points that win the game; null, \"none\" or \"one-hand\": one hand decides"},
    },
}
assert set(DRAW_RULES["properties"]) == set(draw_game.DRAW_OPTIONS)

# -- requests -------------------------------------------------------------------------------------

PLAYERS = {"type": "array", "items": {"$ref": "#/components/schemas/Name"}, "minItems": MIN_PLAYERS,
           "maxItems": MAX_PLAYERS, "uniqueItems": True,
           "description": "the players in seat order; no name twice, whatever its case (422); the house rules "
                          "may take fewer players (422)"}


def _new_game(kind: str, rules: dict, required_kind: bool, players: dict = PLAYERS, **more) -> dict:
    return {"type": "object", "required": ["players", "game"] if required_kind else ["players"],
            "properties": {"players": players, "game": {"const": kind},
                           "rules": {"anyOf": [{"type": "null"}, rules]}}, **more}


TRUE = {"anyOf": [{"const": True}, {"const": 1}, {"type": "string", "pattern": _trimmed(_nocase(w) for w in YES)}]}
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
                   "description": "the round the phone was showing: another is refused (409)"},
        "entry_key": {"type": ["string", "null"], "minLength": 1, "maxLength": 64,
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
    "on_table": {"type": "array", "items": {"$ref": "#/components/schemas/Tile"},
                 "description": "every tile on the table, the double included; at most the set's tiles (422)"},
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
    "rules": {"type": "object", "description": "the rules as they were given, in the request's shape"},
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
    "Content-Security-Policy": "what the browser may load",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
}
HEADERS = {
    **{name: {"description": text, "required": True, "schema": {"type": "string", "minLength": 1}}
       for name, text in SECURITY_HEADERS.items()},
    "WWW-Authenticate": {"description": "how to authenticate: Bearer", "required": True,
                         "schema": {"type": "string", "pattern": "^Bearer( |$)"}},
    "Retry-After": {"description": "seconds to wait before trying again", "required": True,
                    "schema": {"type": "integer", "minimum": 1}},
    "Allow": {"description": "the methods this path takes", "required": True,
              "schema": {"type": "string", "minLength": 1}},
}
_EXTRA_HEADERS = {401: ["WWW-Authenticate"], 405: ["Allow"], 429: ["Retry-After"]}

ERRORS = {
    400: "the body is not JSON this API can read: not JSON at all, larger than 64 KB or nested deeper than "
         "16 levels",
    401: "no credentials: send the game's edit token as 'Authorization: Bearer <token>'",
    403: "a wrong edit token",
    404: "no such game (or round)",
    405: "the path does not take this method; Allow lists those it does",
    409: "the game changed meanwhile; the answer holds the game as it is now",
    422: "well-formed JSON with values the API cannot take; the error says which and why",
    429: "too many wrong edit tokens from this client for this game: wait a minute (Retry-After)",
}


def _headers(code: int) -> dict:
    names = [*SECURITY_HEADERS, *_EXTRA_HEADERS.get(code, [])]
    return {name: {"$ref": f"#/components/headers/{name}"} for name in names}


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
NUMBER = {"name": "number", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1},
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
}
ROUND_LINKS = {
    "GetGame": {"operationId": "getGame", "parameters": {"game_id": "$request.path.game_id"}},
    "CorrectRound": {"operationId": "correctRound",
                     "parameters": {"game_id": "$request.path.game_id", "number": "$response.body#/round"},
                     "requestBody": {"version": "$response.body#/version"}},
    "UndoRound": {"operationId": "undoRound",
                  "parameters": {"game_id": "$request.path.game_id", "number": "$response.body#/round"}},
    "RecordRound": {"operationId": "recordRound", "parameters": {"game_id": "$request.path.game_id"}},
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
                                "WWW-Authenticate), with a wrong one 403, and after ten wrong ones in a minute "
                                "429 (with Retry-After). Errors are {\"error\": \"...\"} in the caller's "
                                "language; nothing is written unless the whole request is valid. A method a "
                                "path does not take is answered 405 with Allow; OPTIONS answers 204 with "
                                "Allow."},
        "components": {
            "securitySchemes": {"editToken": {"type": "http", "scheme": "bearer",
                                              "description": "the edit_token POST /api/games answered"}},
            "headers": HEADERS,
            "schemas": {
                "Error": ERROR, "Tile": TILE, "Name": NAME, "Hand": HAND,
                "ChickenFootRules": CHICKEN_FOOT_RULES, "TeamRules": TEAM_RULES, "DrawRules": DRAW_RULES,
                "NewGame": NEW_GAME, "NewRound": NEW_ROUND, "Correction": CORRECTION,
                "RulingRequest": RULING_REQUEST, "Game": GAME, "CreatedGame": CREATED, "Saved": SAVED,
                "Conflict": CONFLICT, "Undone": UNDONE, "Ruling": RULING,
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
            "/api/rulings/foot": {"post": {
                "operationId": "footRuling", "summary": "Can this foot still be completed, and what now?",
                # The token is optional: with a game and its token the ruling is logged too.
                "security": [{}, {"editToken": []}],
                "requestBody": _body(_ref("RulingRequest")),
                "responses": {"200": _answer(200, "the ruling", _ref("Ruling")),
                              **_errors(400, 403, 404, 422, 429)},
            }},
        },
    }
