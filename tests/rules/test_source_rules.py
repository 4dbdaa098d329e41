"""Rules read again from the seeds: each test names the sentence it encodes.

1 Pagat's agreed total ends the match on reaching it; 2 the "next lower double" variant;
3 the hub set's FAQ e belongs to ending a turn on a double; 4 any arm count from 3 to 8;
5 a typed total that holds the [0-0]; 6 a capicu checked against the two ends it names;
7 impossible feet play on for the hub set and the double-foot table; 8 Kelley's double in
the centre; 9 double-twelve for a double-foot table of 7 or 8; 10 the hub set's "highest
double" rounds.
"""

import pytest

from referee.rules.house_rules import (PRESETS, deal, describe, open_rules, preset, round_double, round_doubles,
                                       started_double, table_overrides)
from referee.rules.rulings import judge_foot, missing_double_ruling, out_on_double_ruling
from referee.rules.scoring import PipTotal, match_over, score_round, winners
from referee.rules.team_game import TeamRules, check_capicu, is_capicu, score_hand
from referee.rules.text import RulesError
from referee.rules.tiles import Tile

FOUR = ["Ann", "Bob", "Cy", "Di"]
# Eight of the ten ones on the table: [1-1] can never get its three toes.
EIGHT_ONES = ["1-1", "1-0", "1-2", "1-3", "1-4", "1-5", "1-6", "1-7"]


def words(messages):
    return " ".join(str(message) for message in messages)


# -- 1. Pagat: whoever reaches the agreed total loses -------------------------------------


def test_pagat_match_to_a_total_ends_when_someone_reaches_it():
    # Seed 000: "une partie jouée jusqu'à un total élevé convenu : celui qui l'atteint perd".
    rules = preset("pagat", match_length="target", target=100)
    assert rules.target_ends == "reaching"
    assert not match_over(rules, 4, {"Ann": 99, "Bob": 40})
    assert match_over(rules, 4, {"Ann": 100, "Bob": 40})
    assert winners(rules, {"Ann": 100, "Bob": 40}) == ["Bob"]
    assert "reaches the agreed total loses" in str(rules.sources["target_ends"])


def test_double_foot_keeps_exceeding_and_either_is_a_choice():
    # Seed 004: "tot een speler een afgesproken totaal overschrijdt".
    foot = preset("double-foot", match_length="target", target=100)
    assert foot.target_ends == "exceeding" and not match_over(foot, 4, {"Ann": 100, "Bob": 40})
    assert "exceeds" in str(foot.sources["target_ends"])
    chosen = preset("pagat", match_length="target", target=100, target_ends="exceeding")
    assert not match_over(chosen, 4, {"Ann": 100, "Bob": 40})
    assert str(chosen.sources["target_ends"]) == "Chosen by the table"
    rows = dict((rule, str(text)) for rule, text, _ in describe(chosen))
    assert rows["target_ends"] == "Played to an agreed total: whoever goes over it loses"


# -- 2. Pagat's "next lower double" variant -----------------------------------------------


NEXT_LOWER = preset("pagat", missing_double="next-lower")


def test_a_next_lower_round_starts_on_the_double_the_table_names():
    # Seed 000: "commencer sur le double immédiatement inférieur"; the skipped double is then
    # an ordinary tile (docs/rules.md).
    assert started_double(NEXT_LOWER, 0) == Tile(9, 9)
    assert started_double(NEXT_LOWER, 0, "8-8") == Tile(8, 8)
    assert started_double(NEXT_LOWER, 0, "[7-7]") == Tile(7, 7)  # nobody held [8-8] either
    with pytest.raises(RulesError, match="cannot start on the higher"):
        started_double(NEXT_LOWER, 1, "9-9")
    with pytest.raises(RulesError, match="not a double"):
        started_double(NEXT_LOWER, 0, "8-7")
    with pytest.raises(RulesError, match="only the \u201cnext lower double\u201d variant"):
        started_double(PRESETS["pagat"], 0, "8-8")


def test_the_double_blank_round_says_what_the_variant_does_below_it():
    zero_round = words(missing_double_ruling(NEXT_LOWER, 4, 9))
    assert "no lower double to start on" in zero_round and "until someone finds [0-0]" in zero_round
    assert "next lower double" not in zero_round
    first_round = words(missing_double_ruling(NEXT_LOWER, 4, 0))
    assert "Nobody holds [9-9]: round 1 starts on the next lower double" in first_round
    assert "ordinary tile" in first_round
    assert "[0-0] round, with no lower double" in str(dict((r, w) for r, w, _ in describe(NEXT_LOWER))["missing_double"])


