"""Tiles, sets and what people type (docs/rules.md: set sizes, pips, suits)."""

import pytest

from referee.rules.text import Message, RulesError
from referee.rules.tiles import SET_SIZES, Tile, full_set, parse_hand, parse_tile, pips, set_pips, suit


@pytest.mark.parametrize("top, size", [(6, 28), (9, 55), (12, 91), (15, 136), (18, 190)])
def test_set_sizes(top, size):
    tiles = full_set(top)
    assert SET_SIZES[top] == size
    assert len(tiles) == size
    assert len(set(tiles)) == size
    assert tiles == sorted(tiles, reverse=True)
    assert tiles[0] == Tile(top, top) and tiles[-1] == Tile(0, 0)


def test_double_nine_pips_match_rules_md():
    assert set_pips(9) == 495 == pips(full_set(9))
    assert set_pips(9) / SET_SIZES[9] == 9
    assert Tile(9, 9).pips == 18
    # A 50-point [0-0] costs almost three [9-9]: more than two, less than three.
    assert 2 * 18 < 50 < 3 * 18


@pytest.mark.parametrize("top", sorted(SET_SIZES))
def test_each_number_is_on_top_plus_one_tiles(top):
    for number in range(top + 1):
        tiles = suit(number, top)
        assert len(tiles) == top + 1
        assert sum(tile.is_double for tile in tiles) == 1
        assert all(tile.has(number) for tile in tiles)


def test_tile_is_normalised_and_printed_high_first():
    assert Tile(3, 9) == Tile(9, 3)
    assert str(Tile(3, 9)) == "9-3"
    assert Tile(3, 9).high == 9 and Tile(3, 9).low == 3
    assert Tile(9, 3).pips == 12
    assert Tile(4, 4).is_double and not Tile(4, 3).is_double
    assert Tile(9, 3).has(3) and not Tile(9, 3).has(4)
    assert Tile(9, 3).other(9) == 3 and Tile(4, 4).other(4) == 4
    assert Tile(9, 0) < Tile(9, 1) < Tile(10, 0)


def test_tile_refuses_what_is_not_a_number():
    for bad in ((-1, 2), ("4", 4), (True, 1), (2.0, 1)):
        with pytest.raises(RulesError):
            Tile(*bad)
    with pytest.raises(RulesError, match=r"\[9-3\] does not carry 4"):
        Tile(9, 3).other(4)


@pytest.mark.parametrize("typed, tile", [
    ("9-9", Tile(9, 9)), ("[4-4]", Tile(4, 4)), ("4 4", Tile(4, 4)), ("4|4", Tile(4, 4)),
    ("0-0", Tile(0, 0)), ("blank-blank", Tile(0, 0)), ("blank-3", Tile(3, 0)), ("Blank-3", Tile(3, 0)),
    ("  3-9 ", Tile(9, 3)), ("[ 5 - 2 ]", Tile(5, 2)), ("7/1", Tile(7, 1)), ("6\u20136", Tile(6, 6)),
    (Tile(2, 1), Tile(2, 1)),
])
def test_parse_tile_accepts_what_people_type(typed, tile):
    assert parse_tile(typed) == tile


@pytest.mark.parametrize("typed", ["10-3", "a-b", "-1-2", "1-2-3", "4", "4-", "9-9-", "1000-3"])
def test_parse_tile_names_the_bad_token(typed):
    with pytest.raises(RulesError) as caught:
        parse_tile(typed)
    assert f"'{typed}'" in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_parse_tile_errors_are_translatable():
    with pytest.raises(RulesError) as caught:
        parse_tile("10-3")
    err = caught.value
    assert err.msgid == "'%(token)s' is not a tile of a double-%(top)d set: its numbers run from 0 to %(top)d."
    assert err.params == {"token": "10-3", "top": 9}
    assert str(err) == "'10-3' is not a tile of a double-9 set: its numbers run from 0 to 9."
    assert str(err.message) == str(err) and isinstance(err.message, Message)


def test_parse_tile_in_bigger_sets():
    assert parse_tile("10-3", top=12) == Tile(10, 3)
    assert parse_tile("18-18", top=18) == Tile(18, 18)
    with pytest.raises(RulesError, match="double-6"):
        parse_tile("7-0", top=6)
    with pytest.raises(RulesError, match="double-9"):
        parse_tile(Tile(10, 3), top=9)
    with pytest.raises(RulesError, match="no double-7 set"):
        parse_tile("1-1", top=7)


@pytest.mark.parametrize("junk", ["", "   ", None, 44, 4.4, ["4-4"]])
def test_parse_tile_refuses_non_tiles(junk):
    with pytest.raises(RulesError):
        parse_tile(junk)


def test_parse_hand_from_a_line_or_a_list():
    expected = [Tile(9, 9), Tile(4, 4), Tile(3, 1)]
    assert parse_hand("9-9, 4-4, [3-1]") == expected
    assert parse_hand("9-9 4-4 3-1") == expected
    assert parse_hand("9-9; 4 4;3|1,") == expected
    assert parse_hand(["9-9", Tile(4, 4), " 1-3"]) == expected
    assert parse_hand("") == [] and parse_hand([]) == []


def test_parse_hand_refuses_a_duplicate_naming_it():
    with pytest.raises(RulesError, match=r"\[4-4\] is listed twice"):
        parse_hand("4-4, 9-9, [4-4]")
    with pytest.raises(RulesError, match=r"\[9-3\] is listed twice"):
        parse_hand(["3-9", "9-3"])


def test_parse_hand_names_the_bad_token():
    with pytest.raises(RulesError, match="'10-3'"):
        parse_hand("9-9, 10-3")
    with pytest.raises(RulesError, match="'x'"):
        parse_hand("9-9 x")
    with pytest.raises(RulesError):
        parse_hand(12)
