"""Round scores, totals and the end of the match under every rule."""

import pytest

from referee.rules.house_rules import PRESETS, preset
from referee.rules.scoring import hand_points, leaders, match_over, round_count, running_totals, score_round, \
    totals, winners
from referee.rules.text import RulesError
from referee.rules.tiles import Tile

PAGAT = PRESETS["pagat"]
KELLEY = PRESETS["kelley"]
GAMERULES = PRESETS["gamerules"]


def test_pips_left_in_hand_count_and_the_one_who_went_out_scores_zero():
    hands = {"Ann": [], "Bob": ["9-9", "4-3"], "Cy": "6-1, 2-2"}
    assert score_round(PAGAT, hands, went_out="Ann") == {"Ann": 0, "Bob": 25, "Cy": 11}


@pytest.mark.parametrize("name, overrides, points", [
    ("pagat", {}, 50), ("pagat", {"double_blank": 25}, 25), ("kelley", {}, 50), ("gamerules", {}, 0),
    ("gamerules", {"double_blank": 50}, 50), ("hub8", {}, 50), ("double-foot", {}, 50)])
def test_double_blank_at_the_house_value(name, overrides, points):
    rules = preset(name, **overrides)
    assert score_round(rules, {"Ann": [], "Bob": ["0-0", "5-0"]}, went_out="Ann") == {"Ann": 0, "Bob": points + 5}
    assert hand_points(rules, [Tile(0, 0)]) == points


def test_going_out_on_a_double():
    hands = {"Ann": [], "Bob": ["1-2"]}
    assert score_round(KELLEY, hands, went_out="Ann", out_on_double=True) == {"Ann": 50, "Bob": 3}
    assert score_round(PAGAT, hands, went_out="Ann", out_on_double=True) == {"Ann": 0, "Bob": 3}
    assert score_round(KELLEY, hands, went_out="Ann", out_on_double="false") == {"Ann": 0, "Bob": 3}


def test_blocked_round_everyone_counts():
    hands = {"Ann": ["1-0"], "Bob": 30, "Cy": ["9-8"]}
    expected = {"Ann": 1, "Bob": 30, "Cy": 17}
    assert score_round(GAMERULES, hands) == expected
    assert score_round(GAMERULES, hands, blocked=True) == expected


def test_pip_totals_and_tiles_may_be_mixed():
    assert score_round(PAGAT, {"Ann": 0, "Bob": 23, "Cy": "17", "Dee": ["3-3"]}, went_out="Ann") == \
        {"Ann": 0, "Bob": 23, "Cy": 17, "Dee": 6}


@pytest.mark.parametrize("kwargs, words", [
    (dict(hands={"Ann": [], "Bob": ["1-2"]}, went_out="Zed"), "'Zed' went out but is not one of the players"),
    (dict(hands={"Ann": ["1-1"], "Bob": ["1-2"]}, went_out="Ann"), "Ann went out, so nothing can be left"),
    (dict(hands={"Ann": 4, "Bob": ["1-2"]}, went_out="Ann"), "Ann went out, so nothing can be left"),
    (dict(hands={"Ann": [], "Bob": ["1-2"]}, went_out="Ann", blocked=True), "A blocked round has nobody going out"),
    (dict(hands={"Ann": -3, "Bob": ["1-2"]}), "Ann cannot have a negative total (-3)"),
    (dict(hands={"Ann": "-3", "Bob": ["1-2"]}), "Ann cannot have a negative total (-3)"),
    (dict(hands={"Ann": 546, "Bob": ["1-2"]}), "546 points is more than a whole double-9 set is worth (545)"),
    (dict(hands={"Ann": 300, "Bob": 300}), "600 points is more than a whole double-9 set is worth"),
    (dict(hands={"Ann": ["4-4", "1-2"], "Bob": ["4-4"]}), "[4-4] is in the hands of both Ann and Bob"),
    (dict(hands={"Ann": ["10-3"], "Bob": ["1-2"]}), "'10-3' is not a tile of a double-9 set"),
    (dict(hands={"Ann": ["4-4", "4-4"], "Bob": ["1-2"]}), "[4-4] is listed twice"),
    (dict(hands={"Ann": [], "Bob": ["1-2"]}, out_on_double=True), "needs the player who went out"),
    (dict(hands={"Ann": [], "Bob": ["1-2"]}), "Ann has no tiles left, so Ann went out"),
    (dict(hands={"Ann": None, "Bob": ["1-2"]}), "For Ann give the tiles left in hand or their pip total"),
    (dict(hands={"Ann": 2.5, "Bob": ["1-2"]}), "For Ann give the tiles left in hand"),
    (dict(hands={"Ann": [1]}), "at least 2 players"),
    (dict(hands=["Ann", "Bob"]), "per player name"),
    (dict(hands={"Ann": [], "Bob": ["1-2"]}, went_out="Ann", out_on_double="perhaps"), "'perhaps' is not yes or no"),
])
def test_bad_rounds_are_refused_saying_why(kwargs, words):
    with pytest.raises(RulesError) as caught:
        score_round(KELLEY, **kwargs)
    assert words in str(caught.value)


