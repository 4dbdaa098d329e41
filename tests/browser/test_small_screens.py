"""Every page of a game on a small phone, in English, French and Dutch: nothing scrolls
sideways at 360 x 640 nor at 390 x 844, and every link and button a player taps is at least
44 x 44 CSS pixels.

The pages: home, new game, a game in play (its chart's readout open), its round form, the
round form after a photo (the chooser of the strip open), a saved round, the referee desk and
its foot page (a ruling given), a player, and a finished game. Every <details> is opened
before measuring, so what a tap would show is measured too."""

from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import expect

from tools.generators.synthetic_photos import make_photo

pytestmark = pytest.mark.browser

SIZES = {"360x640": {"width": 360, "height": 640}, "390x844": {"width": 390, "height": 844}}
PLAYERS = ["Annemarie", "Bob", "Cyriel", "Diederik"]
# [1-1] laid against [9-1], and the other ones seen on the table (see test_desk_browser.py)
SEEN = ["9-1", "2-1", "3-1", "4-1", "6-1", "7-1", "1-0"]
TAP_TARGETS = "a, button, summary, label.choice, input[type=checkbox], input[type=radio]"
SHOTS = Path(__file__).resolve().parents[2] / "test-output" / "screenshots"

# What the page shows of each tap target smaller than 44 x 44, and how wide the document is.
MEASURE = """(selector) => {
  const small = [];
  for (const el of document.querySelectorAll(selector)) {
    if (el.closest('.sr') || !el.checkVisibility({visibilityProperty: true})) continue;  // not on screen
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    if (box.width < 44 || box.height < 44) {
      const name = (el.getAttribute('aria-label') || el.textContent || el.value || '').trim().replace(/\\s+/g, ' ');
      const classes = String(el.className || '').trim().replace(/\\s+/g, '.');
      small.push(`${el.tagName.toLowerCase()}${classes ? '.' + classes : ''} "${name.slice(0, 40)}"`
                 + ` ${Math.round(box.width)}x${Math.round(box.height)}`);
    }
  }
  return {width: document.documentElement.scrollWidth, small};
}"""


def api_round(page, base, game, pips, went_out=None):
    body = {"hands": {name: {"pips": value} for name, value in pips.items()}, "went_out": went_out}
    answer = page.request.post(f"{base}/api/games/{game['id']}/rounds", data=body,
                               headers={"Authorization": "Bearer " + game["edit_token"]})
    assert answer.status == 201, answer.text()


@pytest.fixture
def games(page, live_server):
    """A game in its third round (round 2 blocked), and a finished one; this phone scores both."""
    base = live_server
    playing = page.request.post(base + "/api/games", data={"players": PLAYERS, "rules": "pagat"}).json()
    api_round(page, base, playing, {"Annemarie": 103, "Bob": 40, "Cyriel": 20}, went_out="Diederik")
    api_round(page, base, playing, {"Annemarie": 0, "Bob": 65, "Cyriel": 86, "Diederik": 50})
    finished = page.request.post(base + "/api/games", data={"players": ["Annemarie", "Bob"], "rules": "pagat"}).json()
    for number in range(10):
        api_round(page, base, finished, {"Bob": 5 + number}, went_out="Annemarie")
    for game in (playing, finished):
        page.goto(f"{base}/games/{game['id']}/join/{game['edit_token']}")
    return playing, finished


@pytest.fixture(scope="module")
def hand_photo(tmp_path_factory):
    picture = make_photo(np.random.default_rng(1), n_tiles=4, size=(1200, 900), style="ivory", background="wood",
                         layout="row", degrade=False)
    path = tmp_path_factory.mktemp("photo") / "hand.jpg"
    path.write_bytes(picture.encode())
    return path


def check(page, name, problems, before=None):
    """Measure the page as it is at each size; `before` readies it (opens what a tap opens)."""
    for label, size in SIZES.items():
        page.set_viewport_size(size)
        page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; })")
        if before:
            before()
        found = page.evaluate(MEASURE, TAP_TARGETS)
        if found["width"] > size["width"]:
            problems.append(f"{name} at {label}: the page is {found['width']} px wide")
        problems.extend(f"{name} at {label}: {target}" for target in found["small"])
        if label == "360x640":
            SHOTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(SHOTS / f"small-{name}-{label}.png"), full_page=True)


@pytest.mark.parametrize("lang", ["en", "fr", "nl"])
def test_every_page_of_a_game_fits_a_small_phone_with_thumb_sized_targets(page, live_server, games, hand_photo,
                                                                            lang):
    playing, finished = games
    base, game = live_server, f"{live_server}/games/{playing['id']}"
    page.context.add_cookies([{"name": "lang", "value": lang, "url": base}])
    problems = []

    page.goto(base + "/")
    check(page, f"{lang}-home", problems)
    page.goto(base + "/games/new")
    check(page, f"{lang}-new-game", problems)

    # The referee's foot page with a ruling given, so the desk and the game show their log too.
    page.goto(game + "/referee/foot")
    page.locator(".doubles-pad label[title='1-1']").tap()
    expect(page.locator("#foot-picker .pick")).to_have_count(10)
    for tile in SEEN:
        page.locator(f"#foot-picker label.key[title='{tile}']").tap()
    page.fill("input[name=boneyard]", "11")
    expect(page.locator("#ruling .table-choice")).to_be_visible()
    check(page, f"{lang}-desk-foot", problems)
    page.locator(".actions.sticky button[value=rule]").tap()
    expect(page.locator("#ruling .notice")).to_be_visible()
    page.goto(game + "/referee")
    check(page, f"{lang}-desk", problems)

    page.goto(game)
    expect(page.locator(".chart-plot")).to_be_visible()
    check(page, f"{lang}-game", problems,
          before=lambda: page.locator(".chart-plot").click(position={"x": 60, "y": 60}))
    expect(page.locator("[data-chart-readout]")).to_be_visible()

    page.goto(game + "/rounds/new")
    check(page, f"{lang}-round-form", problems)
    page.locator("input[name=photo-0]").set_input_files(str(hand_photo))
    expect(page.locator("#photo-result img")).to_be_visible(timeout=60000)

    def open_chooser():
        if not page.locator("#hand-0 .strip-chooser").count():
            page.locator("#hand-0 .strip-tiles button").first.click()
        expect(page.locator("#hand-0 .strip-chooser")).to_be_visible()
    check(page, f"{lang}-photo-result", problems, before=open_chooser)

    page.goto(game + "/rounds/2")
    check(page, f"{lang}-round", problems)
    page.goto(game)
    page.locator(".totals a.name").first.click()
    expect(page.locator(".facts-list")).to_be_visible()
    check(page, f"{lang}-player", problems)
    page.goto(f"{base}/games/{finished['id']}")
    check(page, f"{lang}-finished-game", problems)

    assert not problems, f"{len(problems)} problem(s):\n  " + "\n  ".join(problems)
