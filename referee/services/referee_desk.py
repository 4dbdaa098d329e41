"""The referee desk's service layer: rulings from the rules core, and a game's log of them.

Every decision comes from `referee.rules.rulings` and the game's house rules; this module only
gathers the inputs, names the rule that was applied, and stores what was said. No Flask
import: the pages, the JSON API and the tests call the same functions.

A logged ruling keeps its sentences twice: as English text (`answer`, `rule`) for anyone
reading the database or the export, and as msgids with their parameters (`data`), so the
game page can show the log again in French or Dutch.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import timezone
from typing import Optional

from sqlmodel import Session, select

from referee.rules.house_rules import HouseRules, OPEN, OPTIONS, describe, keep_back_count, preset, round_double
from referee.rules.rulings import (LEFT_TO_DRAW, FootRuling, boneyard_draw_ruling, chicken_little_ruling, judge_foot,
                                   missing_double_ruling, next_double_ruling, out_on_double_ruling, tie_ruling)
from referee.rules.text import Message, N_, NP_, Plural, RulesError, shown
from referee.rules.tiles import SET_SIZES, Tile, parse_tile, parse_tiles, suit
from referee.rules.values import as_count
from referee.services.games import Conflict, lock, touch
from referee.storage.database import writing
from referee.storage.models import Game, Ruling

FOOT = "foot"

# Every question the desk answers, as the table asks it.
QUESTIONS = {
    FOOT: N_("Can this foot still be completed?"),
    "out-on-double": N_("May I go out on a double, and what does it cost?"),
    "draw": N_("I could not play: must I draw, and must I play the drawn tile?"),
    "missing-double": N_("Nobody holds the round's double: what now?"),
    "chicken-little": N_("Someone forgot to announce their last tile"),
    "next-double": N_("Who lays the next round's double?"),
    "tie": N_("Equal totals at the end of the match"),
}

# The house rule each of the short rulings applies.
QUESTION_RULES = {
    "out-on-double": "out_on_double_penalty",
    "draw": "must_play_drawn",
    "missing-double": "missing_double",
    "chicken-little": "chicken_little",
    "next-double": "opening",
    "tie": "tie",
}

# What a table may decide for a foot that can never be completed, once the rules left it open.
SETTLE_CHOICES = tuple(choice for choice in OPTIONS["impossible_foot"] if choice != OPEN)

_SOURCE_MSGID = "Source: %(source)s."


def question_title(code: str) -> Message:
    return Message(QUESTIONS.get(code, code))


@dataclass
class Answer:
    """One ruling: the sentences to show, the outcome code, and the house rule it applied."""

    question: str
    outcome: str
    parts: list
    rule_name: str
    rule: Message
    rule_words: Message
    foot: Optional[dict] = None
    ruling: Optional[FootRuling] = None
    notes: list = field(default_factory=list)
    inputs: dict = field(default_factory=dict)

    @property
    def explanation(self) -> str:
        """The ruling in English, as stored in the log."""
        return " ".join(str(part) for part in self.parts)

    @property
    def ends_round(self) -> bool:
        """Whether the table stops the round here and counts its hands (rulings.FootRuling)."""
        return bool(self.ruling is not None and self.ruling.ends_round)


def _rule_words(rules: HouseRules, rule_name: str) -> Message:
    return next(words for name, words, _ in describe(rules) if name == rule_name)


# -- the foot --------------------------------------------------------------------------


def judge(rules: HouseRules, double, on_table, toes_laid=0, drawable=0, starting=False, players=None) -> Answer:
    """The core's foot ruling, with the rule it applied named and the recorded foot kept."""
    ruling = judge_foot(rules, double, on_table, toes_laid=toes_laid, drawable=drawable, starting=starting,
                        players=players)
    rule_name = "impossible_foot" if not ruling.completable else "arms" if ruling.starting else "toes"
    foot = {"double": str(ruling.double), "on_table": [str(tile) for tile in parse_tiles(on_table, rules.set)],
            "toes_laid": ruling.toes_laid, "drawable": as_count(drawable, "drawable"),
            "starting": ruling.starting, "players": players}
    return Answer(question=FOOT, outcome=ruling.outcome, parts=list(ruling.parts), rule_name=rule_name,
                  rule=ruling.rule, rule_words=_rule_words(rules, rule_name), foot=foot, ruling=ruling)


