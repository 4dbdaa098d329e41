"""The regular draw game (seed 004): deal, who opens, hand scoring, blocks, ties and the game."""


import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.rules.draw_game import (DEAL, DRAW_OPTIONS, REGULAR, DrawResult, DrawRules, deal, describe, draw_rules,
                          match_state, opener_text, score_hand)
from referee.rules.house_rules import CHOSEN
from referee.rules.text import RulesError
from referee.rules.tiles import SET_SIZES, full_set, pips, set_pips
from tests.rules import fuzz
from tests.rules.fuzz import FAST, only_rules_errors


ONE_HAND = DrawRules()
TO_100 = draw_rules(target=100)
THREE = ["Ann", "Bo", "Cy"]


# -- rules --------------------------------------------------------------------------------


def test_seed_004_is_the_default():
    assert (ONE_HAND.set, ONE_HAND.target) == (6, None)
    assert draw_rules() == ONE_HAND
    assert DRAW_OPTIONS["set"] == (6, 9, 12) and DRAW_OPTIONS["target"][0] is None


@pytest.mark.parametrize("overrides, expected", [
    (dict(set="9"), (9, None)), (dict(set=12), (12, None)), (dict(target="100"), (6, 100)),
    (dict(target=" 250 "), (6, 250)), (dict(target="none"), (6, None)), (dict(target=""), (6, None)),
    (dict(target=None), (6, None)), (dict(target="one-hand"), (6, None)),
])
def test_form_values_are_read(overrides, expected):
    rules = draw_rules(**overrides)
    assert (rules.set, rules.target) == expected


@pytest.mark.parametrize("overrides, words", [
    (dict(set=15), "double-six, double-nine or double-twelve set, not double-15"),
    (dict(set="six"), "'six' is not a whole number (set)"),
    (dict(target=0), "above 0, not 0"),
    (dict(target="-10"), "above 0, not -10"),
    (dict(target=2.5), "not a whole number (target)"),
    (dict(players=4), "'players' is not a draw game rule"),
])
def test_bad_rules_are_refused_with_a_reason(overrides, words):
    with pytest.raises(RulesError) as err:
        draw_rules(**overrides)
    assert words in str(err.value)
    with pytest.raises(RulesError):
        DrawRules(set="6")


def test_describe():
    assert [(rule, str(words), source) for rule, words, source in describe(ONE_HAND)] == [
        ("set", "Double-6, 28 tiles", REGULAR), ("target", "One hand decides the game", REGULAR)]
    assert [(rule, str(words), source) for rule, words, source in describe(draw_rules(set=12, target=150))] == [
        ("set", "Double-12, 91 tiles", CHOSEN), ("target", "First to reach 150 points wins the game", CHOSEN)]
    with pytest.raises(RulesError):
        describe(None)


# -- deal and opener ----------------------------------------------------------------------


@pytest.mark.parametrize("top, players, each, boneyard", [
    (6, 2, 7, 14), (6, 3, 5, 13), (6, 4, 5, 8),
    (9, 2, 7, 41), (9, 3, 5, 40), (9, 4, 5, 35),
    (12, 2, 7, 77), (12, 3, 5, 76), (12, 4, 5, 71),
])
def test_seven_each_with_two_five_with_three_or_four_in_every_set(top, players, each, boneyard):
    dealt = deal(draw_rules(set=top), players)
    assert (dealt.players, dealt.per_player, dealt.boneyard, dealt.drawable, dealt.keep_back) == \
        (players, each, boneyard, boneyard, 0)
    assert dealt.boneyard + players * each == SET_SIZES[top]
    assert dealt.double_in_boneyard == pytest.approx(boneyard / SET_SIZES[top])
    assert deal(draw_rules(set=top), ["P%d" % i for i in range(players)]) == dealt


@pytest.mark.parametrize("players, words", [(1, "2 to 4 players, not 1"), (5, "not 5"), (0, "not 0"),
                                            (8, "not 8"), ("four", "not a whole number"),
                                            (["Ann", "Ann"], "listed twice"), (None, "not a whole number")])
