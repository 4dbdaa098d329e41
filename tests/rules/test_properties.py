"""Properties over random deals and random junk input."""


from hypothesis import given
from hypothesis import strategies as st

from referee.rules.house_rules import PRESETS, RULE_FIELDS, deal, double_set_aside, opener, preset, round_double
from referee.rules.rulings import judge_foot
from referee.rules.scoring import hand_points, score_round, winners
from referee.rules.tiles import Tile, full_set, parse_hand, parse_tile, suit
from tests.rules import fuzz
from tests.rules.fuzz import FAST, only_rules_errors

# REFEREE_EXAMPLES=3000 runs a long hunt; the default keeps the suite fast.

ALL_RULES = list(PRESETS.values()) + [preset(name, set=top) for name in ("pagat", "gamerules", "double-foot")
                                      for top in (6, 12, 15, 18)]
rules_and_players = st.sampled_from(ALL_RULES).flatmap(
    lambda rules: st.tuples(st.just(rules), st.integers(rules.players_min, rules.players_max)))


def shuffled_deal(rules, players, rng):
    """Deal a shuffled set as the numbers say: the round's double aside if the rules do so."""
    tiles = full_set(rules.set)
    rng.shuffle(tiles)
    dealt = deal(rules, players)
    aside = [Tile(rules.set, rules.set)] if double_set_aside(rules) else []
    rest = [tile for tile in tiles if tile not in aside]
    hands = [rest[i * dealt.per_player:(i + 1) * dealt.per_player] for i in range(players)]
    boneyard = rest[players * dealt.per_player:]
    return dealt, aside, hands, boneyard


@FAST
@given(rules_and_players, st.randoms(use_true_random=False))
def test_a_deal_conserves_every_tile(pair, rng):
    rules, players = pair
    dealt, aside, hands, boneyard = shuffled_deal(rules, players, rng)
    everything = aside + [tile for hand in hands for tile in hand] + boneyard
    assert sorted(everything) == sorted(full_set(rules.set))
    assert all(len(hand) == dealt.per_player for hand in hands)
    assert len(boneyard) == dealt.boneyard
    assert dealt.drawable == len(boneyard) - dealt.keep_back >= 0


@FAST
@given(rules_and_players, st.randoms(use_true_random=False), st.booleans(), st.booleans())
def test_round_scores_add_up(pair, rng, someone_out, on_double):
    rules, players = pair
    _, _, hands, _ = shuffled_deal(rules, players, rng)
    names = [f"P{i}" for i in range(players)]
    left = {name: hand[:rng.randint(1, len(hand))] for name, hand in zip(names, hands)}
    went_out = rng.choice(names) if someone_out else None
    if went_out:
        left[went_out] = []
    scores = score_round(rules, {n: [str(t) for t in hand] for n, hand in left.items()}, went_out=went_out,
                         out_on_double=on_double and someone_out)
    penalty = rules.out_on_double_penalty if on_double and someone_out else 0
    assert sum(scores.values()) == sum(hand_points(rules, hand) for hand in left.values()) + penalty
    assert all(points >= 0 for points in scores.values())
    if went_out:
        assert scores[went_out] == penalty
    as_totals = {n: hand_points(rules, hand) for n, hand in left.items()}
    assert score_round(rules, as_totals, went_out=went_out, out_on_double=on_double and someone_out) == scores
    assert set(winners(rules, scores, first_out=went_out)) <= set(names)


@st.composite
def tables(draw):
    rules = draw(st.sampled_from(list(PRESETS.values()) + [preset("pagat", set=6), preset("kelley", set=12)]))
    top = rules.set
    number = draw(st.integers(0, top))
    double = Tile(number, number)
    others = [tile for tile in full_set(top) if tile != double]
    laid_against = draw(st.sampled_from([t for t in suit(number, top) if t != double]))
    elsewhere = draw(st.lists(st.sampled_from(others), unique=True, max_size=len(others)))
    table = list(dict.fromkeys([double, laid_against] + elsewhere))
    carrying = sum(tile.has(number) for tile in table)
    toes = draw(st.integers(0, min(rules.toes, carrying - 2)))
    drawable = draw(st.integers(0, len(full_set(top)) - len(table)))
    return rules, double, table, toes, drawable


@FAST
@given(tables())
def test_no_foot_is_completable_with_fewer_unseen_tiles_than_missing_toes(case):
    rules, double, table, toes, drawable = case
    ruling = judge_foot(rules, double, table, toes_laid=toes, drawable=drawable)
    number = double.high
    assert ruling.unseen == [t for t in suit(number, rules.set) if t not in table]
    assert len(ruling.unseen) == rules.set + 1 - sum(t.has(number) for t in table)
    assert ruling.toes_missing == rules.toes - toes
    assert ruling.completable == (len(ruling.unseen) >= ruling.toes_missing)
    if len(ruling.unseen) < ruling.toes_missing:
        assert not ruling.completable and ruling.outcome == rules.impossible_foot
    else:
        assert ruling.outcome == "completable"
    assert str(len(ruling.unseen)) in ruling.explanation


# -- junk ---------------------------------------------------------------------------------

junk = fuzz.junk(["9-9", "4 4", "[0-0]", "blank-3", "10-3", "-1-2", "per-player", "true", "table-decides", "2:20",
                  "12", "-5", "", "pagat", "kelley"], tile_top=20, text_size=12, key_size=5, leaves=12)
rule_names = st.one_of(st.sampled_from(RULE_FIELDS), st.text(max_size=8))
presets = st.sampled_from(list(PRESETS.values()))


@FAST
@given(junk, st.one_of(st.sampled_from([6, 9, 12, 15, 18]), junk))
def test_junk_tiles_only_raise_rules_errors(value, top):
    only_rules_errors(parse_tile, value, top)
    only_rules_errors(parse_hand, value, 9)


@FAST
@given(st.one_of(st.sampled_from(list(PRESETS)), junk), st.dictionaries(rule_names, junk, max_size=4))
def test_junk_presets_only_raise_rules_errors(name, overrides):
    only_rules_errors(preset, name, **overrides)


@FAST
@given(presets, junk, junk, junk, junk)
def test_junk_rounds_only_raise_rules_errors(rules, hands, went_out, out_on_double, blocked):
    only_rules_errors(score_round, rules, hands, went_out=went_out, out_on_double=out_on_double, blocked=blocked)


@FAST
@given(presets, st.dictionaries(st.text(max_size=4), junk, max_size=4), junk)
def test_junk_hands_per_player_only_raise_rules_errors(rules, hands, went_out):
    only_rules_errors(score_round, rules, hands, went_out=went_out)


@FAST
@given(presets, junk, junk, junk, junk, junk, junk)
def test_junk_feet_only_raise_rules_errors(rules, double, on_table, toes, drawable, starting, players):
    only_rules_errors(judge_foot, rules, double, on_table, toes_laid=toes, drawable=drawable, starting=starting,
                      players=players)
    only_rules_errors(judge_foot, rules, "1-1", ["1-1", "1-9"] + (on_table if isinstance(on_table, list) else []),
                      toes_laid=toes, drawable=drawable)


@FAST
@given(presets, junk, junk)
def test_junk_deals_and_rounds_only_raise_rules_errors(rules, players, index):
    only_rules_errors(deal, rules, players)
    only_rules_errors(round_double, rules, index)
    only_rules_errors(opener, rules, players, index)

