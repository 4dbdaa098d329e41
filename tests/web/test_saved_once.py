"""A score a phone was told is saved is never lost or duplicated: entry keys, undo by
number with a way back, and backups that restore whole."""

import json
import re

import pytest

from referee.services import exports
from referee.web import db
from tests.web.helpers import as_scorer, bearer, new_game, pips_round

PIPS = {"Bob": 10, "Cy": 20, "Di": 30}


def form_round(client, game, key, **pips):
    """Save a round through the HTML form, every hand as a typed total, Ann out."""
    fields = {"action": "save", "went_out": "0", "entry_key": key}
    for seat, value in enumerate((0, pips.get("Bob", 10), pips.get("Cy", 20), pips.get("Di", 30))):
        if seat:
            fields[f"pips-{seat}"] = str(value)
    return client.post(f"/games/{game['id']}/rounds/new", data=fields)


def rounds_of(client, game):
    return client.get(f"/api/games/{game['id']}").json["rounds"]


def played(client, game):
    return [r for r in rounds_of(client, game) if r["scores"] is not None]


# -- every save exactly once ---------------------------------------------------------------


def test_the_round_form_carries_its_number_and_a_fresh_key(client):
    game = new_game(client)
    as_scorer(client, game)
    first = client.get(f"/games/{game['id']}/rounds/new").get_data(as_text=True)
    second = client.get(f"/games/{game['id']}/rounds/new").get_data(as_text=True)
    keys = [re.search(r'name="entry_key" value="([0-9a-f]+)"', page).group(1) for page in (first, second)]
    assert keys[0] != keys[1]
    assert 'name="number" value="1"' in first and 'autocomplete="off"' in first


def test_a_form_sent_twice_saves_one_round_and_says_so(client):
    game = new_game(client)
    as_scorer(client, game)
    assert form_round(client, game, "k1").status_code == 303
    again = form_round(client, game, "k1")
    page = again.get_data(as_text=True)
    assert again.status_code == 409
    assert "Round 1 is already saved" in page
    assert f'href="/games/{game["id"]}/rounds/1"' in page
    assert len(played(client, game)) == 1


def test_a_form_restored_by_back_after_the_match_ended_is_still_told_it_was_saved(client):
    game = new_game(client, players=["Ann", "Bob"], rules={"preset": "pagat", "match_length": "one-round"})
    as_scorer(client, game)
    fields = {"action": "save", "went_out": "0", "pips-1": "12", "entry_key": "last"}
    assert client.post(f"/games/{game['id']}/rounds/new", data=fields).status_code == 303
    again = client.post(f"/games/{game['id']}/rounds/new", data=fields)
    assert again.status_code == 409 and "Round 1 is already saved" in again.get_data(as_text=True)


