"""Every preset against every row of docs/rules.md's "Where the sources differ" table."""

import dataclasses

import pytest

from referee.rules.house_rules import OPEN, OPTIONS, PRESETS, RULE_FIELDS, SET_ASIDE_OPENINGS, HouseRules, deal, \
    describe, keep_back_count, open_rules, preset
from referee.rules.text import Message, RulesError

NAMES = ["pagat", "pagat-reduced", "kelley", "gamerules", "hub8", "double-foot"]
PUREMCO = ((2, 20), (3, 14), (4, 11), (5, 9), (6, 7))


def rule(name, field):
    return getattr(PRESETS[name], field)


def test_the_six_presets_exist_and_are_immutable():
    assert list(PRESETS) == NAMES
    for name, rules in PRESETS.items():
        assert isinstance(rules, HouseRules) and rules.name == name
        assert preset(name) == rules
        with pytest.raises(dataclasses.FrozenInstanceError):
            rules.arms = 3
        assert set(rules.sources) == set(RULE_FIELDS)
        assert all(isinstance(note, Message) for note in rules.sources.values())


def test_every_preset_plays_double_nine_with_three_toes_down_to_double_blank():
    for name in NAMES:
        assert rule(name, "set") == 9
        assert rule(name, "toes") == 3
        assert rule(name, "match_length") == "full"


@pytest.mark.parametrize("name, low, high", [
    ("pagat", 2, 6), ("pagat-reduced", 2, 6), ("kelley", 2, 6), ("gamerules", 2, 8), ("hub8", 2, 8),
    ("double-foot", 2, 6)])
def test_players(name, low, high):
    assert (rule(name, "players_min"), rule(name, "players_max")) == (low, high)


def test_double_foot_seats_seven_and_eight_on_double_twelve():
    rules = preset("double-foot", set=12)
    assert (rules.players_min, rules.players_max) == (2, 8)
    assert deal(rules, 7).per_player == 10 and deal(rules, 8).per_player == 9


@pytest.mark.parametrize("name, table", [
    ("pagat", PUREMCO),
    ("pagat-reduced", ((2, 12), (3, 11), (4, 10), (5, 9), (6, 7))),
    ("kelley", PUREMCO),
    ("gamerules", ((2, 21), (3, 14), (4, 11), (5, 8), (6, 7), (7, 6), (8, 5))),
    ("hub8", PUREMCO + ((7, 6), (8, 5))),
    ("double-foot", PUREMCO),
])
def test_double_nine_deal(name, table):
    assert rule(name, "deal_table") == table


def test_kelley_borrows_puremcos_deal_and_says_so():
    kelley = PRESETS["kelley"]
    assert "deal_table" in kelley.borrowed
    assert "Puremco" in str(kelley.sources["deal_table"])
    assert "Kelley" in str(kelley.sources["deal_table"])
    assert "deal_table" not in PRESETS["pagat"].borrowed


@pytest.mark.parametrize("name, top, players, each", [
    ("pagat", 12, 4, 18), ("pagat", 15, 6, 18), ("pagat", 15, 12, 9), ("kelley", 12, 4, 15),
    ("double-foot", 12, 7, 10), ("double-foot", 12, 8, 9)])
def test_bigger_set_deals(name, top, players, each):
    assert deal(preset(name, set=top), players).per_player == each


def test_a_bigger_set_without_a_published_deal_uses_the_documented_fallback():
    rules = preset("gamerules", set=12)
    assert dict(rules.deal_table)[4] == 72 // 4  # four fifths of 91 tiles, shared by 4
    assert "deal_table" in rules.borrowed
    assert "four fifths" in str(rules.sources["deal_table"])
    pagat15 = preset("pagat", set=15)
    assert dict(pagat15.deal_table)[9] == 12 and pagat15.players_max == 12
    assert "Puremco for 6, 12 players" in str(pagat15.sources["deal_table"])


def test_double_six_deals_for_two_to_four():
    rules = preset("pagat", set=6)
    assert rules.deal_table == ((2, 11), (3, 7), (4, 5))
    assert deal(rules, 2).boneyard == 6