def pick_double(rules: HouseRules, value) -> Tile:
    """The tapped double, refused when it is not a double of this set."""
    tile = parse_tile(value, rules.set)
    if not tile.is_double:
        raise RulesError(N_("[%(tile)s] is not a double, so it has no foot."), tile=str(tile))
    return tile


def doubles(rules: HouseRules) -> list:
    """Every double of the set, highest first: the ones a foot can grow on."""
    return [Tile(number, number) for number in range(rules.set, -1, -1)]


def picker(rules: HouseRules, double: Tile) -> list:
    """Every tile carrying the double's number (10 for double-nine), the double first."""
    tiles = suit(double.high, rules.set)
    return [double] + [tile for tile in tiles if tile != double]


ALL_DRAWN = NP_("The boneyard holds %(boneyard)d tile, and it can be drawn.",
                "The boneyard holds %(boneyard)d tiles and every one of them can be drawn.", "boneyard")
LAST_ONE_KEPT = NP_("The boneyard holds %(boneyard)d tile; under these rules the last one is never drawn, so none "
                    "can be drawn.",
                    "The boneyard holds %(boneyard)d tiles; under these rules the last one is never drawn, so "
                    "%(drawable)d can still be drawn.", "boneyard")


def boneyard(rules: HouseRules, players, count) -> tuple:
    """How many of the boneyard's tiles can still be drawn under the keep-back rule, and why."""
    count = as_count(0 if count in (None, "") else count, "boneyard")
    size = SET_SIZES[rules.set]
    if count >= size:
        raise RulesError(N_("A double-%(top)d set has %(size)d tiles, so the boneyard cannot hold %(count)d."),
                         top=rules.set, size=size, count=count)
    keep = min(keep_back_count(rules, players), count)
    drawable = count - keep
    params = {"boneyard": count, "drawable": drawable, "keep": keep}
    if count == 0:
        note = Message(N_("The boneyard is empty: nothing can be drawn."))
    elif keep == 0:
        note = Message(ALL_DRAWN, params)
    elif keep == 1:
        note = Message(LAST_ONE_KEPT, params)
    else:
        note = Message(N_("The boneyard holds %(boneyard)d tiles; under these rules the last two are never "
                          "drawn, so %(drawable)d can still be drawn."), params)
    return drawable, note


def judge_taps(rules: HouseRules, double, laid, toes, boneyard_count, starting=False, players=None) -> Answer:
    """The foot as tapped on the desk's picker.

    `laid` are the tiles seen on the table, `toes` the ones marked as toes (or arms) of this
    foot; a toe is on the table too, and the double itself always is.
    """
    double = pick_double(rules, double)
    laid = parse_tiles(laid, rules.set)
    toes = parse_tiles(toes, rules.set)
    for tile in toes:
        if tile == double:
            raise RulesError(N_("[%(double)s] cannot be a toe of itself."), double=str(double))
        tile.other(double.high)  # refuses a toe that does not carry the double's number
    on_table = list(dict.fromkeys([double, *laid, *toes]))
    drawable, note = boneyard(rules, players, boneyard_count)
    answer = judge(rules, double, on_table, toes_laid=len(set(toes)), drawable=drawable, starting=starting,
                   players=players)
    answer.notes.append(note)
    answer.foot["boneyard"] = as_count(0 if boneyard_count in (None, "") else boneyard_count, "boneyard")
    return answer


# -- the short rulings ---------------------------------------------------------------------


