"""Checking a photo's reading at a phone's size: the tiles read in a strip above the keypad,
large, with one total that follows every correction; a tile of the strip taken out, or
changed for one a pip away, is unticked on the keypad, which stays the hand. Without
JavaScript, tapping a tile of the strip unticks it too."""

from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import expect

import vision
from tests.browser.helpers import open_round_of_two
from tools.generators.synthetic_photos import make_photo

pytestmark = pytest.mark.browser

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PLAYERS = ["Ann", "Bob"]


def pips(tiles):
    return sum(int(a) + int(b) for a, b in (t.split("-") for t in tiles))


@pytest.fixture
def hand(tmp_path):
    """A photo of four tiles in a row, and the tiles read from it, in the order read."""
    picture = make_photo(np.random.default_rng(1), n_tiles=4, size=(1200, 900), style="ivory", background="wood",
                         layout="row", degrade=False)
    path = tmp_path / "hand.jpg"
    path.write_bytes(picture.encode())
    return path, [f"{t.a}-{t.b}" for t in vision.read_hand(path.read_bytes()).tiles]


def open_round(page, live_server):
    open_round_of_two(page, live_server, PLAYERS)


def expect_total(strip, tiles, pips):
    """The strip's one total says `tiles` tiles and `pips` pips, and nothing is left to check."""
    expect(strip.locator("[data-strip-count]")).to_have_text(f"{tiles} tiles")
    expect(strip.locator("[data-strip-pips]")).to_have_text(f"{pips} pips")
    expect(strip.locator("[data-strip-doubt]")).to_be_hidden()


def numbers(strip):
    return strip.locator(".strip-tiles .strip-number").all_inner_texts()


def strip_tiles(strip):
    return strip.locator(".strip-tiles [data-tile]").evaluate_all("els => els.map(e => e.dataset.tile)")


def ticked(page):
    return sorted(page.locator("#hand-0 input[name=tiles-0]:checked").evaluate_all("els => els.map(e => e.value)"))


def test_the_strip_shows_the_tiles_read_and_its_total_follows_every_correction(page, live_server, hand, phone_shots):
    path, read = hand
    assert len(read) == 4
    open_round(page, live_server)
    page.locator("input[name=photo-0]").set_input_files(str(path))
    expect(page.locator("#photo-result img")).to_be_visible()
    strip = page.locator("#hand-0 [data-strip]")
    expect(strip.locator(".strip-tiles button")).to_have_count(4)
    assert strip_tiles(strip) == read  # in the order read, with the numbers the photo gives them
    assert numbers(strip) == ["1", "2", "3", "4"]
    assert ticked(page) == sorted(read)
    expect_total(strip, 4, pips(read))
    # the photo has no total of its own: the page says one, and nothing else counts tiles
    expect(page.locator("#photo-result")).not_to_contain_text("pips")
    page.locator("#photo-result").scroll_into_view_if_needed()
    DOCS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(DOCS / "photo-check-390x844.png"))
    phone_shots("30-photo-strip", page.locator("#hand-0 .strip"))

    # The first tile is not in the hand: tap it on the strip, and take it out.
    gone = read[0]
    strip.locator(f".strip-tiles [data-tile='{gone}']").tap()
    chooser = strip.locator(".strip-chooser")
    expect(chooser).to_be_visible()
    expect(chooser).to_contain_text(f"Is it [{gone}]?")
    phone_shots("31-photo-strip-chooser", chooser)
    chooser.get_by_role("button", name="Not in the hand: remove it").tap()
    expect(chooser).to_have_count(0)
    left = read[1:]
    expect(strip.locator(".strip-tiles button")).to_have_count(3)
    expect_total(strip, 3, pips(left))
    expect(page.locator(f"#key-0-{gone}")).not_to_be_checked()
    assert ticked(page) == sorted(left)
    expect(page.locator("#hand-0 [data-count-for]")).to_have_text("(3)")
    expect(page.locator("#round-preview")).to_contain_text(str(pips(left)))

    # The next was misread by a pip: change it for one of the tiles offered, in its place.
    misread = left[0]
    strip.locator(f".strip-tiles [data-tile='{misread}']").tap()
    offered = chooser.locator("[data-near]")
    expect(offered.first).to_be_visible()
    right = offered.first.get_attribute("data-near")
    assert right not in read and sum(map(int, right.split("-"))) - sum(map(int, misread.split("-"))) in (-1, 1)
    offered.first.tap()
    corrected = [right] + left[1:]
    expect_total(strip, 3, pips(corrected))
    assert strip_tiles(strip) == corrected
    assert numbers(strip) == ["2", "3", "4"]  # the tile changed is still the photo's second
    expect(page.locator(f"#key-0-{misread}")).not_to_be_checked()
    expect(page.locator(f"#key-0-{right}")).to_be_checked()

    # A tile tapped on the keypad joins the strip, and leaves it when untapped.
    page.locator("#hand-0 label[title='2-2']").click()
    expect_total(strip, 4, pips(corrected) + 4)
    assert strip_tiles(strip) == corrected + ["2-2"]
    page.locator("#hand-0 label[title='2-2']").click()
    expect_total(strip, 3, pips(corrected))

    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".totals")).to_contain_text(str(pips(corrected)))


def test_without_javascript_a_tile_tapped_on_the_strip_is_unticked(browser, live_server, hand):
    path, read = hand
    context = browser.new_context(java_script_enabled=False, viewport={"width": 390, "height": 844})
    page = context.new_page()
    open_round(page, live_server)
    page.locator("input[name=photo-0]").set_input_files(str(path))
    page.get_by_role("button", name="Read the photo").first.click()
    strip = page.locator("#hand-0 [data-strip]")
    expect_total(strip, 4, pips(read))
    strip.locator(f"label[data-tile='{read[0]}']").click()
    expect(page.locator(f"#key-0-{read[0]}")).not_to_be_checked()
    page.get_by_role("button", name="Check points").click()
    expect_total(strip, 3, pips(read[1:]))
    context.close()
