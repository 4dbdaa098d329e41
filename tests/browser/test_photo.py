"""Photograph a hand on the round page, correct one tile by tapping, and save the hand."""

import numpy as np
from playwright.sync_api import expect

import vision
from tests.browser.helpers import open_round_of_two
from tools.generators.synthetic_photos import make_photo

PLAYERS = ["Ann", "Bob"]


def test_upload_a_photo_correct_one_tile_and_save(page, live_server, shot, tmp_path):
    picture = make_photo(np.random.default_rng(1), n_tiles=4, size=(1200, 900), style="ivory", background="wood",
                         layout="row", degrade=False)
    path = tmp_path / "hand.jpg"
    path.write_bytes(picture.encode())
    read = sorted(f"{t.a}-{t.b}" for t in vision.read_hand(path.read_bytes()).tiles)

    open_round_of_two(page, live_server, PLAYERS)

    page.locator("input[name=photo-0]").set_input_files(str(path))
    expect(page.locator("#photo-result img")).to_be_visible()
    checked = sorted(page.locator("#hand-0 input[name=tiles-0]:checked").evaluate_all("els => els.map(e => e.value)"))
    assert checked == read
    expect(page.locator("#hand-1 input[name=went_out]")).to_be_checked()  # nothing typed was lost
    shot("20-photo-read")

    # The player sees one tile was misread: untap it and tap the right one.
    wrong, right = read[0], "2-2"
    page.locator(f"#hand-0 label[title='{wrong}']").click()
    page.locator(f"#hand-0 label[title='{right}']").click()
    corrected = sorted(set(read) - {wrong} | {right})
    total = sum(int(a) + int(b) for a, b in (t.split("-") for t in corrected))
    expect(page.locator("#round-preview")).to_contain_text(str(total))
    page.get_by_role("button", name="Save round").click()
    expect(page.locator(".totals")).to_contain_text(str(total))
    page.locator(".rounds tbody tr").first.get_by_role("link", name="1").click()
    expect(page.locator(".hands li").first.locator(".domino")).to_have_count(len(corrected))
    shot("21-photo-saved")


def test_a_photo_over_the_cap_is_refused_before_it_is_sent(page, live_server, shot, tmp_path):
    """A 26 MB file (the cap is 25 MB) is not sent over the phone's connection: the page
    says why at once, beside the button, and what was typed stays."""
    huge = tmp_path / "huge.jpg"
    with huge.open("wb") as out:
        out.write(b"\xff\xd8\xff\xe0")
        out.truncate(26 * 1024 * 1024)
    page.goto(live_server + "/games/new")
    for seat, name in enumerate(PLAYERS):
        page.fill(f"input[name=player-{seat}]", name)
    page.get_by_role("button", name="Start the game").click()
    page.get_by_role("link", name="Enter the hands of round 1").click()
    page.wait_for_url("**/rounds/new")
    round_url = page.url
    page.fill("input[name=pips-1]", "23")

    page.locator("input[name=photo-0]").set_input_files(str(huge))
    expect(page.locator("#hand-0 [data-too-large]")).to_be_visible()
    expect(page.locator("#hand-0 [data-too-large]")).to_contain_text("larger than 25 MB")
    expect(page.locator("#hand-1 [data-too-large]")).to_be_hidden()
    assert page.url == round_url
    expect(page.locator("input[name=pips-1]")).to_have_value("23")
    assert page.locator("input[name=photo-0]").evaluate("el => el.files.length") == 0
    shot("22-photo-too-large")
