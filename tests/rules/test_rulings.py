"""Foot rulings: docs/rules.md's [1-1] count and every impossible-foot policy."""

import pytest

from referee.rules.house_rules import OPEN, PRESETS, preset
from referee.rules.rulings import (FootRuling, boneyard_draw_ruling, chicken_little_ruling, judge_foot,
                                   missing_double_ruling, next_double_ruling, out_on_double_ruling, tie_ruling)
from referee.rules.text import Message, RulesError
from referee.rules.tiles import Tile, suit

# [1-1] laid late: the double, the tile it was laid against ([1-9]) and five more ones elsewhere.
SEVEN_ONES = ["1-1", "9-1", "1-2", "1-3", "1-4", "1-6", "1-7"]
EIGHT_ONES = SEVEN_ONES + ["1-0"]
ELSEWHERE = ["9-9", "9-5", "5-5", "2-3"]


def test_seven_ones_on_the_table_leave_exactly_enough_toes():
    ruling = judge_foot(PRESETS["pagat"], double="1-1", on_table=SEVEN_ONES + ELSEWHERE)
    assert isinstance(ruling, FootRuling)
    assert ruling.completable is True and ruling.outcome == "completable"
    assert ruling.needed == 3 and ruling.toes_missing == 3
    assert ruling.unseen == [Tile(8, 1), Tile(5, 1), Tile(1, 0)]
    assert "A double-9 set has 10 tiles carrying 1" in ruling.explanation
    assert "On the table: 7 of them, [1-1] included." in ruling.explanation
    assert "Not on the table yet: 3 ([8-1], [5-1], [1-0])." in ruling.explanation
    assert "The foot can still be completed." in ruling.explanation
    assert all(isinstance(part, Message) for part in ruling.parts)
    assert ruling.explanation == " ".join(str(part) for part in ruling.parts)


def test_eight_ones_leave_two_and_the_foot_can_never_be_completed():
    ruling = judge_foot(PRESETS["kelley"], "1-1", EIGHT_ONES, drawable=12)
    assert ruling.completable is False
    assert len(ruling.unseen) == 2 and ruling.toes_missing == 3
    assert "Tiles that can still be laid on it: 2; missing: 3. This foot can never be completed." \
        in ruling.explanation


def test_toes_already_laid_reduce_what_is_missing():
    # Eight ones on the table, two of them toes on [1-1]: one toe missing, two ones unseen.
    ruling = judge_foot(PRESETS["pagat"], "1-1", EIGHT_ONES, toes_laid=2)
    assert ruling.toes_missing == 1 and ruling.completable
    done = judge_foot(PRESETS["pagat"], "1-1", EIGHT_ONES, toes_laid=3)
    assert done.toes_missing == 0 and done.completable
    assert "No toe is missing" in done.explanation


@pytest.mark.parametrize("drawable", [0, 5, 30])
def test_kelley_plays_on_whatever_the_boneyard_holds(drawable):
    ruling = judge_foot(PRESETS["kelley"], "1-1", EIGHT_ONES, drawable=drawable)
    assert ruling.outcome == "play-on"
    assert "the round ends when nobody can move" in ruling.explanation
    assert ("draws one tile while the boneyard lasts (%d left)" % drawable in ruling.explanation) == bool(drawable)
    assert "Kelley" in str(ruling.rule)


def test_play_on_with_every_tile_of_the_number_laid_and_nothing_to_draw_ends_the_round():
    all_ones = [str(t) for t in suit(1, 9)]
    ruling = judge_foot(PRESETS["gamerules"], "1-1", all_ones, toes_laid=0)
    assert ruling.outcome == "play-on" and ruling.unseen == []
    assert "Every tile carrying 1 is on the table." in ruling.explanation
    assert "nobody can move, so the round ends now" in ruling.explanation


