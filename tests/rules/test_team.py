"""Team dominoes (seed 003): seats, deal, hand scoring, capicu, blocks, the match and who opens."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.rules.house_rules import CHOSEN
from referee.rules.team_game import (TARGETS, TEAM_OPTIONS, TOURNAMENT, HandResult, TeamRules, deal, describe, is_capicu,
                          match_state, opener, score_hand, seating, team_rules)
from referee.rules.text import Message, RulesError
from referee.rules.tiles import full_set, pips
from tests.rules import fuzz
from tests.rules.fuzz import FAST, only_rules_errors


PLAYERS = ["Ann", "Bo", "Cy", "Di"]  # Ann & Cy against Bo & Di
PAIR = ["Ann", "Bo"]
TOURNAMENT_RULES = TeamRules()
LOSERS_ONLY = team_rules(score_losers_only=True)
TO_BLOCKER = team_rules(blocked_to_blocker=True)
ONE_V_ONE = team_rules(one_v_one=True)

# Ann went out; Bo holds 12, her partner Cy 4, Di 9.
ANN_OUT = {"Ann": [], "Bo": ["6-6"], "Cy": "3-1", "Di": "5-4"}


def out(rules=TOURNAMENT_RULES, hands=None, went_out="Ann", **kwargs):
    return score_hand(rules, PLAYERS, ANN_OUT if hands is None else hands, went_out=went_out, **kwargs)


def blocked(rules, hands, blocker="Bo", players=PLAYERS):
    return score_hand(rules, players, hands, blocked=True, blocker=blocker)


# -- rules --------------------------------------------------------------------------------


def test_tournament_rules_are_the_default():
    rules = TeamRules()
    assert (rules.set, rules.target, rules.score_losers_only, rules.blocked_to_blocker, rules.capicu_bonus,
            rules.one_v_one) == (6, 100, False, False, 0, False)
    assert team_rules() == rules
    assert TEAM_OPTIONS["capicu_bonus"] == (0, 25, 30)
    assert TEAM_OPTIONS["target"] == (100, 50, 200)
    assert TARGETS == {"classic": 100, "short": 50, "long": 200}


@pytest.mark.parametrize("overrides, expected", [
    (dict(target="short"), dict(target=50)),
    (dict(target="Classic"), dict(target=100)),
    (dict(target="long"), dict(target=200)),
    (dict(target="150"), dict(target=150)),
    (dict(target=500), dict(target=500)),
    (dict(target=1), dict(target=1)),
    (dict(capicu_bonus="25"), dict(capicu_bonus=25)),
    (dict(capicu_bonus=30), dict(capicu_bonus=30)),
    (dict(capicu_bonus="off"), dict(capicu_bonus=0)),
    (dict(score_losers_only="on", blocked_to_blocker="true", one_v_one="1"),
     dict(score_losers_only=True, blocked_to_blocker=True, one_v_one=True)),
    (dict(score_losers_only="false", one_v_one=0), dict(score_losers_only=False, one_v_one=False)),
    (dict(set="6"), dict(set=6)),
])
def test_form_values_are_read(overrides, expected):
    rules = team_rules(**overrides)
    for name, value in expected.items():
        assert getattr(rules, name) == value and type(getattr(rules, name)) is type(value)


@pytest.mark.parametrize("overrides, words", [
    (dict(target=0), "target must be a whole number of points above 0, not 0"),
    (dict(target=-5), "above 0, not -5"),
    (dict(target="lots"), "'lots' is not a whole number (target)"),
    (dict(target=1.5), "'1.5' is not a whole number (target)"),
    (dict(target=None), "not a whole number (target)"),
    (dict(capicu_bonus=20), "capicu bonus is 0 (none), 25 or 30 points, not 20"),
    (dict(capicu_bonus="50"), "not 50"),
    (dict(set=9), "double-six set, not double-9"),
    (dict(one_v_one="maybe"), "'maybe' is not yes or no (one_v_one)"),
    (dict(score_losers_only=2), "not yes or no (score_losers_only)"),
    (dict(colour="red"), "'colour' is not a team dominoes rule"),
])
def test_bad_rules_are_refused_with_a_reason(overrides, words):
    with pytest.raises(RulesError) as err:
        team_rules(**overrides)
    assert words in str(err.value)


def test_direct_construction_is_checked_too():
    with pytest.raises(RulesError):
        TeamRules(target="100")
    with pytest.raises(RulesError):
        TeamRules(one_v_one=1)


def test_describe_names_each_rule_and_where_it_comes_from():
    rows = describe(TeamRules())
    assert [rule for rule, _, _ in rows] == ["set", "one_v_one", "score_losers_only", "blocked_to_blocker",
                                             "capicu_bonus", "target"]
    assert all(isinstance(words, Message) and source == TOURNAMENT for _, words, source in rows)
    changed = dict((rule, (str(words), source)) for rule, words, source in
                   describe(team_rules(capicu_bonus=30, target="short", score_losers_only=True)))
    assert changed["capicu_bonus"] == ("A capicu earns a 30-point bonus", CHOSEN)
    assert changed["target"] == ("First side to reach 50 points wins the match", CHOSEN)
    assert "only the pips left in the losing side" in changed["score_losers_only"][0]
    assert changed["blocked_to_blocker"][1] == TOURNAMENT
    with pytest.raises(RulesError):
        describe("tournament")


# -- seats and deal -----------------------------------------------------------------------


def test_partners_sit_opposite_and_play_passes_to_the_right():
    seat = seating(TOURNAMENT_RULES, PLAYERS)
    assert seat.teams == (("Ann", "Cy"), ("Bo", "Di"))
    assert seat.team_names == ("Ann & Cy", "Bo & Di")
    assert seat.order == ("Ann", "Bo", "Cy", "Di")
    assert [seat.team_of(name) for name in PLAYERS] == [0, 1, 0, 1]
    assert str(seat.text) == ("Ann and Cy are partners and sit opposite each other, as do Bo and Di. "
                              "Play passes to the right: Ann, Bo, Cy, Di.")


def test_one_v_one_seats_two():
    seat = seating(ONE_V_ONE, PAIR)
    assert seat.teams == (("Ann",), ("Bo",)) and seat.team_names == ("Ann", "Bo")
    assert str(seat.text) == "Ann plays against Bo."


@pytest.mark.parametrize("rules, players, words", [
    (TOURNAMENT_RULES, PAIR, "needs 4 players, two teams of two, not 2"),
    (TOURNAMENT_RULES, PLAYERS + ["Ed"], "not 5"),
    (ONE_V_ONE, PLAYERS, "1 v 1 is for 2 players, not 4"),
    (TOURNAMENT_RULES, ["Ann", "Bo", "Ann", "Di"], "Ann is listed twice"),
    (TOURNAMENT_RULES, ["Ann", "Bo", " ", "Di"], "is not a player's name"),
    (TOURNAMENT_RULES, ["Ann", "Bo", 3, "Di"], "'3' is not a player's name"),
    (TOURNAMENT_RULES, "Ann Bo Cy Di", "list of names"),
    (TOURNAMENT_RULES, None, "list of names"),
])
def test_bad_tables_are_refused(rules, players, words):
    with pytest.raises(RulesError) as err:
        seating(rules, players)
    assert words in str(err.value)


def test_four_players_share_all_28_tiles():
    dealt = deal(TOURNAMENT_RULES, PLAYERS)
    assert (dealt.players, dealt.per_player, dealt.boneyard, dealt.drawable) == (4, 7, 0, 0)
    assert dealt.double_in_boneyard == 0.0
    assert deal(TOURNAMENT_RULES, 4) == dealt


def test_one_v_one_leaves_14_to_draw_from():
    dealt = deal(ONE_V_ONE, PAIR)
    assert (dealt.players, dealt.per_player, dealt.boneyard, dealt.drawable) == (2, 7, 14, 14)
    assert dealt.double_in_boneyard == 0.5  # [6-6] is one of 28, and 14 are undealt


@pytest.mark.parametrize("rules, players", [(TOURNAMENT_RULES, 3), (TOURNAMENT_RULES, "two"),
                                            (ONE_V_ONE, 4), (ONE_V_ONE, ["Ann"]), (TOURNAMENT_RULES, 2.0)])
def test_deal_refuses_the_wrong_table(rules, players):
    with pytest.raises(RulesError):
        deal(rules, players)


# -- going out ----------------------------------------------------------------------------


def test_tournament_rules_the_winners_score_every_pip_partner_included():
    result = out()
    assert result.winner_team == 0 and result.points == 25
    assert result.team_points == {0: 25, 1: 0}
    assert result.team_pips == (4, 21)
    assert result.went_out == "Ann" and result.blocker is None and not result.capicu
    assert str(result.reason) == "Ann went out: 25 points to Ann & Cy, every pip left in all hands."


def test_losers_only_leaves_the_partners_pips_out():
    result = out(LOSERS_ONLY)
    assert result.points == 21 and result.team_points == {0: 21, 1: 0}
    assert str(result.reason) == "Ann went out: 21 points to Ann & Cy, the pips left in the hands of Bo & Di."


def test_the_partner_going_out_wins_for_the_team():
    hands = {"Ann": ["2-1"], "Bo": ["6-6"], "Cy": [], "Di": "5-4"}
    assert out(hands=hands, went_out="Cy").team_points == {0: 24, 1: 0}


def test_the_other_team_going_out():
    hands = {"Ann": ["6-5", "0-0"], "Bo": ["1-0"], "Cy": ["4-4"], "Di": []}
    result = out(hands=hands, went_out="Di")
    assert result.winner_team == 1 and result.team_points == {0: 0, 1: 20}
    assert out(LOSERS_ONLY, hands=hands, went_out="Di").team_points == {0: 0, 1: 19}


def test_typed_totals_and_tiles_mix():
    hands = {"Ann": 0, "Bo": "17", "Cy": 8, "Di": ["6-6", "0-1"]}
    assert out(hands=hands).points == 17 + 8 + 13


def test_a_photo_or_keypad_hand_as_one_typed_line():
    hands = {"Ann": "", "Bo": "6-6 5-5", "Cy": "[3-1]; 0-0", "Di": "5-4,2-2"}
    assert out(hands=hands).points == 22 + 4 + 13


# -- capicu -------------------------------------------------------------------------------


@pytest.mark.parametrize("tile, ends, expected", [
    ("3-5", (3, 5), True),
    ("5-3", "5-3", True),
    ("0-6", ["6", "0"], True),
    ("3-3", (3, 3), False),   # a double is never a capicu
    ("3-5", (5, 5), False),   # the ends must differ
    ("3-5", (3, 3), False),
    ("3-5", (3, 4), False),   # fits only one end
    ("1-2", (3, 4), False),
])
def test_capicu_is_a_non_double_fitting_two_different_ends(tile, ends, expected):
    assert is_capicu(tile, ends) is expected


@pytest.mark.parametrize("bonus", [25, 30])
def test_capicu_bonus_is_added(bonus):
    result = out(team_rules(capicu_bonus=bonus), capicu=True, last_tile="3-5", ends=(5, 3))
    assert result.capicu and result.points == 25 + bonus and result.team_points == {0: 25 + bonus, 1: 0}
    assert str(result.reason) == (f"Ann went out with a capicu: {25 + bonus} points to Ann & Cy, every pip left "
                                  f"in all hands (25) and the {bonus}-point capicu bonus.")
    losers = out(team_rules(capicu_bonus=bonus, score_losers_only=True), capicu=True, last_tile="3-5",
                 ends=(5, 3))
    assert losers.points == 21 + bonus


def test_tournament_rules_pay_nothing_for_a_capicu():
    result = out(capicu=True, last_tile="3-5", ends="3 5")
    assert result.capicu and result.points == 25
    assert str(result.reason) == "Ann went out: 25 points to Ann & Cy, every pip left in all hands."


def test_no_capicu_claimed_no_bonus():
    assert out(team_rules(capicu_bonus=30)).points == 25


@pytest.mark.parametrize("kwargs, words", [
    (dict(last_tile="5-5", ends=(5, 2)), "[5-5] is a double: going out with a double is never a capicu"),
    (dict(last_tile="5-2", ends=(5, 5)), "Both ends showed 5: a capicu needs ends that show different numbers"),
    (dict(last_tile="5-2", ends=(5, 3)), "[5-2] does not fit both ends (5 and 3), so it is not a capicu"),
    (dict(), "needs the last tile laid and the two ends"),
    (dict(last_tile="5-2"), "needs the last tile laid and the two ends"),
    (dict(last_tile="5-2", ends=(5,)), "two ends the last tile went on"),
    (dict(last_tile="5-2", ends=(5, 9)), "shows 0 to 6, not 9"),
    (dict(last_tile="5-9", ends=(5, 2)), "not a tile of a double-6 set"),
    (dict(last_tile="6-6", ends=(6, 6)), "is a double"),
    (dict(last_tile="5-4", ends=(5, 4)), "[5-4] was laid last, so it cannot still be in Di's hand"),
])
def test_false_capicu_claims_are_refused(kwargs, words):
    with pytest.raises(RulesError) as err:
        out(team_rules(capicu_bonus=25), capicu=True, **kwargs)
    assert words in str(err.value)


def test_a_blocked_hand_is_no_capicu():
    with pytest.raises(RulesError) as err:
        score_hand(TOURNAMENT_RULES, PLAYERS, {"Ann": 5, "Bo": 6, "Cy": 7, "Di": 8}, blocked=True, blocker="Bo",
                   capicu=True, last_tile="3-5", ends=(3, 5))
    assert "blocked hand cannot be one" in str(err.value)


# -- blocked hands ------------------------------------------------------------------------

# Ann & Cy hold 4 + 6 = 10, Bo & Di 7 + 8 = 15.
BLOCK = {"Ann": ["3-1"], "Bo": ["4-3"], "Cy": ["6-0"], "Di": ["5-3"]}


def test_blocked_goes_to_the_side_with_fewer_pips_and_it_scores_both_sides():
    result = blocked(TOURNAMENT_RULES, BLOCK)
    assert result.winner_team == 0 and result.points == 25 and result.team_points == {0: 25, 1: 0}
    assert result.team_pips == (10, 15) and result.blocker == "Bo" and result.went_out is None
    assert str(result.reason) == ("Blocked: Ann & Cy held fewer pips (10 against 15), so 25 points to Ann & Cy, "
                                  "every pip left on both sides.")


def test_blocked_under_losers_only_scores_the_other_sides_pips():
    result = blocked(LOSERS_ONLY, BLOCK)
    assert result.team_points == {0: 15, 1: 0}
    assert str(result.reason).endswith("so 15 points to Ann & Cy, the pips left in the hands of Bo & Di.")


def test_blocked_with_equal_pips_nobody_scores():
    hands = {"Ann": "10", "Bo": 6, "Cy": 2, "Di": ["5-1"]}
    for rules in (TOURNAMENT_RULES, LOSERS_ONLY, team_rules(capicu_bonus=30)):
        result = blocked(rules, hands)
        assert result.winner_team is None and result.points == 0 and result.team_points == {0: 0, 1: 0}
        assert result.team_pips == (12, 12)
        assert str(result.reason) == "Blocked with 12 pips on each side: nobody scores."


def test_blocked_to_the_blocker_ignores_who_holds_fewer():
    result = blocked(TO_BLOCKER, BLOCK, blocker="Di")  # Bo & Di hold more, yet take it
    assert result.winner_team == 1 and result.team_points == {0: 0, 1: 25}
    assert str(result.reason) == ("Blocked by Di, and these rules give a blocked hand to the blocker's side: "
                                  "25 points to Bo & Di, every pip left on both sides.")
    assert blocked(TO_BLOCKER, BLOCK, blocker="Cy").team_points == {0: 25, 1: 0}
    both = team_rules(blocked_to_blocker=True, score_losers_only=True)
    assert blocked(both, BLOCK, blocker="Di").team_points == {0: 0, 1: 10}


def test_blocked_to_the_blocker_scores_even_with_equal_pips():
    hands = {"Ann": 10, "Bo": 6, "Cy": 2, "Di": 6}
    assert blocked(TO_BLOCKER, hands, blocker="Ann").team_points == {0: 24, 1: 0}


# -- 1 v 1 --------------------------------------------------------------------------------


def test_one_v_one_going_out_scores_the_opponents_pips():
    hands = {"Ann": [], "Bo": ["6-6", "6-5", "1-0", "2-2", "3-3", "4-4", "5-5", "0-0", "3-0"]}  # 9 tiles: drew
    result = score_hand(ONE_V_ONE, PAIR, hands, went_out="Ann")
    assert result.winner_team == 0 and result.points == 12 + 11 + 1 + 4 + 6 + 8 + 10 + 0 + 3
    assert str(result.reason).startswith("Ann went out: 55 points to Ann,")


def test_one_v_one_blocked():
    result = blocked(ONE_V_ONE, {"Ann": 12, "Bo": 7}, blocker="Ann", players=PAIR)
    assert result.winner_team == 1 and result.team_points == {0: 0, 1: 19}
    assert blocked(ONE_V_ONE, {"Ann": 7, "Bo": 7}, blocker="Ann", players=PAIR).winner_team is None


# -- bad hands ----------------------------------------------------------------------------


@pytest.mark.parametrize("hands, kwargs, words", [
    ({"Ann": ["1-1"], "Bo": 5, "Cy": 5, "Di": 5}, dict(went_out="Ann"), "Ann went out, so nothing can be left"),
    ({"Ann": 3, "Bo": 5, "Cy": 5, "Di": 5}, dict(went_out="Ann"), "Ann went out, so nothing can be left"),
    ({"Ann": [], "Bo": [], "Cy": 5, "Di": 5}, dict(went_out="Ann"), "Bo has no tiles left, so Bo went out"),
    ({"Ann": [], "Bo": ["6-6"], "Cy": ["6-6"], "Di": 5}, dict(went_out="Ann"),
     "[6-6] is in the hands of both Bo and Cy"),
    ({"Ann": [], "Bo": ["6-6", "6-6"], "Cy": 4, "Di": 5}, dict(went_out="Ann"), "listed twice in one hand"),
    ({"Ann": [], "Bo": "6-6 6-5 6-4 6-3 6-2 6-1 6-0 5-5", "Cy": 4, "Di": 5}, dict(went_out="Ann"),
     "Bo cannot hold 8 tiles: at most 7"),
    ({"Ann": [], "Bo": 70, "Cy": 4, "Di": 5}, dict(went_out="Ann"),
     "Bo cannot hold 70 pips: 7 tiles of a double-6 set are worth at most 69"),
    ({"Ann": 50, "Bo": 50, "Cy": 50, "Di": 50}, dict(blocked=True, blocker="Ann"),
     "200 pips in all hands is more than a whole double-6 set is worth (168)"),
    ({"Ann": [], "Bo": 5, "Cy": 5}, dict(went_out="Ann"), "No hand was given for Di"),
    ({"Ann": [], "Bo": 5, "Cy": 5, "Di": 5, "Ed": 3}, dict(went_out="Ann"), "'Ed' is not at this table"),
    ({"Ann": [], "Bo": -5, "Cy": 5, "Di": 5}, dict(went_out="Ann"), "Bo cannot have a negative total (-5)"),
    ({"Ann": [], "Bo": 5.5, "Cy": 5, "Di": 5}, dict(went_out="Ann"), "not 5.5"),
    ({"Ann": [], "Bo": None, "Cy": 5, "Di": 5}, dict(went_out="Ann"), "not None"),
    ({"Ann": [], "Bo": "7-1", "Cy": 5, "Di": 5}, dict(went_out="Ann"), "not a tile of a double-6 set"),
    (["Ann", "Bo"], dict(went_out="Ann"), "per player name"),
    (ANN_OUT, dict(went_out="Zed"), "'Zed' went out but is not one of the players"),
    (ANN_OUT, dict(), "Say who went out, or mark the hand as blocked"),
    (ANN_OUT, dict(went_out="Ann", blocked=True, blocker="Bo"), "yet Ann is marked as going out"),
    (BLOCK, dict(blocked=True), "needs the player who laid the blocking tile"),
    (BLOCK, dict(blocked=True, blocker="Zed"), "'Zed' laid the blocking tile but is not one of the players"),
    (ANN_OUT, dict(went_out="Ann", blocker="Bo"), "Only a blocked hand has a blocker"),
    (BLOCK, dict(blocked="perhaps", blocker="Bo"), "not yes or no (blocked)"),
    (ANN_OUT, dict(went_out="Ann", capicu="sure"), "not yes or no (capicu)"),
])
def test_bad_hands_are_refused_with_a_reason(hands, kwargs, words):
    with pytest.raises(RulesError) as err:
        score_hand(TOURNAMENT_RULES, PLAYERS, hands, **kwargs)
    assert words in str(err.value)


def test_bad_rules_or_players_for_a_hand():
    with pytest.raises(RulesError):
        score_hand("tournament", PLAYERS, ANN_OUT, went_out="Ann")
    with pytest.raises(RulesError):
        score_hand(ONE_V_ONE, PLAYERS, ANN_OUT, went_out="Ann")


# -- the match ----------------------------------------------------------------------------


def hand_for(team: int, points: int) -> HandResult:
    """A scored hand giving `points` to `team`, made the way the app makes them."""
    if points == 0:
        return blocked(TOURNAMENT_RULES, {"Ann": 6, "Bo": 6, "Cy": 6, "Di": 6})
    winner, loser = ("Ann", "Bo") if team == 0 else ("Bo", "Ann")
    hands = {"Ann": 0, "Bo": 0, "Cy": 0, "Di": 0}
    hands[loser] = points
    return out(hands=hands, went_out=winner)


def test_totals_add_up_and_the_first_team_to_reach_the_target_wins():
    hands = [hand_for(0, 30), hand_for(1, 45), hand_for(0, 0), hand_for(0, 69)]
    state = match_state(TOURNAMENT_RULES, PLAYERS, hands[:3])
    assert state.totals == {0: 30, 1: 45} and not state.finished and state.winner_team is None
    assert state.summary is None and state.hands_played == 3 and not state.cochon
    state = match_state(TOURNAMENT_RULES, PLAYERS, hands)
    assert state.totals == {0: 99, 1: 45} and not state.finished
    state = match_state(TOURNAMENT_RULES, PLAYERS, hands + [hand_for(0, 1)])
    assert state.totals == {0: 100, 1: 45} and state.finished and state.winner_team == 0  # reaching is enough
    assert str(state.summary) == "The match goes to Ann & Cy, 100 to 45."


def test_no_hands_yet():
    state = match_state(TOURNAMENT_RULES, PLAYERS, [])
    assert state.totals == {0: 0, 1: 0} and not state.finished and state.team_names == ("Ann & Cy", "Bo & Di")


@pytest.mark.parametrize("target, hands_to_win", [("short", 1), ("classic", 2), ("long", 4), (150, 3)])
def test_targets(target, hands_to_win):
    rules = team_rules(target=target)
    hands = [hand_for(1, 60)] * hands_to_win
    assert not match_state(rules, PLAYERS, hands[:-1]).finished
    state = match_state(rules, PLAYERS, hands)
    assert state.finished and state.winner_team == 1


def test_cochon_when_the_losers_are_still_at_zero():
    state = match_state(TOURNAMENT_RULES, PLAYERS, [hand_for(1, 60), hand_for(0, 0), hand_for(1, 60)])
    assert state.finished and state.winner_team == 1 and state.cochon and state.totals == {0: 0, 1: 120}
    assert str(state.summary) == "The match goes to Bo & Di, 120 to 0: cochon!"
    state = match_state(TOURNAMENT_RULES, PLAYERS, [hand_for(0, 1), hand_for(1, 60), hand_for(1, 60)])
    assert state.finished and not state.cochon


def test_no_hand_after_the_match_is_won():
    with pytest.raises(RulesError) as err:
        match_state(team_rules(target="short"), PLAYERS, [hand_for(0, 60), hand_for(1, 5)])
    assert "already won after hand 1, so hand 2 cannot be scored" in str(err.value)


@pytest.mark.parametrize("results", [None, "hands", hand_for(0, 5), [None], [{0: 5, 1: 0}]])
def test_bad_match_histories(results):
    with pytest.raises(RulesError):
        match_state(TOURNAMENT_RULES, PLAYERS, results)


def test_hands_from_another_table_are_refused():
    other = score_hand(TOURNAMENT_RULES, ["Ed", "Fy", "Gus", "Hal"], {"Ed": [], "Fy": 3, "Gus": 3, "Hal": 3},
                       went_out="Ed")
    with pytest.raises(RulesError) as err:
        match_state(TOURNAMENT_RULES, PLAYERS, [other])
    assert "who is not at this table" in str(err.value)
    with pytest.raises(RulesError):
        opener(TOURNAMENT_RULES, PLAYERS, other)


# -- who opens ----------------------------------------------------------------------------


def test_the_first_hand_opens_with_double_six():
    assert str(opener(TOURNAMENT_RULES, PLAYERS)) == "First hand: whoever holds [6-6] opens with it."
    assert str(opener(TOURNAMENT_RULES, PLAYERS, None)) == "First hand: whoever holds [6-6] opens with it."


def test_one_v_one_first_hand_when_double_six_is_in_the_boneyard():
    words = str(opener(ONE_V_ONE, PAIR))
    assert words.startswith("First hand: whoever holds [6-6] opens with it.")
    assert "highest double" in words and "deal again" in words


def test_the_player_who_went_out_opens_with_any_tile():
    assert str(opener(TOURNAMENT_RULES, PLAYERS, out())) == "Ann went out last hand, so Ann opens, with any tile."
    partner = out(hands={"Ann": ["2-1"], "Bo": ["6-6"], "Cy": [], "Di": "5-4"}, went_out="Cy")
    assert opener(TOURNAMENT_RULES, PLAYERS, partner).params == {"player": "Cy"}
    alone = score_hand(ONE_V_ONE, PAIR, {"Ann": 4, "Bo": []}, went_out="Bo")
    assert opener(ONE_V_ONE, PAIR, alone).params == {"player": "Bo"}


@pytest.mark.parametrize("rules, hands, blocker", [
    (TOURNAMENT_RULES, BLOCK, "Bo"),                                      # the blocker's side lost
    (TOURNAMENT_RULES, BLOCK, "Cy"),                                      # the blocker's side won
    (TOURNAMENT_RULES, {"Ann": 10, "Bo": 6, "Cy": 2, "Di": 6}, "Di"),     # nobody scored
    (TO_BLOCKER, BLOCK, "Di"),
])
def test_after_a_block_the_blocker_opens_whoever_won(rules, hands, blocker):
    message = opener(rules, PLAYERS, blocked(rules, hands, blocker=blocker))
    assert str(message) == f"{blocker} laid the blocking tile last hand, so {blocker} opens, with any tile."


def test_opener_refuses_junk():
    for previous in ("Ann", {"went_out": "Ann"}, 3):
        with pytest.raises(RulesError):
            opener(TOURNAMENT_RULES, PLAYERS, previous)


# -- properties over random full deals ----------------------------------------------------


def full_deal(rng):
    tiles = full_set(6)
    rng.shuffle(tiles)
    return {name: tiles[i * 7:(i + 1) * 7] for i, name in enumerate(PLAYERS)}


@FAST
@given(st.randoms(use_true_random=False), st.sampled_from(PLAYERS), st.booleans())
def test_a_team_out_scores_every_pip_left(rng, went_out, as_totals):
    hands = full_deal(rng)
    assert sum(pips(hand) for hand in hands.values()) == 168
    left = {name: ([] if name == went_out else hand[:rng.randint(1, 7)]) for name, hand in hands.items()}
    given_hands = {name: pips(hand) if as_totals else [str(t) for t in hand] for name, hand in left.items()}
    everything = sum(pips(hand) for hand in left.values())
    result = score_hand(TOURNAMENT_RULES, PLAYERS, given_hands, went_out=went_out)
    team = PLAYERS.index(went_out) % 2
    assert result.points == everything and result.team_points == {team: everything, 1 - team: 0}
    losers = sum(pips(left[name]) for name in PLAYERS[1 - team::2])
    assert score_hand(LOSERS_ONLY, PLAYERS, given_hands, went_out=went_out).points == losers <= everything


@FAST
@given(st.randoms(use_true_random=False), st.sampled_from(PLAYERS), st.sampled_from([False, True]))
def test_blocked_points_are_symmetric(rng, blocker, losers_only):
    rules = team_rules(score_losers_only=losers_only)
    left = {name: hand[:rng.randint(1, 7)] for name, hand in full_deal(rng).items()}
    result = score_hand(rules, PLAYERS, left, blocked=True, blocker=blocker)
    # Seat everyone one place on: the same hands, the teams swapped.
    turned = PLAYERS[1:] + PLAYERS[:1]
    swapped = score_hand(rules, turned, left, blocked=True, blocker=blocker)
    assert swapped.team_points == {0: result.team_points[1], 1: result.team_points[0]}
    assert swapped.team_pips == result.team_pips[::-1]
    mine, theirs = result.team_pips
    if mine == theirs:
        assert result.winner_team is None and result.points == 0
    else:
        winner = 0 if mine < theirs else 1
        assert result.winner_team == winner
        assert result.points == (result.team_pips[1 - winner] if losers_only else mine + theirs)


@FAST
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 69)), max_size=12), st.integers(1, 250))
def test_match_ends_at_the_first_hand_reaching_the_target(scores, target):
    rules = team_rules(target=target)
    hands = [hand_for(team, points) for team, points in scores]
    totals, end = [0, 0], None
    for number, (team, points) in enumerate(scores, start=1):
        if points:
            totals[team] += points
        if max(totals) >= target:
            end = number
            break
    if end is not None and end < len(scores):
        with pytest.raises(RulesError):
            match_state(rules, PLAYERS, hands)
        hands = hands[:end]
    state = match_state(rules, PLAYERS, hands)
    assert state.finished == (end is not None)
    assert list(state.totals.values()) == totals
    if state.finished:
        assert state.totals[state.winner_team] >= target > state.totals[1 - state.winner_team]
        assert state.cochon == (state.totals[1 - state.winner_team] == 0)


# -- junk ---------------------------------------------------------------------------------

junk = fuzz.junk(["6-6", "3 5", "Ann", "Bo", "true", "short", "25", "-3", "", "7-1"], tile_top=9)
names = st.sampled_from(PLAYERS)


@FAST
@given(st.dictionaries(st.sampled_from(list(TeamRules.__dataclass_fields__) + ["x"]), junk, max_size=3))
def test_junk_rules_only_raise_rules_errors(overrides):
    only_rules_errors(team_rules, **overrides)


@FAST
@given(st.dictionaries(st.one_of(names, st.text(max_size=3)), junk, max_size=5), st.one_of(names, junk),
       junk, st.one_of(names, junk), junk, junk, junk)
def test_junk_hands_only_raise_rules_errors(hands, went_out, is_blocked, blocker, capicu, last_tile, ends):
    only_rules_errors(score_hand, TOURNAMENT_RULES, PLAYERS, hands, went_out=went_out, blocked=is_blocked,
                      blocker=blocker, capicu=capicu, last_tile=last_tile, ends=ends)
    only_rules_errors(is_capicu, last_tile, ends)


@FAST
@given(junk, junk)
def test_junk_tables_only_raise_rules_errors(players, previous):
    only_rules_errors(seating, TOURNAMENT_RULES, players)
    only_rules_errors(deal, TOURNAMENT_RULES, players)
    only_rules_errors(match_state, TOURNAMENT_RULES, players, previous)
    only_rules_errors(match_state, TOURNAMENT_RULES, PLAYERS, previous)
    only_rules_errors(opener, TOURNAMENT_RULES, players, previous)
    only_rules_errors(opener, ONE_V_ONE, PAIR, previous)


def test_random_full_deal_helper_deals_every_tile_once():
    hands = full_deal(random.Random(3))
    assert sorted(tile for hand in hands.values() for tile in hand) == sorted(full_set(6))
