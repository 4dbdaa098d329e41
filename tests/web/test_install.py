"""Add to home screen: the manifest, its icons, the service worker and the offline page."""

import json


def test_manifest_and_icons(client):
    page = client.get("/").get_data(as_text=True)
    assert '<link rel="manifest" href="/static/manifest.webmanifest">' in page
    manifest = json.loads(client.get("/static/manifest.webmanifest").get_data(as_text=True))
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200


def test_service_worker_is_served_from_the_root(client):
    response = client.get("/sw.js")
    assert response.status_code == 200
    assert response.mimetype == "application/javascript"
    assert response.headers["Service-Worker-Allowed"] == "/"
    body = response.get_data(as_text=True)
    for asset in ("/static/style.css", "/static/htmx.min.js", "/offline"):
        assert asset in body
        assert client.get(asset).status_code == 200


def test_offline_page_speaks_all_three_languages(client):
    page = client.get("/offline").get_data(as_text=True)
    assert "You are offline" in page and "hors ligne" in page and "offline" in page


def test_health(client):
    assert client.get("/health").get_data(as_text=True) == "ok"
