"""What the rules say about the table's next match and about a ruling that ends the round."""

import pytest

from referee.rules.house_rules import OPEN, PRESETS, next_match_order, opener, preset
from referee.rules.rulings import judge_foot
from referee.rules.text import RulesError
from referee.rules.tiles import suit
from referee.services import kinds

PLAYERS = ["Ann", "Bob", "Cy", "Di"]
EIGHT_ONES = ["1-1", "9-1", "1-2", "1-3", "1-4", "1-6", "1-7", "1-0"]


def test_where_the_first_turn_rotates_the_next_match_is_opened_by_the_next_seat():
    # Double chicken foot table (seed 004): "the first turn moves one seat each round".
    rules = PRESETS["double-foot"]
    order = next_match_order(rules, PLAYERS)
    assert order == ["Bob", "Cy", "Di", "Ann"]
    assert "Ann plays first" in str(opener(rules, PLAYERS, 0))
    assert "Bob plays first" in str(opener(rules, order, 0))
    # Seated round the table as before: everyone keeps both neighbours.
    assert [order[(i + 1) % 4] for i in range(4)] == ["Cy", "Di", "Ann", "Bob"]
    assert next_match_order(rules, order) == ["Cy", "Di", "Ann", "Bob"]


@pytest.mark.parametrize("name", ["pagat", "pagat-reduced", "kelley", "gamerules", "hub8"])
def test_where_the_tiles_decide_who_opens_the_seats_stay(name):
    assert next_match_order(PRESETS[name], PLAYERS) == PLAYERS


def test_a_double_set_aside_before_the_deal_keeps_the_seats_too():
    # "the table agrees who lays the first arm": not a seat's turn either
    assert next_match_order(preset("pagat", missing_double="set-aside-before-deal"), PLAYERS) == PLAYERS


def test_next_match_order_refuses_what_is_no_table():
    with pytest.raises(RulesError):
        next_match_order(PRESETS["pagat"], "Ann, Bob")
    with pytest.raises(RulesError):
        next_match_order(PRESETS["pagat"], ["Ann"])


def test_team_and_draw_games_keep_their_seats_for_a_rematch():
    team, draw = kinds.kind(kinds.TEAM), kinds.kind(kinds.DRAW)
    assert team.next_match_order(team.rules("team", {}), PLAYERS) == PLAYERS
    assert draw.next_match_order(draw.rules("draw", {}), PLAYERS[:3]) == PLAYERS[:3]
    assert kinds.kind(kinds.CHICKEN_FOOT).next_match_order(PRESETS["double-foot"], PLAYERS)[0] == "Bob"


def test_a_ruling_ends_the_round_when_the_house_rule_ends_it():
    assert judge_foot(preset("kelley", impossible_foot="round-ends"), "1-1", EIGHT_ONES).ends_round
    for policy in ("released", OPEN):
        assert not judge_foot(preset("kelley", impossible_foot=policy), "1-1", EIGHT_ONES).ends_round
    assert not judge_foot(PRESETS["pagat"], "1-1", EIGHT_ONES[:7]).ends_round  # still completable


def test_play_on_ends_the_round_only_when_nobody_can_move():
    all_ones = [str(tile) for tile in suit(1, 9)]
    assert judge_foot(PRESETS["gamerules"], "1-1", all_ones).ends_round
    assert not judge_foot(PRESETS["gamerules"], "1-1", all_ones, drawable=4).ends_round
    assert not judge_foot(PRESETS["kelley"], "1-1", EIGHT_ONES).ends_round