@pytest.mark.parametrize("name, opening, missing", [
    ("pagat", "holder", "draw-until-found"), ("pagat-reduced", "holder", "draw-until-found"),
    ("kelley", "highest-draw", "cannot-happen"), ("gamerules", "turn-up", "cannot-happen"),
    ("hub8", "holder", "draw-until-found"), ("double-foot", "centre-rotate", "cannot-happen")])
def test_who_lays_the_double_and_when_nobody_holds_it(name, opening, missing):
    assert rule(name, "opening") == opening
    assert rule(name, "missing_double") == missing


def test_kelley_puts_the_double_in_the_centre_so_nobody_can_be_missing_it():
    # Seed 000: under Kelley the double is put in the centre and the highest draw plays first.
    kelley = PRESETS["kelley"]
    assert "missing_double" not in kelley.borrowed
    assert "in the centre before play" in str(kelley.sources["missing_double"])
    assert "highest draw plays first" in str(kelley.sources["opening"])
    assert deal(kelley, 4).double_in_boneyard == 0
    assert deal(kelley, 4).boneyard == 55 - 44 - 1  # the double is on the table, not in the boneyard


def test_pagat_variants_for_a_missing_double():
    assert preset("pagat", missing_double="next-lower").missing_double == "next-lower"
    assert preset("pagat", missing_double="set-aside-before-deal").missing_double == "set-aside-before-deal"


@pytest.mark.parametrize("name, arms", [
    ("pagat", 4), ("pagat-reduced", 4), ("kelley", 4), ("gamerules", "per-player"), ("hub8", 8),
    ("double-foot", 6)])
def test_arms_on_the_starting_double(name, arms):
    assert rule(name, "arms") == arms


def test_pagat_arm_variants():
    assert preset("pagat", arms=6).arms == 6  # double chicken foot: 3 per side
    assert preset("pagat", arms=3).arms == 3  # some tables (unsourced)
    assert "arms" in PRESETS["kelley"].borrowed


@pytest.mark.parametrize("name, must", [
    ("pagat", False), ("pagat-reduced", False), ("kelley", False), ("gamerules", True), ("hub8", False),
    ("double-foot", True)])
def test_drawn_tile_that_fits(name, must):
    assert rule(name, "must_play_drawn") is must


def test_hub_set_borrows_the_drawn_tile_rule():
    assert "must_play_drawn" in PRESETS["hub8"].borrowed


def test_keep_back():
    gamerules = PRESETS["gamerules"]
    assert gamerules.keep_back == "gamerules"
    assert [keep_back_count(gamerules, n) for n in (2, 3, 8)] == [2, 1, 1]
    for name in NAMES:
        if name != "gamerules":
            assert rule(name, "keep_back") == "none"
            assert keep_back_count(PRESETS[name], 2) == 0


@pytest.mark.parametrize("name, policy", [
    ("pagat", OPEN), ("pagat-reduced", OPEN), ("kelley", "play-on"), ("gamerules", "play-on"), ("hub8", "play-on"),
    ("double-foot", "play-on")])
def test_impossible_foot(name, policy):
    assert rule(name, "impossible_foot") == policy
    assert open_rules(PRESETS[name]) == (["impossible_foot"] if policy == OPEN else [])


def test_settling_the_open_rule_closes_it():
    assert open_rules(preset("pagat", impossible_foot="round-ends")) == []


@pytest.mark.parametrize("name, value", [
    ("pagat", 50), ("pagat-reduced", 50), ("kelley", 50), ("gamerules", 0), ("hub8", 50), ("double-foot", 50)])
def test_double_blank(name, value):
    assert rule(name, "double_blank") == value


def test_double_blank_variants():
    assert preset("pagat", double_blank=25).double_blank == 25
    assert preset("gamerules", double_blank="50").double_blank == 50


@pytest.mark.parametrize("name, penalty", [
    ("pagat", 0), ("pagat-reduced", 0), ("kelley", 50), ("gamerules", 0), ("hub8", 0), ("double-foot", 0)])
def test_going_out_on_a_double(name, penalty):
    assert rule(name, "out_on_double_penalty") == penalty


def test_chicken_little_is_off_unless_chosen():
    for name in NAMES:
        assert rule(name, "chicken_little") == 0
    assert preset("pagat", chicken_little=1).chicken_little == 1


