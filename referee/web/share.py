"""Links and QR codes that put more phones on a game.

The QR code is SVG from the `qrcode` package, inlined in the page: nothing raster, nothing
fetched. The scorer link carries the edit token; the watch link does not.
"""

import ipaddress
from urllib.parse import urlsplit

import qrcode
import qrcode.image.svg
from flask import url_for
from markupsafe import Markup


def qr_svg(url: str) -> Markup:
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    return Markup(image.to_string(encoding="unicode"))


def watch_url(game_id: str) -> str:
    return url_for("play.game", game_id=game_id, _external=True)


def scorer_url(game_id: str, token: str) -> str:
    return url_for("play.join", game_id=game_id, token=token, _external=True)


def unreachable(url: str) -> bool:
    """Whether `url` names this computer only (localhost, 127.0.0.1, ::1): a QR code of it
    sends another phone to itself. `referee serve` prints the address the Wi-Fi can reach."""
    host = (urlsplit(url).hostname or "").rstrip(".").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