@pytest.mark.parametrize("policy, words", [
    ("round-ends", "the round ends now"),
    ("released", "the foot is released: play resumes on every open end"),
    (OPEN, "The table must choose"),
])
def test_each_policy_for_an_impossible_foot(policy, words):
    ruling = judge_foot(preset("kelley", impossible_foot=policy), "1-1", EIGHT_ONES)
    assert ruling.outcome == policy and not ruling.completable
    assert words in ruling.explanation


@pytest.mark.parametrize("name", ["pagat", "pagat-reduced"])
def test_presets_silent_on_impossible_feet_leave_it_to_the_table(name):
    ruling = judge_foot(PRESETS[name], "1-1", EIGHT_ONES)
    assert ruling.outcome == "table-decides"
    assert "do not say what happens now" in ruling.explanation


def test_a_completable_foot_ignores_the_policy():
    for name in PRESETS:
        assert judge_foot(PRESETS[name], "1-1", SEVEN_ONES).outcome == "completable"


def test_starting_double_needs_its_arms():
    # Pagat: four arms, so the starting double uses five of the ten nines.
    fresh = judge_foot(PRESETS["pagat"], "9-9", ["9-9"], starting=True, drawable=11)
    assert fresh.needed == 4 and fresh.toes_missing == 4 and len(fresh.unseen) == 9 and fresh.completable
    assert "The starting double [9-9] needs 4 arms: 0 laid, 4 missing." in fresh.explanation
    hub = judge_foot(PRESETS["hub8"], "9-9", ["9-9"] + [f"9-{n}" for n in range(2)], toes_laid=2, starting=True)
    assert hub.needed == 8 and hub.toes_missing == 6 and len(hub.unseen) == 7
    feet = judge_foot(PRESETS["double-foot"], "9-9", ["9-9"], starting=True)
    assert feet.needed == 6
    per_player = judge_foot(PRESETS["gamerules"], "9-9", ["9-9"], starting=True, players=5)
    assert per_player.needed == 5


def test_starting_double_that_cannot_get_its_arms():
    # Eight arms wanted, but five nines are already elsewhere on the table.
    table = ["9-9", "9-0", "9-1", "9-2", "9-3", "9-4"]
    ruling = judge_foot(PRESETS["hub8"], "9-9", table, toes_laid=2, starting=True)
    assert len(ruling.unseen) == 4 and ruling.toes_missing == 6 and not ruling.completable


def test_per_player_arms_need_the_player_count():
    with pytest.raises(RulesError, match="Say how many players there are"):
        judge_foot(PRESETS["gamerules"], "9-9", ["9-9"], starting=True)
    with pytest.raises(RulesError, match="at most 8 players, not 9"):
        judge_foot(PRESETS["gamerules"], "9-9", ["9-9"], starting=True, players=9)


def test_tiles_may_be_given_as_tiles_or_one_line():
    as_tiles = judge_foot(PRESETS["pagat"], Tile(1, 1), [Tile(1, 1), Tile(9, 1)])
    as_line = judge_foot(PRESETS["pagat"], "[1-1]", "1-1, 1-9")
    assert as_tiles == as_line and len(as_line.unseen) == 8


@pytest.mark.parametrize("kwargs, words", [
    (dict(double="1-1", on_table=["1-1", "1-9", "1-9"]), "[9-1] is listed twice on the table"),
    (dict(double="1-1", on_table=["1-1", "1-10"]), "'1-10' is not a tile of a double-9 set"),
    (dict(double="1-1", on_table=["1-9", "1-2"]), "[1-1] itself must be among the tiles on the table"),
    (dict(double="1-1", on_table=["1-1", "1-9"], toes_laid=1), "too few for [1-1], what it was laid against"),
    (dict(double="1-1", on_table=["1-1"]), "too few for [1-1]"),
    (dict(double="1-1", on_table=EIGHT_ONES, toes_laid=4), "[1-1] takes 3 tiles, not 4"),
    (dict(double="1-1", on_table=EIGHT_ONES, toes_laid=-1), "toes_laid cannot be negative"),
    (dict(double="1-1", on_table=EIGHT_ONES, drawable=-2), "drawable cannot be negative"),
    (dict(double="1-1", on_table=EIGHT_ONES, drawable=48), "48 tiles to draw is more than the 47"),
    (dict(double="1-2", on_table=["1-2"]), "[2-1] is not a double"),
    (dict(double="x", on_table=[]), "'x' is not a tile"),
    (dict(double="1-1", on_table=EIGHT_ONES, toes_laid="two"), "'two' is not a whole number"),
])
def test_contradictions_are_refused(kwargs, words):
    with pytest.raises(RulesError) as caught:
        judge_foot(PRESETS["kelley"], **kwargs)
    assert words in str(caught.value)


