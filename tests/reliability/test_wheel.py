"""An installed wheel runs on its own: templates, static files, translations and migrations
travel inside the package, so `pip install referee-*.whl` serves the same app as a checkout.
"""

import os
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest
import requests

from tests.reliability.server import free_port, wait_for

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A fresh venv outside the repository holding only the wheel; its dependencies come from
    this venv's site-packages by a .pth line (nothing is downloaded, and this venv's editable
    install of the checkout is not seen there)."""
    where = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(where / "dist")], check=True, cwd=where)
    wheel = next((where / "dist").glob("referee-*.whl"))
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                          capture_output=True, text=True, check=True).stdout.strip()
    Path(site, "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "-q",
                    str(wheel)], check=True)
    return venv


def test_the_wheel_serves_pages_styles_and_french_from_another_folder(installed, tmp_path):
    located = subprocess.run([installed / "bin" / "python", "-c", "import referee; print(referee.__file__)"],
                             capture_output=True, text=True, check=True, cwd=tmp_path).stdout
    assert str(installed) in located and str(ROOT) not in located

    port = free_port()
    env = {key: value for key, value in os.environ.items() if key not in ("DATABASE_URL", "PYTHONPATH")}
    server = subprocess.Popen([installed / "bin" / "referee", "serve", "--host", "127.0.0.1", "--port", str(port),
                               "--workers", "1", "--no-qr"], cwd=tmp_path, env=env, start_new_session=True,
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_for(url + "/health", server)
        home = requests.get(url + "/", timeout=10)
        assert home.status_code == 200 and "<html" in home.text
        css = requests.get(url + "/static/style.css", timeout=10)
        assert css.status_code == 200 and css.headers["Content-Type"].startswith("text/css") and "{" in css.text
        french = requests.get(url + "/games/new", headers={"Accept-Language": "fr"}, timeout=10)
        assert french.status_code == 200 and "Nouvelle partie" in french.text
    finally:
        os.killpg(server.pid, 15)
        server.wait(timeout=20)
