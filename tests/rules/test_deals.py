"""Deals, the chance the round's double is undealt, round doubles and who opens."""

import pytest

from referee.rules.house_rules import (PRESETS, deal, opener, preset, round_count, round_double, round_doubles,
    validate_players)
from referee.rules.text import Message, RulesError
from referee.rules.tiles import SET_SIZES, Tile


@pytest.mark.parametrize("name, players, each, percent", [
    ("pagat", 4, 11, 20.0), ("pagat-reduced", 4, 10, 27.3), ("pagat", 3, 14, 23.6),
    ("pagat-reduced", 3, 11, 40.0), ("pagat-reduced", 2, 12, 56.4)])
def test_chance_the_double_is_in_the_boneyard(name, players, each, percent):
    dealt = deal(PRESETS[name], players)
    assert dealt.per_player == each
    assert round(dealt.double_in_boneyard * 100, 1) == percent
    assert dealt.double_in_boneyard == dealt.boneyard / 55


@pytest.mark.parametrize("players, boneyard", [(2, 15), (3, 13), (4, 11), (5, 10), (6, 13)])
def test_puremco_boneyard_after_the_deal(players, boneyard):
    dealt = deal(PRESETS["pagat"], players)
    assert dealt.boneyard == boneyard
    assert dealt.keep_back == 0 and dealt.drawable == boneyard


@pytest.mark.parametrize("players, each, boneyard, keep", [
    (2, 21, 12, 2), (3, 14, 12, 1), (4, 11, 10, 1), (5, 8, 14, 1), (6, 7, 12, 1), (7, 6, 12, 1), (8, 5, 14, 1)])
def test_gamerules_sets_the_double_aside_and_keeps_tiles_back(players, each, boneyard, keep):
    dealt = deal(PRESETS["gamerules"], players)
    assert (dealt.per_player, dealt.boneyard, dealt.keep_back) == (each, boneyard, keep)
    assert dealt.drawable == boneyard - keep
    assert dealt.double_in_boneyard == 0.0


def test_double_foot_centres_the_double_before_the_deal():
    dealt = deal(PRESETS["double-foot"], 4)
    assert (dealt.per_player, dealt.boneyard, dealt.double_in_boneyard) == (11, 10, 0.0)


def test_set_aside_variant_takes_the_double_out_of_the_deal():
    dealt = deal(preset("pagat", missing_double="set-aside-before-deal"), 4)
    assert dealt.boneyard == 10 and dealt.double_in_boneyard == 0.0


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_tile_is_accounted_for(name):
    rules = PRESETS[name]
    for players in range(rules.players_min, rules.players_max + 1):
        dealt = deal(rules, players)
        set_aside = 1 if rules.missing_double in ("cannot-happen", "set-aside-before-deal") else 0
        assert dealt.players * dealt.per_player + dealt.boneyard + set_aside == SET_SIZES[rules.set]
        assert 0 <= dealt.drawable <= dealt.boneyard
        assert 0 <= dealt.double_in_boneyard < 1


def test_player_counts_the_rules_cannot_seat():
    with pytest.raises(RulesError, match="at most 8 players, not 9"):
        deal(PRESETS["gamerules"], 9)
    with pytest.raises(RulesError, match="at most 6 players, not 7: choose a bigger set"):
        deal(PRESETS["pagat"], 7)
    with pytest.raises(RulesError, match="at least 2 players, not 1"):
        deal(PRESETS["pagat"], 1)
    with pytest.raises(RulesError, match="'four' is not a whole number"):
        validate_players(PRESETS["pagat"], "four")
    assert validate_players(PRESETS["pagat"], "4") == 4


def test_round_doubles_for_each_match_length():
    assert round_doubles(PRESETS["pagat"]) == [Tile(n, n) for n in range(9, -1, -1)]
    assert round_count(PRESETS["pagat"]) == 10
    assert round_count(preset("pagat", set=12)) == 13
    assert round_doubles(preset("double-foot", match_length="half")) == [Tile(n, n) for n in (9, 8, 7, 6, 5)]
    assert round_doubles(preset("double-foot", match_length="one-round")) == [Tile(9, 9)]
    target = preset("pagat", match_length="target", target=200)
    assert round_count(target) is None
    assert round_doubles(target) == round_doubles(PRESETS["pagat"])
    assert [round_double(target, i) for i in (9, 10, 11, 25)] == [Tile(0, 0), Tile(9, 9), Tile(8, 8), Tile(4, 4)]


def test_no_round_outside_the_match():
    with pytest.raises(RulesError, match="no round 11"):
        round_double(PRESETS["pagat"], 10)
    with pytest.raises(RulesError, match="no round 0"):
        round_double(PRESETS["pagat"], -1)
    with pytest.raises(RulesError, match="no round 2"):
        round_double(preset("pagat", match_length="one-round"), 1)


def test_double_foot_first_turn_moves_one_seat_a_round():
    rules = PRESETS["double-foot"]
    seats = ["Ann", "Bob", "Cy"]
    firsts = [opener(rules, seats, i).params["player"] for i in range(5)]
    assert firsts == ["Ann", "Bob", "Cy", "Ann", "Bob"]
    message = opener(rules, seats, 1)
    assert isinstance(message, Message)
    assert str(message) == "Round 2: [8-8] goes in the centre before the deal, and Bob plays first."


@pytest.mark.parametrize("name, words", [
    ("pagat", "Round 1: whoever holds [9-9] lays it to open."),
    ("kelley", "everyone draws a tile and the highest draw plays first"),
    ("gamerules", "whoever turns up [9-9] opens"),
    ("hub8", "whoever holds [9-9] lays it to open"),
])
def test_opener_says_how_the_opener_is_found(name, words):
    assert words in str(opener(PRESETS[name], ["A", "B", "C", "D"], 0))


def test_opener_refuses_bad_players():
    with pytest.raises(RulesError):
        opener(PRESETS["pagat"], "Ann", 0)
    with pytest.raises(RulesError, match="at least 2"):
        opener(PRESETS["pagat"], ["Ann"], 0)
