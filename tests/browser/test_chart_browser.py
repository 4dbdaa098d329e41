"""The running-totals chart on a phone: close final totals (103, 105, 106) named at the
lines' ends without overlapping, and a round's totals shown when the chart is tapped,
kept while the live scoreboard refreshes."""

from pathlib import Path

import pytest
from playwright.sync_api import expect

pytestmark = pytest.mark.browser

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
PLAYERS = ["Annemarie", "Bob", "Cyriel", "Diederik"]
ROUNDS = [({"Annemarie": 30, "Bob": 12, "Cyriel": 20}, "Diederik"),
          ({"Annemarie": 40, "Bob": 28, "Diederik": 22}, "Cyriel"),
          ({"Annemarie": 33, "Bob": 65, "Cyriel": 86, "Diederik": 28}, None)]


def api_round(page, base, game, pips, went_out=None):
    body = {"hands": {name: {"pips": value} for name, value in pips.items()}, "went_out": went_out}
    answer = page.request.post(f"{base}/api/games/{game['id']}/rounds", data=body,
                               headers={"Authorization": "Bearer " + game["edit_token"]})
    assert answer.status == 201, answer.text()


def overlap(a, b):
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and \
        a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


def test_close_totals_are_named_apart_and_a_tapped_round_shows_its_totals(page, live_server, phone_shots):
    game = page.request.post(live_server + "/api/games", data={"players": PLAYERS, "rules": "pagat"}).json()
    for pips, out in ROUNDS:
        api_round(page, live_server, game, pips, out)
    page.goto(f"{live_server}/games/{game['id']}/join/{game['edit_token']}")
    chart = page.locator(".chart")
    expect(chart).to_be_visible()

    # Each line is named at its end, with its total; the three close ones do not overlap.
    labels = chart.locator(".chart-labels text")
    assert labels.all_text_contents() == ["Annemarie 103", "Bob 105", "Cyriel 106", "Diederik 50"]
    # each label's glyphs: its text's box one font size tall (the box drawn is a line's height)
    boxes = labels.evaluate_all("""els => els.map(e => {
        const b = e.getBBox(), size = Number(e.getAttribute('font-size'));
        return {x: b.x, y: b.y + b.height / 2 - size / 2, width: b.width, height: size};
    })""")
    assert not [(i, j) for i in range(4) for j in range(i + 1, 4) if overlap(boxes[i], boxes[j])]
    width = float(chart.locator(".chart-plot").get_attribute("viewBox").split()[2])
    assert all(box["x"] + box["width"] <= width for box in boxes)  # inside the drawing
    # ...and the lines differ by their dash and their markers' shape, not by colour alone
    dashes = chart.locator("polyline").evaluate_all("els => els.map(e => e.getAttribute('stroke-dasharray'))")
    assert len(set(dashes)) == 4
    shapes = chart.locator(".chart-line").evaluate_all("els => els.map(g => g.dataset.shape)")
    assert shapes == ["circle", "square", "triangle", "diamond"]
    assert chart.locator(".chart-line").first.locator("path").count() == 3  # one marker a round

    # Tap round 2: its totals, and what each scored in it.
    readout = chart.locator("[data-chart-readout]")
    expect(readout).to_be_hidden()
    chart.locator(".chart-col").nth(1).tap()
    expect(readout).to_be_visible()
    expect(readout.locator(".chart-readout-title")).to_have_text("Round 2")
    rows = readout.locator(".chart-readout-values li")
    expect(rows).to_have_count(4)
    expect(rows.nth(0)).to_have_text("Annemarie70+40")
    expect(rows.nth(2)).to_have_text("Cyriel20+0")
    expect(chart.locator(".chart-col.on")).to_have_count(1)
    chart.scroll_into_view_if_needed()
    page.evaluate("() => window.scrollBy(0, document.querySelector('.chart').getBoundingClientRect().top - 70)")
    DOCS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(DOCS / "chart-390x844.png"))
    phone_shots("40-chart-readout", readout)

    # The arrows step through the rounds; the last has no next.
    readout.get_by_role("button", name="Next round").tap()
    expect(readout.locator(".chart-readout-title")).to_have_text("Round 3")
    expect(readout.get_by_role("button", name="Next round")).to_be_disabled()

    # A round saved meanwhile on another phone: the scoreboard refreshes, round 3 stays shown.
    api_round(page, live_server, game, {"Annemarie": 1, "Bob": 2, "Cyriel": 3}, "Diederik")
    expect(chart.locator(".chart-col")).to_have_count(4, timeout=6000)
    expect(readout).to_be_visible()
    expect(readout.locator(".chart-readout-title")).to_have_text("Round 3")
    expect(readout.get_by_role("button", name="Next round")).to_be_enabled()

    # Without a tap, the same totals are in the table under the chart.
    chart.locator(".chart-data summary").tap()
    expect(chart.locator(".chart-table tbody tr")).to_have_count(4)
    expect(chart.locator(".chart-table tbody tr").nth(1)).to_contain_text("70")
    page.wait_for_timeout(2500)  # a refresh with nothing new leaves the table open
    expect(chart.locator(".chart-table")).to_be_visible()