def test_deal_refuses_other_tables(players, words):
    with pytest.raises(RulesError) as err:
        deal(ONE_HAND, players)
    assert words in str(err.value)


@pytest.mark.parametrize("top", [6, 9, 12])
def test_the_highest_double_opens_with_any_tile(top):
    message = opener_text(draw_rules(set=top))
    assert str(message) == (f"Whoever holds the highest double ([{top}-{top}] if it was dealt) plays first, "
                            "with any tile. If nobody holds a double, shuffle and deal again.")
    with pytest.raises(RulesError):
        opener_text("draw")


# -- one hand -----------------------------------------------------------------------------


def test_first_out_scores_the_pips_left_in_the_other_hands():
    result = score_hand(ONE_HAND, {"Ann": [], "Bo": ["6-6", "1-0"], "Cy": "9", "Di": "2-2"}, went_out="Ann")
    assert result.winner == "Ann" and result.went_out == "Ann" and not result.blocked
    assert result.points == {"Ann": 26, "Bo": 0, "Cy": 0, "Di": 0}
    assert result.pips == {"Ann": 0, "Bo": 13, "Cy": 9, "Di": 4}
    assert str(result.reason) == "Ann went out and scores the 26 pips left in the other hands."


def test_going_out_when_the_others_hold_only_blanks_still_wins():
    result = score_hand(ONE_HAND, {"Ann": ["0-0"], "Bo": []}, went_out="Bo")
    assert result.winner == "Bo" and result.points == {"Ann": 0, "Bo": 0}
    assert match_state(ONE_HAND, ["Ann", "Bo"], [result]).winners == ("Bo",)


def test_blocked_goes_to_the_lowest_count_and_it_scores_the_other_hands():
    result = score_hand(ONE_HAND, {"Ann": ["5-4"], "Bo": 3, "Cy": ["6-6", "0-0"]}, blocked=True)
    assert result.winner == "Bo" and result.blocked and result.went_out is None and result.tied == ()
    assert result.points == {"Ann": 0, "Bo": 21, "Cy": 0}
    assert str(result.reason) == "Blocked: Bo has the lowest count (3) and scores the 21 pips left in the other hands."


def test_a_blocked_hand_can_go_to_a_count_of_zero():
    result = score_hand(ONE_HAND, {"Ann": ["0-0"], "Bo": "3-1"}, blocked=True)
    assert result.winner == "Ann" and result.points == {"Ann": 4, "Bo": 0}


@pytest.mark.parametrize("hands, tied", [
    ({"Ann": 7, "Bo": 7}, ("Ann", "Bo")),
    ({"Ann": 7, "Bo": 12, "Cy": ["4-3"]}, ("Ann", "Cy")),
    ({"Ann": 5, "Bo": 5, "Cy": 5, "Di": 5}, ("Ann", "Bo", "Cy", "Di")),
])
def test_a_tie_for_the_lowest_count_scores_nothing(hands, tied):
    result = score_hand(ONE_HAND, hands, blocked=True)
    assert result.winner is None and result.tied == tied and set(result.points.values()) == {0}
    assert str(result.reason) == (f"Blocked, and {', '.join(tied)} tie for the lowest count "
                                  f"({hands['Ann']}): nobody scores.")


def test_a_tie_above_the_lowest_does_not_matter():
    result = score_hand(ONE_HAND, {"Ann": 2, "Bo": 9, "Cy": 9}, blocked=True)
    assert result.winner == "Ann" and result.points["Ann"] == 18


def test_bigger_sets_allow_bigger_hands():
    hands = {"Ann": [], "Bo": ["12-12", "12-11", "9-9"]}
    assert score_hand(draw_rules(set=12), hands, went_out="Ann").points["Ann"] == 24 + 23 + 18
    with pytest.raises(RulesError):
        score_hand(ONE_HAND, hands, went_out="Ann")


