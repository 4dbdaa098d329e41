"""Reading rendered Chicken Foot tables: lines of touching tiles, doubles across their line,
feet, face-down tiles beside, from above and from a seat, on several tables."""

import numpy as np
import pytest

import vision
from tools.generators.table_photos import make_table

pytestmark = pytest.mark.vision

# (seed, table, elevation, style): small renders, 14 to 20 tiles each
CASES = [
    (3, "paper", 90, "ivory"),
    (11, "wood", 60, "ivory_spinner"),
    (12, "felt", 45, "white_colour"),
    (14, "cloth", 35, "black"),
]


@pytest.mark.parametrize("seed, table, elevation, style", CASES)
def test_a_table_is_read_tile_for_tile(seed, table, elevation, style):
    truth = make_table(np.random.default_rng(seed), n_tiles=16, size=(1000, 750), elevation=elevation,
                       background=table, style=style, face_down=3)
    hand = vision.read_table(truth.encode())
    assert sorted((t.a, t.b) for t in hand.tiles) == sorted(truth.tiles)
    assert all(len(t.polygon) == 4 and 0 < t.confidence <= 1 for t in hand.tiles)


@pytest.mark.parametrize("seed, table", [(3, "felt"), (6, "felt"), (13, "wood"), (19, "wood")])
def test_a_table_seen_from_a_seat_is_read_by_the_finder_trained_on_tables(seed, table):
    """Tables of 10 to 24 tiles (as many of 24 as each layout holds) seen from a seat at 38
    degrees, doubles crowded by their toes: the hands' finder gives no box on some of
    them (these four lose a tile or more with it); the one trained on tables gives every
    tile's."""
    truth = make_table(np.random.default_rng(seed), n_tiles=24, size=(1200, 900), elevation=38,
                       background=table, face_down=3)
    hand = vision.read_table(truth.encode())
    assert sorted((t.a, t.b) for t in hand.tiles) == sorted(truth.tiles)


@pytest.mark.parametrize("seed, table", [(1, "wood"), (4, "paper"), (6, "wood"), (10, "felt")])
def test_a_table_seen_from_a_seat_is_read_on_its_view_from_above(seed, table):
    """30-tile tables (as many as each layout holds) seen from a seat at 34 degrees: on
    the photo the finder's boxes lie across touching tiles and these four lose tiles;
    turned to the view from above, every tile is read, and its outline is put back on the
    photo where the tile lies."""
    truth = make_table(np.random.default_rng(seed), n_tiles=30, size=(1200, 900), elevation=34,
                       background=table, face_down=3)
    hand = vision.read_table(truth.encode())
    assert sorted((t.a, t.b) for t in hand.tiles) == sorted(truth.tiles)
    where = {(max(a, b), min(a, b)): p for (a, b), p in zip(truth.tiles, truth.polygons)}
    for t in hand.tiles:
        true = where[(t.a, t.b)]
        width = np.linalg.norm(true[0] - true[1])
        assert np.linalg.norm(np.mean(t.polygon, axis=0) - true.mean(axis=0)) < 0.6 * width, t


def test_the_view_from_above_shows_big_tiles_no_wider_than_the_networks_read_them():
    """Close to the table the nearest tiles are wide; the view is made with its tiles
    TILE_WIDTH wide, a smaller picture to look over, and they are read all the same."""
    from vision import table_view
    from vision.loading import load_photo

    seat = make_table(np.random.default_rng(1), n_tiles=30, size=(2000, 1500), elevation=34, background="wood")
    hand = vision.read_table(seat.encode("png"))
    assert sorted((t.a, t.b) for t in hand.tiles) == sorted(seat.tiles)
    photo = load_photo(seat.encode("png"))
    outlines = [np.array(t.polygon, np.float64) / photo.scale for t in hand.tiles]  # on the photo as decoded
    assert max(np.linalg.norm(o[0] - o[1]) for o in outlines) > 1.5 * table_view.TILE_WIDTH
    view = table_view.from_above(photo.bgr, outlines, [True] * len(outlines))
    on_view = [table_view._mapped(o, np.linalg.inv(view.to_photo)) for o in outlines]
    assert np.median([np.linalg.norm(o[0] - o[1]) for o in on_view]) < 1.05 * table_view.TILE_WIDTH


