"""JSON Schemas of the values the API reads as people type them, and of each game's house
rules: the building blocks of the OpenAPI document (`openapi.py`).

The patterns are built from the same rules the reading code follows (`referee.rules.values`,
`house_rules._coerce`, `referee.rules.tiles`), so what the API accepts and what the document
allows stay one thing.
"""

from referee.rules import draw_game, house_rules, team_game
from referee.services.games import MAX_NAME

# -- patterns for values as people type them ------------------------------------------------

#: Besides A-Z, the one character whose lowercase is an ASCII letter: the Kelvin sign (k).
_ALSO_LOWER = {"k": "\u212a"}


def nocase(word: str, ascii_only: bool = False) -> str:
    """A pattern matching `word` in any case, as `str.lower()` compares (or, `ascii_only`, as a
    regex with re.IGNORECASE | re.ASCII does)."""
    out = []
    for ch in word:
        if ch.isascii() and ch.isalpha():
            also = "" if ascii_only else _ALSO_LOWER.get(ch.lower(), "")
            out.append(f"[{ch.upper()}{ch.lower()}{also}]")
        else:
            out.append("\\" + ch if ch in "\\^$.|?*+()[]{}" else ch)
    return "".join(out)


#: Whitespace as Python's `str.strip()` and `str.split()` see it: the \s of JSON Schema's regexes
#: leaves out the information separators U+001C to U+001F, which Python counts as spaces.
WS = "[\\s\\x1c-\\x1f]"


def trimmed(alternatives) -> str:
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
                      {"type": "string", "pattern": trimmed(_number_text(c) for c in choices)}]}


def _words(choices, separators: bool = True) -> dict:
    """One of these words, in any case, with spaces around it. With `separators` (as
    `house_rules._coerce` reads them) spaces or underscores may stand for each hyphen."""
    def one(choice: str) -> str:
        parts = [nocase(part) for part in choice.split("-")]
        return (f"(?:-|(?:{WS}|_)+)" if separators else "-").join(parts)
    return {"type": "string", "pattern": trimmed(one(c) for c in choices), "examples": list(choices)}


def _described(schema: dict, text: str) -> dict:
    return {**schema, "description": text}


YES, NO = ("true", "yes", "on", "1"), ("false", "no", "off", "0")
FLAG = {"anyOf": [{"type": "boolean"}, {"enum": [0, 1]},
                  {"type": "string", "pattern": trimmed(nocase(w) for w in YES + NO)}],
        "description": "true or false; also 0 or 1, or as a form sends it: \"yes\", \"no\", \"on\", \"off\""}
WHOLE_TEXT = "[+-]?[0-9]{1,9}"
WHOLE = {"anyOf": [{"type": "integer"}, {"type": "string", "pattern": trimmed([WHOLE_TEXT])}],
         "description": "a whole number, or the same number as text"}
POSITIVE = {"anyOf": [{"type": "integer", "minimum": 1}, {"type": "string", "pattern": trimmed([POSITIVE_TEXT])}],
            "description": "a whole number above 0, or the same number as text"}
NO_TARGET = ["", nocase("none")]

#: A tile as `referee.rules.tiles.parse_tile` reads it: two numbers (or "blank") apart, in
#: brackets or not, spaces around it stripped. Inside, only ASCII spaces count (its regex is
#: ASCII). Whether the numbers belong to the game's set is for the API to say (422).
_END = "([0-9]+|" + nocase("blank", ascii_only=True) + ")"
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
        {"type": "object", "minProperties": 1, "propertyNames": {"pattern": trimmed([WHOLE_TEXT])},
         "additionalProperties": WHOLE},
        {"type": "array", "minItems": 1, "items": {"anyOf": [
            {"type": "array", "minItems": 2, "maxItems": 2, "items": WHOLE},
            # Each pair is read as any two things: two digits of text, or an object's two keys, are too.
            {"type": "string", "pattern": "^[0-9]{2}$"},
            {"type": "object", "minProperties": 2, "maxProperties": 2,
             "propertyNames": {"pattern": trimmed([WHOLE_TEXT])}}]}},
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
    "target": {"anyOf": [{"type": "null"}, {"type": "string", "pattern": trimmed(NO_TARGET)}, POSITIVE],
               "description": "the agreed total, with match_length \"target\" only (422 otherwise)"},
    "round_start": _words(_OPTIONS["round_start"]),
    "target_ends": _words(_OPTIONS["target_ends"]),
    "tie": _words(_OPTIONS["tie"]),
    "players_min": WHOLE,
    "players_max": WHOLE,
}
assert set(CHICKEN_FOOT_OPTIONS) == {"preset", *house_rules.RULE_FIELDS}
_NO_TARGET = {"anyOf": [{"type": "null"}, {"type": "string", "pattern": trimmed(NO_TARGET)}]}
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
        "target": {"anyOf": [{"type": "null"},
                             {"type": "string", "pattern": trimmed(NO_TARGET + [nocase("one-hand")])}, POSITIVE],
                   "description": "points that win the game; null, \"none\" or \"one-hand\": one hand decides"},
    },
}
assert set(DRAW_RULES["properties"]) == set(draw_game.DRAW_OPTIONS)