# -- 3. The hub set's FAQ e is about ending a turn, not going out ---------------------------


def test_hub_set_faq_e_is_the_rule_on_ending_a_turn_with_a_double():
    # Seed 001, FAQ e: "Pouvez-vous terminer votre tour avec un double ? Oui, mais ... les autres
    # joueurs doivent terminer le chickenfoot avant que le jeu normal ne reprenne."
    hub = PRESETS["hub8"]
    out = str(hub.sources["out_on_double_penalty"])
    assert "not addressed" in out and "must" not in out and "finish" not in out
    toes = str(hub.sources["toes"])
    assert "end a turn with a double" in toes and "complete that foot before normal play resumes" in toes
    assert "FAQ d and e" in toes
    assert "Going out on a double is allowed" in words(out_on_double_ruling(hub))


# -- 4. Any arm count from 3 to 8 ---------------------------------------------------------


@pytest.mark.parametrize("arms", [3, 4, 5, 6, 7, 8])
def test_any_arm_count_from_three_to_eight(arms):
    # Seed 002: "une partie à quatre joueurs peut nécessiter 4, 5, 6, 7 ou 8 trains".
    rules = preset("gamerules", arms=arms)
    assert rules.arms == arms
    assert judge_foot(rules, "9-9", ["9-9"], starting=True).needed == arms
    assert "4, 5, 6, 7 or 8" in str(PRESETS["gamerules"].sources["arms"])


# -- 5. A typed total that holds the [0-0] --------------------------------------------------


def test_a_typed_total_that_holds_the_double_blank_adds_its_house_value():
    hands = {"Ann": PipTotal(12, True), "Bob": 7, "Cy": "3", "Di": []}
    assert score_round(PRESETS["pagat"], hands, went_out="Di")["Ann"] == 62
    assert score_round(preset("pagat", double_blank=25), hands, went_out="Di")["Ann"] == 37
    assert score_round(PRESETS["gamerules"], hands, went_out="Di")["Ann"] == 12  # face value, 0
    assert score_round(PRESETS["pagat"], {**hands, "Ann": PipTotal(12)}, went_out="Di")["Ann"] == 12
    assert score_round(PRESETS["pagat"], {**hands, "Ann": PipTotal(0, True)}, went_out="Di")["Ann"] == 50


@pytest.mark.parametrize("hands, went_out, fragment", [
    ({"Ann": PipTotal(12, True), "Bob": ["0-0"], "Cy": 3, "Di": []}, "Di", "[0-0] is in the hands of both"),
    ({"Ann": PipTotal(12, True), "Bob": PipTotal(1, True), "Cy": 3, "Di": []}, "Di", "[0-0] is in the hands"),
    ({"Ann": PipTotal(0, True), "Bob": 1, "Cy": 3, "Di": 4}, "Ann", "nothing can be left in that hand"),
    ({"Ann": PipTotal(-1, True), "Bob": 1, "Cy": 3, "Di": []}, "Di", "negative"),
    ({"Ann": PipTotal(600, True), "Bob": 1, "Cy": 3, "Di": []}, "Di", "more than a whole double-9 set"),
    ({"Ann": PipTotal(["9-9"], True), "Bob": 1, "Cy": 3, "Di": []}, "Di", "give the tiles left in hand"),
])
def test_a_typed_double_blank_is_one_tile_like_any_other(hands, went_out, fragment):
    with pytest.raises(RulesError) as caught:
        score_round(PRESETS["pagat"], hands, went_out=went_out)
    assert fragment in str(caught.value)


# -- 6. Capicu: the last tile fits both open ends -------------------------------------------


def test_capicu_ends_are_read_as_written_everywhere():
    # Seed 003: "Sortir avec un domino mixte qui va aux deux bouts, quand les bouts montrent des
    # chiffres différents, ça s'appelle un capicú."
    assert is_capicu("5-3", "[3-5]") and is_capicu("[5-3]", "3 5") and is_capicu("5-3", ["5", 3])
    assert check_capicu("[3-5]", "[5-3]") == Tile(5, 3)
    with pytest.raises(RulesError, match=r"\[5-3\] does not fit both ends \(3 and 6\)"):
        check_capicu("5-3", "[3-6]")