def test_a_french_phone_is_told_in_french(client):
    game = new_game(client)
    as_scorer(client, game)
    form_round(client, game, "fr")
    page = client.post(f"/games/{game['id']}/rounds/new", data={"entry_key": "fr", "action": "save"},
                       headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "déjà enregistrée" in page


def test_the_api_saves_a_retried_entry_once(client):
    game = new_game(client)
    first = pips_round(client, game, PIPS, went_out="Ann", entry_key="retry-1")
    assert first.status_code == 201
    retry = pips_round(client, game, PIPS, went_out="Ann", entry_key="retry-1")
    assert retry.status_code == 409
    assert retry.json["already_saved"] is True and retry.json["round"] == 1
    assert len(played(client, game)) == 1
    other = pips_round(client, game, PIPS, went_out="Ann", entry_key="retry-2")
    assert other.status_code == 201 and other.json["round"] == 2


def test_the_api_refuses_a_key_that_is_not_text(client):
    game = new_game(client)
    response = pips_round(client, game, PIPS, went_out="Ann", entry_key=7)
    assert response.status_code == 422 and "entry_key" in response.json["error"]
    assert played(client, game) == []


@pytest.mark.parametrize("key", ["\x00", "a\x00b", "line\nbreak", "x" * 65, ""])
def test_a_key_with_a_control_character_or_of_the_wrong_length_is_refused_by_the_api_and_the_form(client, key):
    game = new_game(client)
    response = pips_round(client, game, PIPS, went_out="Ann", entry_key=key)
    assert response.status_code == 422 and "entry_key" in response.json["error"]
    if key:  # the form makes a key of its own for an empty one
        as_scorer(client, game)
        page = form_round(client, game, key)
        assert page.status_code == 422 and "entry_key" in page.get_data(as_text=True)
    assert played(client, game) == []


# -- undo names its round, asks, and can be reversed ----------------------------------------------


def test_undo_by_number_removes_that_round_once(client):
    game = new_game(client)
    for _ in range(3):
        pips_round(client, game, PIPS, went_out="Ann")
    first = client.delete(f"/api/games/{game['id']}/rounds/3", headers=bearer(game))
    assert first.status_code == 200 and first.json["undone"] == 3
    second = client.delete(f"/api/games/{game['id']}/rounds/3", headers=bearer(game))
    assert second.status_code == 409 and "already undone" in second.json["error"]
    not_last = client.delete(f"/api/games/{game['id']}/rounds/1", headers=bearer(game))
    assert not_last.status_code == 409 and "Only the last round" in not_last.json["error"]
    assert [r["number"] for r in played(client, game)] == [1, 2]


def test_the_page_asks_before_undoing_and_names_the_round(client):
    game = new_game(client)
    as_scorer(client, game)
    pips_round(client, game, PIPS, went_out="Ann")
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert f'href="/games/{game["id"]}/rounds/1/undo"' in page
    confirm = client.get(f"/games/{game['id']}/rounds/1/undo").get_data(as_text=True)
    assert "Undo round 1?" in confirm and 'name="number" value="1"' in confirm
    assert len(played(client, game)) == 1  # asking removed nothing


def test_two_undo_taps_remove_one_round(client):
    game = new_game(client)
    as_scorer(client, game)
    pips_round(client, game, PIPS, went_out="Ann")
    pips_round(client, game, PIPS, went_out="Ann")
    assert client.post(f"/games/{game['id']}/rounds/undo", data={"number": "2"}).status_code == 303
    again = client.post(f"/games/{game['id']}/rounds/undo", data={"number": "2"})
    assert again.status_code == 409 and "Round 2 is already undone" in again.get_data(as_text=True)
    assert [r["number"] for r in played(client, game)] == [1]


def test_an_undone_round_can_be_put_back_as_it_was(client):
    game = new_game(client)
    as_scorer(client, game)
    pips_round(client, game, {"Bob": 11, "Cy": 0, "Di": 7}, went_out="Ann")
    before = played(client, game)
    client.post(f"/games/{game['id']}/rounds/undo", data={"number": "1"})
    page = client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert "Round 1 was undone." in page and "Put round 1 back" in page
    assert client.post(f"/games/{game['id']}/rounds/1/restore").status_code == 303
    assert played(client, game)[0]["scores"] == before[0]["scores"]
    assert "Put round 1 back" not in client.get(f"/games/{game['id']}").get_data(as_text=True)
    assert client.post(f"/games/{game['id']}/rounds/1/restore").status_code == 409
    history = client.get(f"/games/{game['id']}/rounds/1").get_data(as_text=True)
    assert "restored" in history


def test_entering_an_undone_round_again_starts_from_its_entry(client):
    game = new_game(client)
    as_scorer(client, game)
    pips_round(client, game, {"Bob": 11, "Cy": 0, "Di": 7}, went_out="Ann")
    client.post(f"/games/{game['id']}/rounds/undo", data={"number": "1"})
    form = client.get(f"/games/{game['id']}/rounds/new").get_data(as_text=True)
    assert "This is what was entered before the undo" in form
    assert re.search(r'name="pips-1"[^>]*value="11"', form)


def test_a_watcher_is_not_offered_to_put_a_round_back(app, client):
    game = new_game(client)
    pips_round(client, game, PIPS, went_out="Ann")
    client.delete(f"/api/games/{game['id']}/rounds/1", headers=bearer(game))
    watcher = app.test_client()
    assert "Put round 1 back" not in watcher.get(f"/games/{game['id']}").get_data(as_text=True)
    assert watcher.post(f"/games/{game['id']}/rounds/1/restore").status_code == 403


# -- backups ----------------------------------------------------------------------------------------


def test_restore_refuses_a_backup_with_a_hand_whose_round_is_missing(app, make_app, new_database, client):
    game = new_game(client)
    pips_round(client, game, PIPS, went_out="Ann")
    with app.app_context():
        document = json.loads(exports.backup(db.session()))
    document["tables"]["round"] = []
    target = make_app(new_database())
    with target.app_context():
        with pytest.raises(exports.RulesError, match="not whole"):
            exports.restore(db.session(), json.dumps(document))
        assert json.loads(exports.backup(db.session()))["tables"]["game"] == []


def test_undoing_a_round_that_was_never_saved_is_404(client):
    game = new_game(client)
    pips_round(client, game, PIPS, went_out="Ann")
    assert client.delete(f"/api/games/{game['id']}/rounds/7", headers=bearer(game)).status_code == 404
    assert [r["number"] for r in played(client, game)] == [1]