@pytest.mark.parametrize("hands, kwargs, words", [
    ({"Ann": []}, dict(went_out="Ann"), "2 to 4 players, not 1"),
    ({"A": [], "B": 1, "C": 1, "D": 1, "E": 1}, dict(went_out="A"), "not 5"),
    ({"Ann": ["1-0"], "Bo": 4}, dict(went_out="Ann"), "Ann went out, so nothing can be left"),
    ({"Ann": [], "Bo": []}, dict(went_out="Ann"), "Bo has no tiles left, so Bo went out"),
    ({"Ann": [], "Bo": ["1-0"], "Cy": ["0-1"]}, dict(went_out="Ann"), "[1-0] is in the hands of both Bo and Cy"),
    ({"Ann": [], "Bo": 200}, dict(went_out="Ann"), "Bo cannot hold 200 pips"),
    ({"Ann": 150, "Bo": 150}, dict(blocked=True), "300 pips in all hands is more than a whole double-6 set"),
    ({"Ann": [], "Bo": -1}, dict(went_out="Ann"), "negative total"),
    ({"Ann": [], "Bo": 4}, dict(went_out="Cy"), "'Cy' went out but is not one of the players"),
    ({"Ann": [], "Bo": 4}, dict(), "Say who went out, or mark the hand as blocked"),
    ({"Ann": [], "Bo": 4}, dict(went_out="Ann", blocked=True), "yet Ann is marked as going out"),
    ({"Ann": [], "Bo": 4}, dict(went_out="Ann", blocked="eh"), "not yes or no (blocked)"),
    ({"Ann": [], 3: 4}, dict(went_out="Ann"), "'3' is not a player's name"),
    ([["Ann", []]], dict(went_out="Ann"), "per player name"),
])
def test_bad_hands_are_refused_with_a_reason(hands, kwargs, words):
    with pytest.raises(RulesError) as err:
        score_hand(ONE_HAND, hands, **kwargs)
    assert words in str(err.value)


def test_a_two_player_hand_holds_at_most_the_deal_and_the_boneyard():
    bo = [str(tile) for tile in full_set(6)[:22]]  # 7 dealt + 14 drawn = 21 at most
    with pytest.raises(RulesError) as err:
        score_hand(ONE_HAND, {"Ann": [], "Bo": bo}, went_out="Ann")
    assert "Bo cannot hold 22 tiles: at most 21" in str(err.value)
    assert score_hand(ONE_HAND, {"Ann": [], "Bo": bo[:21]}, went_out="Ann").points["Ann"] == pips(full_set(6)[:21])


# -- the game -----------------------------------------------------------------------------


def won(winner, points, players=THREE):
    hands = {name: 0 for name in players}
    loser = next(name for name in players if name != winner)
    hands[loser] = points
    hands[winner] = []
    return score_hand(ONE_HAND, hands, went_out=winner)


def tie(players=THREE):
    return score_hand(ONE_HAND, {name: 5 for name in players}, blocked=True)


def test_one_hand_decides_by_default():
    state = match_state(ONE_HAND, THREE, [])
    assert not state.finished and state.totals == {"Ann": 0, "Bo": 0, "Cy": 0} and state.winners == ()
    state = match_state(ONE_HAND, THREE, [won("Cy", 12)])
    assert state.finished and state.winners == ("Cy",) and state.totals["Cy"] == 12
    assert str(state.summary) == "Cy wins the game: one hand decides it."
    with pytest.raises(RulesError) as err:
        match_state(ONE_HAND, THREE, [won("Cy", 12), won("Ann", 3)])
    assert "already won after hand 1, so hand 2 cannot be scored" in str(err.value)


def test_a_tied_block_decides_nothing_so_another_hand_is_dealt():
    state = match_state(ONE_HAND, THREE, [tie()])
    assert not state.finished and state.summary is None and state.hands_played == 1
    state = match_state(ONE_HAND, THREE, [tie(), won("Bo", 20)])
    assert state.finished and state.winners == ("Bo",)