def ask(rules: HouseRules, question: str, players: Optional[list] = None, round_number=None) -> Answer:
    """One of the short rulings: going out on a double, drawing, a missing double,
    chicken little, who lays a round's double, equal totals."""
    if question not in QUESTION_RULES:
        raise RulesError(N_("'%(question)s' is not a question the referee answers."), question=shown(question))
    inputs = {}
    if question == "out-on-double":
        parts = out_on_double_ruling(rules)
        outcome = "costs-%d" % rules.out_on_double_penalty if rules.out_on_double_penalty else "allowed"
    elif question == "draw":
        parts = boneyard_draw_ruling(rules)
        outcome = "must-play" if rules.must_play_drawn else "may-play"
    elif question == "missing-double":
        number = as_count(round_number if round_number is not None else 1, "round")
        parts = missing_double_ruling(rules, len(players or []), number - 1)
        outcome = rules.missing_double
        if outcome == "next-lower" and round_double(rules, number - 1).high == 0:
            outcome = "draw-until-found"  # no lower double than [0-0] (rulings.missing_double_ruling)
        inputs.update(players=len(players or []), round=number)
    elif question == "chicken-little":
        parts = chicken_little_ruling(rules)
        outcome = "draw-%d" % rules.chicken_little if rules.chicken_little else "not-played"
    elif question == "next-double":
        number = as_count(round_number if round_number is not None else 1, "round")
        parts = next_double_ruling(rules, list(players or []), number - 1)
        outcome = str(round_double(rules, number - 1))
        inputs["round"] = number
    else:
        parts = tie_ruling(rules)
        outcome = rules.tie
    rule_name = QUESTION_RULES[question]
    parts = [part for part in parts if part.msgid != _SOURCE_MSGID]
    return Answer(question=question, outcome=outcome, parts=parts, rule_name=rule_name,
                  rule=rules.sources[rule_name], rule_words=_rule_words(rules, rule_name), inputs=inputs)


# -- the table settles an open rule ------------------------------------------------------


def settle_open_rule(db: Session, game: Game, choice) -> HouseRules:
    """Record the table's choice for a foot that can never be completed, for the rest of the match.

    House rules are frozen once play starts; the one exception is a rule the preset left
    open, which the table has to settle the first time it comes up.
    """
    if game.finished:
        raise RulesError(N_("This match is over; its house rules can no longer be changed."))
    current = preset(game.preset, **game.overrides)
    if current.impossible_foot != OPEN:
        raise RulesError(N_("These house rules already say what happens to a foot that can never be completed; "
                            "only an open rule can be settled during the match."))
    if not isinstance(choice, str) or choice not in SETTLE_CHOICES:
        raise RulesError(N_("'%(choice)s' is not a choice for a foot that can never be completed: choose one "
                            "of %(choices)s."), choice=shown(choice), choices=", ".join(SETTLE_CHOICES))
    overrides = {**game.overrides, "impossible_foot": choice}
    rules = preset(game.preset, **overrides)  # the core validates the whole set again
    seen = game.version
    with writing(db):
        game = lock(db, game.id)
        if game.version != seen:
            raise Conflict(Message(N_("Someone changed this game from another phone meanwhile; reload and try "
                                      "again.")))
        game.overrides = overrides
        touch(game)
        db.add(game)
    return rules


# -- the game's log ----------------------------------------------------------------------------


def _dump(value):
    """A Message (and the Messages inside it) as plain JSON."""
    if isinstance(value, Message):
        dumped = {"msgid": str(value.msgid), "params": {key: _dump(item) for key, item in value.params.items()}}
        if isinstance(value.msgid, Plural):
            dumped.update(plural=value.msgid.plural, counted=value.msgid.counted)
        return dumped
    return value


#: Logged messages that have since taken a singular: a ruling logged before stored the
#: plural words alone as its msgid.
_NOW_PLURAL = {msgid.plural: msgid for msgid in (ALL_DRAWN, LAST_ONE_KEPT, LEFT_TO_DRAW)}


def _load(value):
    if isinstance(value, dict) and "msgid" in value:
        msgid = (Plural(value["msgid"], value["plural"], value["counted"]) if "plural" in value
                 else _NOW_PLURAL.get(value["msgid"], value["msgid"]))
        return Message(msgid, {key: _load(item) for key, item in (value.get("params") or {}).items()})
    return value