def test_match_length_variants():
    assert preset("pagat", match_length="target", target=250).target == 250
    assert preset("double-foot", match_length="half").match_length == "half"
    assert preset("double-foot", match_length="one-round").match_length == "one-round"
    assert "match_length" in PRESETS["hub8"].borrowed


@pytest.mark.parametrize("name, tie", [
    ("pagat", "draw"), ("pagat-reduced", "draw"), ("kelley", "draw"), ("gamerules", "draw"),
    ("hub8", "first-out-wins"), ("double-foot", "draw")])
def test_equal_lowest_totals(name, tie):
    assert rule(name, "tie") == tie


# -- copies, coercion and refusals ------------------------------------------------------


def test_overrides_from_a_form_are_coerced():
    rules = preset("Pagat", set="12", arms="8", double_blank="25", out_on_double_penalty="50",
                   must_play_drawn="true", impossible_foot="Released", chicken_little="1", tie="first_out_wins")
    assert (rules.set, rules.arms, rules.double_blank, rules.out_on_double_penalty) == (12, 8, 25, 50)
    assert rules.must_play_drawn is True and rules.impossible_foot == "released"
    assert rules.chicken_little == 1 and rules.tie == "first-out-wins"
    assert preset("gamerules", must_play_drawn="False").must_play_drawn is False
    assert preset("gamerules", arms=" per-player ").arms == "per-player"
    assert preset("pagat", deal_table="2:18, 3:13 4:10", players_max="4").deal_table == ((2, 18), (3, 13), (4, 10))
    assert preset("pagat", match_length="target", target="300", players_min=4).players_min == 4


def test_contract_overrides():
    assert preset("kelley", set=6, arms=4).set == 6
    for value in (50, 25, 0):
        assert preset("kelley", double_blank=value).double_blank == value
    for value in (0, 50):
        assert preset("pagat", out_on_double_penalty=value).out_on_double_penalty == value
    for value in ("play-on", "round-ends", "released", "table-decides"):
        assert preset("kelley", impossible_foot=value).impossible_foot == value


def test_changed_rules_are_noted_as_chosen_by_the_table():
    rules = preset("kelley", arms=6, double_blank=50)
    assert str(rules.sources["arms"]) == "Chosen by the table"
    assert "arms" not in rules.borrowed
    assert str(rules.sources["double_blank"]) == "Kelley"  # unchanged value keeps its source


def test_the_presets_are_left_untouched_by_copies():
    preset("pagat", arms=8, set=12)
    assert PRESETS["pagat"].arms == 4 and PRESETS["pagat"].set == 9


@pytest.mark.parametrize("call, words", [
    (lambda: preset("mexican-train"), "no preset called 'mexican-train'"),
    (lambda: preset(None), "no preset called"),
    (lambda: preset("pagat", colour="red"), "'colour' is not a house rule"),
    (lambda: preset("pagat", name="kelley"), "'name' is not a house rule"),
    (lambda: preset("pagat", sources={}), "'sources' is not a house rule"),
    (lambda: preset("pagat", arms=9), "'9' is not a choice for arms: choose one of 3, 4, 5, 6, 7, 8, per-player"),
    (lambda: preset("pagat", arms=2), "'2' is not a choice for arms"),
    (lambda: preset("pagat", set=6, arms=7), "each number is on only 6 tiles besides its double"),
    (lambda: preset("pagat", set=10), "no double-10 set"),
    (lambda: preset("pagat", set=6, arms=8), "each number is on only 6 tiles besides its double"),
    (lambda: preset("pagat", double_blank=30), "not a choice for double_blank"),
    (lambda: preset("pagat", out_on_double_penalty=25), "not a choice for out_on_double_penalty"),
    (lambda: preset("pagat", impossible_foot="argue"), "not a choice for impossible_foot"),
    (lambda: preset("pagat", toes=4), "not a choice for toes"),
    (lambda: preset("pagat", must_play_drawn="maybe"), "'maybe' is not yes or no"),
    (lambda: preset("pagat", set="nine"), "'nine' is not a whole number"),
    (lambda: preset("pagat", players_max=9), "too small for 9 players"),
    (lambda: preset("gamerules", deal_table="2:21 9:5"), "too small for 9 players"),
    (lambda: preset("pagat", deal_table="4:14"), "more than a double-9 set allows under these rules: at most 13"),
    (lambda: preset("gamerules", deal_table="2:27"), "at most 26 each"),
    (lambda: preset("pagat", players_max=7), "says nothing for 7 players"),
    (lambda: preset("pagat", players_min=5, players_max=4), "cannot be more than the most"),
    (lambda: preset("pagat", players_min=1), "at least 2 players"),
    (lambda: preset("pagat", deal_table="2:20 2:21"), "two deals for 2 players"),
    (lambda: preset("pagat", deal_table="twenty"), "not a deal table"),
    (lambda: preset("kelley", set=12, deal_table={}), "deal table is empty"),  # with another set too
    (lambda: preset("pagat", match_length="target"), "needs that total"),
    (lambda: preset("pagat", target=100), "only counts when the match is played to a total"),
    (lambda: preset("pagat", match_length="target", target=0), "above 0"),
    (lambda: preset("double-foot", opening="holder"), "choose what happens when nobody holds it"),
    (lambda: preset("pagat", opening="turn-up"), "must be 'cannot-happen'"),
])
def test_nonsense_is_refused_saying_why(call, words):
    with pytest.raises(ValueError) as caught:
        call()
    assert isinstance(caught.value, RulesError)
    assert words in str(caught.value)


