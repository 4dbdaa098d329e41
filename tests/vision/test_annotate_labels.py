"""The annotated photo as a phone shows it: its labels drawn to read the same size whatever
the photo's width, and its total in the corner left out for a caller that shows its own."""

import cv2
import numpy as np
import pytest

from vision import annotate
from vision.result import Hand, Tile


@pytest.mark.parametrize("width", [600, 900, 1600])
def test_labels_read_about_eleven_pixels_tall_on_a_phone(width):
    scale = annotate.label_font(width)
    height = cv2.getTextSize("4: 8|3", cv2.FONT_HERSHEY_SIMPLEX, scale, 2)[0][1]  # its stroke included
    shown = height * annotate.SHOWN_WIDTH / width  # the photo shown 336 CSS pixels wide
    assert 10 <= shown <= 14, shown
    assert annotate.label_font(200) == 0.5  # a tiny image keeps a legible floor


def test_the_total_in_the_corner_can_be_left_out():
    photo = np.full((600, 900, 3), 90, np.uint8)
    hand = Hand([Tile(6, 5, ((400.0, 200.0), (600.0, 200.0), (600.0, 300.0), (400.0, 300.0)), 0.95)], 900, 600)
    with_total = cv2.imdecode(np.frombuffer(annotate.render(photo, 1.0, hand), np.uint8), cv2.IMREAD_COLOR)
    without = cv2.imdecode(np.frombuffer(annotate.render(photo, 1.0, hand, total=False), np.uint8), cv2.IMREAD_COLOR)
    corner = (slice(0, 40), slice(0, 200))
    assert with_total[corner].mean() > 200  # the white box of "1 tiles, 11 pips"
    assert abs(without[corner].mean() - 90) < 3  # the photo itself
    # the tile's outline and label are drawn either way
    assert np.array_equal(with_total[150:350, 350:650], without[150:350, 350:650])


def test_a_hand_without_its_total_asks_its_render_for_none():
    calls = []
    hand = Hand([], 10, 10, _render=lambda *args: calls.append(args[1:]) or b"jpeg")
    assert hand.annotated(total=False) == b"jpeg" and calls[-1][-1] is False
    hand.annotated()
    assert calls[-1] == (1600,)  # as before, for the renders that take no more


def test_with_tiles_highlighted_only_those_and_the_doubtful_are_labelled():
    """On a table's photo the desk highlights the tiles of one number: those are labelled,
    and the doubtful ones, which the player must check; the others are outlined only, so
    that the labels of a crowded table do not hide one another."""
    photo = np.full((600, 900, 3), 90, np.uint8)

    def tile(a, b, x, confidence=0.95):
        return Tile(a, b, ((x, 200.0), (x + 200.0, 200.0), (x + 200.0, 300.0), (x, 300.0)), confidence)

    hand = Hand([tile(6, 5, 50.0), tile(4, 3, 350.0), tile(2, 1, 650.0, confidence=0.4)], 900, 600)
    shown = cv2.imdecode(np.frombuffer(annotate.render(photo, 1.0, hand, highlight=[0], total=False), np.uint8),
                         cv2.IMREAD_COLOR)
    middle = (slice(230, 270), slice(None))
    assert shown[middle][:, 100:200].mean() > 120  # the highlighted [6|5]'s label box
    assert abs(shown[middle][:, 400:500].mean() - 90) < 3  # the [4|3]: its outline only
    assert shown[middle][:, 700:800].mean() > 120  # the doubtful [2|1]'s label box


def test_a_number_no_tile_carries_leaves_every_tile_unlabelled_but_the_doubtful():
    """The desk asked about a number the photo shows no tile of: nothing stands out, and
    no label covers the table; the doubtful tile keeps its label, to be checked."""
    photo = np.full((600, 900, 3), 90, np.uint8)

    def tile(a, b, x, confidence=0.95):
        return Tile(a, b, ((x, 200.0), (x + 200.0, 200.0), (x + 200.0, 300.0), (x, 300.0)), confidence)

    hand = Hand([tile(6, 5, 50.0), tile(4, 3, 350.0), tile(2, 1, 650.0, confidence=0.4)], 900, 600)
    middle = (slice(230, 270), slice(None))
    shown = cv2.imdecode(np.frombuffer(annotate.render(photo, 1.0, hand, highlight=[], total=False), np.uint8),
                         cv2.IMREAD_COLOR)
    assert abs(shown[middle][:, 100:200].mean() - 90) < 3 and abs(shown[middle][:, 400:500].mean() - 90) < 3
    assert shown[middle][:, 700:800].mean() > 120
    plain = cv2.imdecode(np.frombuffer(annotate.render(photo, 1.0, hand, total=False), np.uint8), cv2.IMREAD_COLOR)
    assert plain[middle][:, 100:200].mean() > 120  # without a number, every tile is labelled