def test_bigger_sets_count_their_own_suit():
    ruling = judge_foot(preset("pagat", set=12), "11-11", ["11-11", "11-12"])
    assert len(ruling.unseen) == 11
    assert "A double-12 set has 13 tiles carrying 11" in ruling.explanation


# -- the small rulings ------------------------------------------------------------------


def words(messages):
    assert all(isinstance(message, Message) for message in messages)
    return " ".join(str(message) for message in messages)


def test_out_on_double_ruling():
    assert "scores 50 for the round instead of 0" in words(out_on_double_ruling(PRESETS["kelley"]))
    assert "Going out on a double is allowed" in words(out_on_double_ruling(PRESETS["pagat"]))
    hub = words(out_on_double_ruling(PRESETS["hub8"]))
    assert "Going out on a double is allowed" in hub and "8-arm hub set: not addressed" in hub


def test_draw_ruling():
    assert "it must be played" in words(boneyard_draw_ruling(PRESETS["gamerules"]))
    assert "last two boneyard tiles are never drawn" in words(boneyard_draw_ruling(PRESETS["gamerules"]))
    assert "it may be played" in words(boneyard_draw_ruling(PRESETS["pagat"]))
    assert "draws one tile, not until one fits" in words(boneyard_draw_ruling(PRESETS["kelley"]))


def test_missing_double_ruling_gives_the_chance():
    assert "the round's double is among them 20.0 % of the time" in words(missing_double_ruling(PRESETS["pagat"], 4))
    assert "56.4 %" in words(missing_double_ruling(PRESETS["pagat-reduced"], 2))
    assert "next lower double" in words(missing_double_ruling(preset("pagat", missing_double="next-lower"), 4))
    assert "can never be missing" in words(missing_double_ruling(PRESETS["double-foot"], 4))
    assert "turning tiles up" in words(missing_double_ruling(PRESETS["gamerules"], 4))


def test_chicken_little_ruling():
    assert "is not played" in words(chicken_little_ruling(PRESETS["pagat"]))
    caught = words(chicken_little_ruling(preset("pagat", chicken_little=1)))
    assert "draws 1 from the boneyard, or misses a turn" in caught


def test_next_double_ruling():
    text = words(next_double_ruling(PRESETS["double-foot"], ["Ann", "Bob"], 9))
    assert "Round 10 of 10 is played on [0-0]." in text and "Bob plays first" in text
    target = words(next_double_ruling(preset("pagat", match_length="target", target=150), ["A", "B"], 10))
    assert "Round 11 is played on [9-9]; the match goes on until someone reaches 150 points." in target
    over = words(next_double_ruling(preset("double-foot", match_length="target", target=150), ["A", "B"], 10))
    assert "the match goes on until someone passes 150 points." in over


def test_tie_ruling():
    assert "went out first in the last round wins" in words(tie_ruling(PRESETS["hub8"]))
    assert "it is a draw between them" in words(tie_ruling(PRESETS["double-foot"]))
    assert "Whoever reaches 100 points loses" in words(tie_ruling(preset("pagat", match_length="target", target=100)))
    over = preset("double-foot", match_length="target", target=100)
    assert "Whoever passes 100 points loses" in words(tie_ruling(over))