def test_a_coherent_change_of_opening_is_accepted():
    rules = preset("double-foot", opening="holder", missing_double="draw-until-found")
    assert deal(rules, 4).double_in_boneyard == pytest.approx(11 / 55)


def test_options_cover_the_overridable_rules():
    assert OPTIONS["set"] == (6, 9, 12, 15, 18)
    assert OPTIONS["arms"] == (3, 4, 5, 6, 7, 8, "per-player")
    assert OPTIONS["impossible_foot"] == ("play-on", "round-ends", "released", OPEN)
    for name, allowed in OPTIONS.items():
        for value in allowed:
            if (name, value) == ("arms", 8):
                continue  # fine on double-nine, tested above for double-six
            overrides = {name: value}
            if name == "match_length" and value == "target":
                overrides["target"] = 200
            if name == "opening":
                overrides["missing_double"] = "cannot-happen" if value in SET_ASIDE_OPENINGS else "draw-until-found"
            if name == "missing_double" and value == "cannot-happen":
                overrides["opening"] = "turn-up"
            assert getattr(preset("pagat", **overrides), name) == value
            assert getattr(preset("pagat", **{k: str(v) for k, v in overrides.items()}), name) == value


def test_describe_gives_every_rule_in_words_with_its_source():
    rows = describe(PRESETS["pagat"])
    assert [row[0] for row in rows] == [
        "set", "deal_table", "players", "opening", "missing_double", "arms", "toes", "must_play_drawn",
        "keep_back", "impossible_foot", "double_blank", "out_on_double_penalty", "chicken_little",
        "match_length", "round_start", "tie"]
    words = {row[0]: str(row[1]) for row in rows}
    assert words["set"] == "Double-9, 55 tiles"
    assert words["deal_table"] == "Tiles each, by number of players: 2: 20, 3: 14, 4: 11, 5: 9, 6: 7"
    assert words["match_length"] == "10 rounds, from [9-9] down to [0-0]"
    assert words["double_blank"] == "Counts 50 points"
    assert str(dict((r[0], r[2]) for r in rows)["impossible_foot"]) == "Pagat does not address it: the table decides"
    foot_sources = dict((r[0], str(r[2])) for r in describe(PRESETS["double-foot"]))
    assert foot_sources["players"] == "Double chicken foot table: up to 6 on double-nine; 7-8 play double-twelve"
    for name in NAMES:
        for _, value, source in describe(PRESETS[name]):
            assert str(value) and str(source)
    target = dict((r[0], str(r[1])) for r in describe(preset("pagat", match_length="target", target=150)))
    assert target["match_length"] == "Until someone reaches 150 points; that player loses"
    assert target["target_ends"] == "Played to an agreed total: whoever reaches it loses"