def test_a_capicu_claim_is_checked_against_the_ends_it_names():
    rules = TeamRules(capicu_bonus=25)
    hands = {"Ann": [], "Bob": 3, "Cy": 4, "Di": 5}
    won = score_hand(rules, FOUR, hands, went_out="Ann", capicu=True, last_tile="[5-3]", ends="[3-5]")
    assert won.points == 12 + 25
    with pytest.raises(RulesError, match="does not fit both ends"):
        score_hand(rules, FOUR, hands, went_out="Ann", capicu=True, last_tile="5-3", ends=(3, 6))
    with pytest.raises(RulesError, match="two ends it could go on"):
        score_hand(rules, FOUR, hands, went_out="Ann", capicu=True, last_tile="5-3")


# -- 7. Impossible feet: the hub set and the double-foot table play on -------------------------


@pytest.mark.parametrize("name, cited", [
    ("hub8", "FAQ b and f"),
    ("double-foot", "the round ends when the pot is empty and nobody can play"),
])
def test_hub_set_and_double_foot_table_play_on_with_the_counts(name, cited):
    # Seed 001, FAQ b and f; seed 004: draw one, play it if you can, else pass.
    rules = PRESETS[name]
    assert rules.impossible_foot == "play-on" and open_rules(rules) == []
    assert cited in str(rules.sources["impossible_foot"])
    ruling = judge_foot(rules, "1-1", EIGHT_ONES, drawable=4)
    assert ruling.outcome == "play-on" and not ruling.completable
    assert "Tiles that can still be laid on it: 2; missing: 3." in ruling.explanation
    assert "Play goes on" in ruling.explanation and "(4 left)" in ruling.explanation
    assert cited in str(ruling.rule)


def test_pagat_still_leaves_the_impossible_foot_to_the_table():
    assert open_rules(PRESETS["pagat"]) == ["impossible_foot"]


# -- 8. Kelley: the double is in the centre ----------------------------------------------------


def test_kelley_has_no_missing_double_and_no_double_in_the_boneyard():
    kelley = PRESETS["kelley"]
    assert kelley.missing_double == "cannot-happen"
    assert all(deal(kelley, n).double_in_boneyard == 0 for n in range(2, 7))
    text = words(missing_double_ruling(kelley, 4))
    assert "put in the centre before play" in text and "%" not in text
    with pytest.raises(RulesError, match="choose what happens when nobody holds it"):
        preset("kelley", opening="holder")


# -- 9. Double-foot table of 7 or 8: double-twelve by the player count --------------------------


def test_seven_or_eight_at_a_double_foot_table_play_double_twelve():
    # Seed 004: "zeven of acht spelers gebruiken de dubbel-twaalf-set van 91 stenen en spelen er
    # dertien, vanaf 12-12".
    assert table_overrides("double-foot", {}, 8) == {"players_min": 7}
    assert table_overrides("double-foot", {"match_length": "half"}, 7) == {"match_length": "half", "players_min": 7}
    assert table_overrides("double-foot", {}, 6) == {}
    assert table_overrides("pagat", {}, 6) == {}
    big = preset("double-foot", **table_overrides("double-foot", {}, 8))
    assert big.set == 12 and (big.players_min, big.players_max) == (7, 8)
    assert round_doubles(big)[0] == Tile(12, 12) and len(round_doubles(big)) == 13
    assert deal(big, 7).per_player == 10 and deal(big, 8).per_player == 9
    assert "set by the player count" in str(big.sources["set"])
    assert str(big.sources["deal_table"]) == "Double chicken foot table" and "deal_table" not in big.borrowed


def test_two_to_six_keep_double_nine_and_a_chosen_set_wins():
    assert PRESETS["double-foot"].set == 9 and len(round_doubles(PRESETS["double-foot"])) == 10
    with pytest.raises(RulesError, match="7 or more players play a double-12 set"):
        deal(PRESETS["double-foot"], 8)
    assert table_overrides("double-foot", {"set": 9}, 8) == {"set": 9}
    chosen = preset("double-foot", set=12)
    assert str(chosen.sources["set"]) == "Chosen by the table" and chosen.big_table == ()


# -- 10. The hub set's "each round starts with the highest double" --------------------------------


def test_hub_set_rounds_may_all_start_on_the_highest_double():
    # Seed 001, section 2: "Chaque tour commence avec le double domino le plus élevé, selon votre jeu".
    hub = PRESETS["hub8"]
    assert hub.round_start == "descending" and "round_start" in hub.borrowed
    assert "each round starts with the highest double of your set" in str(hub.sources["round_start"])
    highest = preset("hub8", round_start="highest")
    assert round_doubles(highest) == [Tile(9, 9)] * 10 and round_double(highest, 9) == Tile(9, 9)
    rows = dict((rule, str(text)) for rule, text, _ in describe(highest))
    assert rows["match_length"] == "10 rounds, each on [9-9]"
    assert rows["round_start"] == "The highest double, every round"