def test_to_a_target_the_first_to_reach_it_wins():
    hands = [won("Ann", 60), won("Bo", 69), tie(), won("Ann", 39)]
    state = match_state(TO_100, THREE, hands)
    assert state.totals == {"Ann": 99, "Bo": 69, "Cy": 0} and not state.finished
    state = match_state(TO_100, THREE, hands + [won("Ann", 1)])
    assert state.finished and state.winners == ("Ann",) and state.totals["Ann"] == 100
    assert str(state.summary) == "Ann wins the game with 100 points."


@pytest.mark.parametrize("players, results", [
    (THREE, None), (THREE, "hands"), (THREE, [None]), (THREE, [{"Ann": 3, "Bo": 0, "Cy": 0}]),
    (["Ann", "Bo"], [won("Ann", 5)]), (["Ann"], []), ("Ann", []), (THREE, won("Ann", 5)),
])
def test_bad_game_histories(players, results):
    with pytest.raises(RulesError):
        match_state(ONE_HAND, players, results)


# -- properties ---------------------------------------------------------------------------


@FAST
@given(st.sampled_from([6, 9, 12]), st.integers(2, 4), st.randoms(use_true_random=False), st.booleans())
def test_random_hands_score_the_other_hands(top, count, rng, someone_out):
    rules = draw_rules(set=top)
    tiles = full_set(top)
    rng.shuffle(tiles)
    names = [f"P{i}" for i in range(count)]
    each = DEAL[count]
    hands = {name: tiles[i * each:(i + 1) * each] for i, name in enumerate(names)}
    # Some draw from the boneyard, some tiles get played; everyone keeps one.
    boneyard = tiles[count * each:]
    for name in names:
        drawn = rng.randint(0, min(3, len(boneyard)))
        hands[name] = hands[name] + boneyard[:drawn]
        boneyard = boneyard[drawn:]
        hands[name] = hands[name][:rng.randint(1, len(hands[name]))]
    went_out = rng.choice(names) if someone_out else None
    if went_out:
        hands[went_out] = []
    result = score_hand(rules, {n: [str(t) for t in hand] for n, hand in hands.items()}, went_out=went_out,
                        blocked=not someone_out)
    counts = {n: pips(hand) for n, hand in hands.items()}
    assert result.pips == counts and sum(counts.values()) <= set_pips(top)
    assert all(points == 0 for name, points in result.points.items() if name != result.winner)
    if result.winner is None:
        assert not someone_out and len(result.tied) > 1
        assert all(counts[name] == min(counts.values()) for name in result.tied)
    else:
        assert result.points[result.winner] == sum(counts.values()) - counts[result.winner]
        assert counts[result.winner] < min(c for n, c in counts.items() if n != result.winner) or someone_out
    assert score_hand(rules, counts, went_out=went_out, blocked=not someone_out) == result


# -- junk ---------------------------------------------------------------------------------

junk = fuzz.junk(["6-6", "12-12", "Ann", "Bo", "true", "none", "9", "-3", ""], tile_top=14)


@FAST
@given(st.dictionaries(st.sampled_from(["set", "target", "x"]), junk, max_size=2), junk)
def test_junk_rules_and_deals_only_raise_rules_errors(overrides, players):
    only_rules_errors(draw_rules, **overrides)
    only_rules_errors(deal, ONE_HAND, players)
    only_rules_errors(match_state, ONE_HAND, players, [])


@FAST
@given(st.dictionaries(st.one_of(st.sampled_from(THREE), st.text(max_size=3)), junk, max_size=5),
       st.one_of(st.sampled_from(THREE), junk), junk, junk)
def test_junk_hands_only_raise_rules_errors(hands, went_out, is_blocked, results):
    only_rules_errors(score_hand, draw_rules(set=9), hands, went_out=went_out, blocked=is_blocked)
    only_rules_errors(match_state, TO_100, THREE, results)


def test_results_are_plain_values():
    result = won("Ann", 5)
    assert isinstance(result, DrawResult) and hash(result) == hash(won("Ann", 5))