def test_a_table_seen_from_above_is_not_turned():
    """A photo taken from above shows no tilt: its own reading stands."""
    from vision import table_view
    from vision.loading import load_photo

    truth = make_table(np.random.default_rng(3), n_tiles=16, size=(1000, 750), elevation=90,
                       background="paper", style="ivory")
    hand = vision.read_table(truth.encode())
    detail = load_photo(truth.encode()).bgr
    outlines = [np.array(t.polygon, np.float64) for t in hand.tiles]
    assert table_view.from_above(detail, outlines, [True] * len(outlines)) is None
    seat = make_table(np.random.default_rng(1), n_tiles=30, size=(1200, 900), elevation=34, background="wood")
    hand = vision.read_table(seat.encode())
    outlines = [np.array(t.polygon, np.float64) for t in hand.tiles]
    view = table_view.from_above(load_photo(seat.encode()).bgr, outlines, [True] * len(outlines))
    assert view is not None and max(view.bgr.shape) <= table_view.MAX_SIDE


def test_a_view_from_above_that_reads_fewer_tiles_is_not_taken(monkeypatch):
    """A tilt told wrong gives a view with less of the table in it: where the view reads
    fewer tiles than the quick look did on the photo, the photo's own reading stands."""
    from vision import table_view

    truth = make_table(np.random.default_rng(3), n_tiles=16, size=(1000, 750), elevation=90,
                       background="paper", style="ivory")
    blank = table_view.View(bgr=np.full((300, 400, 3), 200, np.uint8), to_photo=np.eye(3))
    monkeypatch.setattr(table_view, "from_above", lambda *a: blank)
    hand = vision.read_table(truth.encode())
    assert sorted((t.a, t.b) for t in hand.tiles) == sorted(truth.tiles)


def test_a_doubles_toes_are_the_tiles_of_its_number_touching_it():
    truth = make_table(np.random.default_rng(3), n_tiles=16, size=(1000, 750), elevation=90,
                       background="paper", style="ivory")
    hand = vision.read_table(truth.encode())
    for (number, _), toes in truth.doubles.items():
        index = next(k for k, t in enumerate(hand.tiles) if (t.a, t.b) == (number, number))
        touching = [k for k in hand.touching(index) if number in (hand.tiles[k].a, hand.tiles[k].b)]
        laid_against = 0 if (number, number) == truth.start else 1
        assert len(touching) == toes + laid_against, (number, toes)


def test_each_tile_s_outline_starts_at_its_higher_half_s_end():
    """Which end of a tile lies against a double tells a toe from a tile passing by: the
    first two points of each tile's outline are the ends of its `a` half's side."""
    truth = make_table(np.random.default_rng(3), n_tiles=16, size=(1000, 750), elevation=90,
                       background="paper", style="ivory")
    hand = vision.read_table(truth.encode())
    ends = {}
    for (a, b), poly in zip(truth.halves, truth.polygons):
        ends[(max(a, b), min(a, b))] = (poly[0] + poly[1]) / 2 if a >= b else (poly[2] + poly[3]) / 2
    checked = 0
    for t in hand.tiles:
        if t.a != t.b:
            p = np.array(t.polygon)
            assert np.linalg.norm((p[0] + p[1]) / 2 - ends[(t.a, t.b)]) < np.linalg.norm(p[0] - p[1]), t
            checked += 1
    assert checked >= 10


def test_a_tables_boneyard_sends_it_to_no_slower_look(monkeypatch):
    """Ivory tiles on wood with four face-down tiles of their colour beside: read as a
    hand, the backs send the photo on to the classical looks; read as a table, the quick
    look's reading, every tile right, is taken."""
    from vision import classical_look

    truth = make_table(np.random.default_rng(20), n_tiles=16, size=(1000, 750), elevation=90,
                       background="wood", style="ivory", face_down=4)
    data = truth.encode()
    looked = []
    first_looks = classical_look.first_looks
    monkeypatch.setattr(classical_look, "first_looks", lambda *a, **k: looked.append(1) or first_looks(*a, **k))
    assert sorted((t.a, t.b) for t in vision.read_hand(data).tiles) == sorted(truth.tiles)
    assert looked
    looked.clear()
    assert sorted((t.a, t.b) for t in vision.read_table(data).tiles) == sorted(truth.tiles)
    assert not looked


def test_the_annotated_table_can_highlight_a_number():
    truth = make_table(np.random.default_rng(3), n_tiles=12, size=(800, 600), elevation=90)
    hand = vision.read_table(truth.encode())
    plain, marked = hand.annotated(), hand.annotated(highlight=[0])
    assert plain[:2] == marked[:2] == b"\xff\xd8" and plain != marked
