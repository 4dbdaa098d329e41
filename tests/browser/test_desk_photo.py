"""Settle a foot from one photo of the table, on a game's desk at phone size: photograph,
check the ticks, give the ruling, find it in the game's log."""

from pathlib import Path

import numpy as np
from playwright.sync_api import expect

from tests.browser.test_desk_browser import scorer_game
from tools.generators.table_photos import make_table

DOCS_SHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshots" / "desk-photo-390x844.png"


def test_photograph_the_table_confirm_and_log_the_ruling(page, live_server, shot, tmp_path):
    table = make_table(np.random.default_rng(3), n_tiles=16, size=(1000, 750), elevation=90,
                       background="paper", style="ivory")
    path = tmp_path / "table.jpg"
    path.write_bytes(table.encode())
    carrying = sorted(f"{a}-{b}" for a, b in table.tiles if 2 in (a, b) and (a, b) != (2, 2))

    game = scorer_game(page, live_server)
    page.goto(f"{live_server}/games/{game['id']}/referee/foot")
    page.locator(".doubles-pad label[title='2-2']").tap()
    expect(page.locator("#foot-picker legend")).to_contain_text("Tiles carrying 2")
    page.locator("input[name=photo]").set_input_files(str(path))
    page.get_by_role("button", name="Read the table").tap()

    expect(page.locator(".table-photo-read img")).to_be_visible()
    expect(page.locator(".table-photo-read figcaption")).to_contain_text("3 toes against [2-2]")
    ticked = sorted(page.locator("#foot-picker input[name=on]:checked").evaluate_all("els => els.map(e => e.value)"))
    assert ticked == carrying
    expect(page.locator("#foot-picker input[name=toe]:checked")).to_have_count(3)
    expect(page.locator("#ruling .verdict")).to_be_visible()
    page.locator(".table-photo-read").scroll_into_view_if_needed()
    page.evaluate("document.querySelector('.table-photo-read').scrollIntoView({block: 'start'}); window.scrollBy(0, -130)")
    DOCS_SHOT.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(DOCS_SHOT))
    shot("desk-photo-read")

    page.get_by_role("button", name="Give the ruling and log it").tap()
    expect(page.locator("#ruling")).to_contain_text("Saved in the game's log")
    verdict = page.locator("#ruling .verdict").inner_text()
    assert verdict
    expect(page.locator("#rulings-log")).to_contain_text("[2-2]")
    page.locator("#ruling").scroll_into_view_if_needed()
    shot("desk-photo-ruled")