def test_running_totals_and_leaders():
    rounds = [{"Ann": 0, "Bob": 25}, {"Ann": 30, "Bob": 0}, {"Ann": 2, "Bob": 9}]
    assert running_totals(["Ann", "Bob"], rounds) == [
        {"Ann": 0, "Bob": 25}, {"Ann": 30, "Bob": 25}, {"Ann": 32, "Bob": 34}]
    assert totals(["Ann", "Bob"], rounds) == {"Ann": 32, "Bob": 34}
    assert totals(["Ann", "Bob"], []) == {"Ann": 0, "Bob": 0}
    assert leaders({"Ann": 32, "Bob": 34}) == ["Ann"]
    assert leaders({"Ann": 32, "Bob": 32, "Cy": 40}) == ["Ann", "Bob"]
    assert leaders({}) == []


def test_running_totals_refuse_inconsistent_rounds():
    with pytest.raises(RulesError, match="Round 2 has no score for Bob"):
        running_totals(["Ann", "Bob"], [{"Ann": 1, "Bob": 2}, {"Ann": 3}])
    with pytest.raises(RulesError, match="Round 1 scores Zed, who does not play"):
        running_totals(["Ann", "Bob"], [{"Ann": 1, "Bob": 2, "Zed": 0}])
    with pytest.raises(RulesError, match="points cannot be negative"):
        running_totals(["Ann", "Bob"], [{"Ann": -1, "Bob": 2}])


@pytest.mark.parametrize("overrides, rounds", [
    ({}, 10), ({"set": 12}, 13), ({"match_length": "half"}, 5), ({"match_length": "one-round"}, 1)])
def test_match_over_after_the_planned_rounds(overrides, rounds):
    rules = preset("pagat", **overrides)
    assert round_count(rules) == rounds
    scores = {"Ann": 400, "Bob": 10}
    assert not match_over(rules, rounds - 1, scores)
    assert match_over(rules, rounds, scores)


def test_double_foot_match_to_a_total_ends_when_someone_exceeds_it():
    # Seed 004: "tot een speler een afgesproken totaal overschrijdt": going over it, not reaching it.
    rules = preset("double-foot", match_length="target", target=200)
    assert rules.target_ends == "exceeding"
    assert not match_over(rules, 30, {"Ann": 200, "Bob": 150})
    assert match_over(rules, 3, {"Ann": 201, "Bob": 150})
    assert winners(rules, {"Ann": 201, "Bob": 150, "Cy": 170}) == ["Bob"]


def test_winners_under_both_tie_rules():
    tied = {"Ann": 80, "Bob": 80, "Cy": 95}
    assert winners(PAGAT, tied, first_out="Bob") == ["Ann", "Bob"]
    assert winners(PRESETS["double-foot"], tied) == ["Ann", "Bob"]
    hub = PRESETS["hub8"]
    assert winners(hub, tied, first_out="Bob") == ["Bob"]
    assert winners(hub, tied, first_out="Cy") == ["Ann", "Bob"]
    assert winners(hub, tied) == ["Ann", "Bob"]
    assert winners(hub, {"Ann": 70, "Bob": 80}, first_out="Bob") == ["Ann"]
    with pytest.raises(RulesError, match="'Zed' went out first but is not one of the players"):
        winners(hub, tied, first_out="Zed")
    with pytest.raises(RulesError, match="whole number of points"):
        winners(hub, {"Ann": "80"})