def record(db: Session, game: Game, answer: Answer, round_number: Optional[int] = None) -> Ruling:
    """Save a ruling in the game's log.

    The game's version moves on too: the game page's round card tells of a ruling that ended
    the round, and every phone showing it picks that up with its next poll.
    """
    # "titled": the rule's words are the ones that follow its name (house_rules._WORDS), so the
    # log puts the name before them; rulings logged before had the name inside their words.
    data = {"parts": [_dump(part) for part in answer.parts], "notes": [_dump(note) for note in answer.notes],
            "rule": _dump(answer.rule), "rule_name": answer.rule_name, "rule_words": _dump(answer.rule_words),
            "inputs": answer.inputs, "titled": True, "ends_round": answer.ends_round}
    if answer.ruling is not None:
        data["result"] = {"completable": answer.ruling.completable, "toes_missing": answer.ruling.toes_missing,
                          "unseen": [str(tile) for tile in answer.ruling.unseen]}
    game_id = game.id
    with writing(db):
        locked = lock(db, game_id)
        row = Ruling(game_id=game_id, round_number=round_number, question=answer.question, foot=answer.foot,
                     outcome=answer.outcome, answer=answer.explanation, rule=str(answer.rule), data=data)
        db.add(row)
        touch(locked)
        db.add(locked)
    return row


@dataclass
class LogEntry:
    """A logged ruling, its sentences rebuilt as Messages so they can be shown translated."""

    id: int
    at: object
    round: Optional[int]
    question: str
    foot: Optional[dict]
    outcome: str
    answer: str
    rule: str
    parts: list
    notes: list
    rule_message: Optional[Message]
    rule_words: Optional[Message]
    result: dict
    #: The rule whose name goes before `rule_words` (None where the words hold the name).
    rule_name: Optional[str] = None
    inputs: dict = field(default_factory=dict)
    ends_round: bool = False

    @property
    def title(self) -> Message:
        return question_title(self.question)

    @property
    def double(self) -> Optional[Tile]:
        return Tile(*map(int, self.foot["double"].split("-"))) if self.foot else None

    @property
    def carrying(self) -> list:
        """The recorded tiles carrying the double's number, the double first."""
        if not self.foot:
            return []
        double = self.double
        tiles = [Tile(*map(int, text.split("-"))) for text in self.foot.get("on_table", [])]
        return [double] + [tile for tile in tiles if tile.has(double.high) and tile != double]

    @property
    def unseen(self) -> list:
        return [Tile(*map(int, text.split("-"))) for text in self.result.get("unseen", [])]


def _aware(moment):
    """SQLite hands datetimes back without their zone; they were written in UTC."""
    return moment.replace(tzinfo=timezone.utc) if moment is not None and moment.tzinfo is None else moment


def log(db: Session, game_id: str) -> list:
    """A game's rulings, oldest first."""
    rows = db.exec(select(Ruling).where(Ruling.game_id == game_id).order_by(Ruling.at, Ruling.id)).all()
    entries = []
    for row in rows:
        data = row.data or {}
        entries.append(LogEntry(
            id=row.id, at=_aware(row.at), round=row.round_number, question=row.question, foot=row.foot,
            outcome=row.outcome, answer=row.answer, rule=row.rule,
            parts=[_load(part) for part in data.get("parts", [])],
            notes=[_load(note) for note in data.get("notes", [])],
            rule_message=_load(data["rule"]) if "rule" in data else None,
            rule_words=_load(data["rule_words"]) if "rule_words" in data else None,
            result=data.get("result", {}), rule_name=data.get("rule_name") if data.get("titled") else None,
            inputs=data.get("inputs") or {}, ends_round=bool(data.get("ends_round", row.outcome == "round-ends"))))
    return entries


def is_logged(entries: list, answer: Answer, round_number: Optional[int]) -> bool:
    """Whether the game's log already holds this decision: the same question in the same
    round, on the same foot or inputs, with the same outcome. The desk's log button then
    says so rather than logging it twice."""
    return any(entry.question == answer.question and entry.round == round_number
               and entry.outcome == answer.outcome and (entry.foot or None) == (answer.foot or None)
               and entry.inputs == (answer.inputs or {}) for entry in entries)


def round_ending(entries: list, number: Optional[int]) -> Optional[LogEntry]:
    """The last logged ruling that ended round `number`, for the game page's round card."""
    if number is None:
        return None
    return next((entry for entry in reversed(entries) if entry.round == number and entry.ends_round), None)


def log_json(db: Session, game_id: str) -> list:
    """A game's rulings for its JSON export: time, round, question, the recorded foot, the
    answer and the rule applied, in English, oldest first."""
    return [{"at": entry.at.isoformat(), "round": entry.round, "question": entry.question, "foot": entry.foot,
             "outcome": entry.outcome, "answer": entry.answer, "rule": entry.rule}
            for entry in log(db, game_id)]
