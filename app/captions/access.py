"""Who may reach the caption server, and at which address people open it.

On a loopback address it serves this computer only: the Host header is checked (a web page
elsewhere cannot reach it through DNS rebinding). Any other address needs the session's access
key (`secrets.token_urlsafe`), given as ?key=... (the page's own requests carry it on, and a
cookie set with the page covers its assets): no key -> 401, a wrong one -> 403. A guest's
speaking key (app.captions.guest_speech) opens the captions too.
"""

from __future__ import annotations

import ipaddress
import secrets
import socket
from collections.abc import Callable

from aiohttp import web

from app.captions.responses import plain
from app.shared.errors import QT_TRANSLATE_NOOP, LiveTranslatorError

DEFAULT_HOST = "127.0.0.1"
KEY_COOKIE = "captions_key"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def lan_address() -> str:
    """This machine's address on the local network, for the URL phones open (no packet is sent:
    connecting a UDP socket only picks the outgoing interface)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.254.254.254", 1))
            return probe.getsockname()[0]
        except OSError:
            pass
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return DEFAULT_HOST


def public_host(host: str) -> str:
    """The host part of a URL people open: the LAN address for a wildcard, IPv6 in brackets."""
    host = lan_address() if host in ("0.0.0.0", "::", "") else host
    return f"[{host}]" if ":" in host else host


class Access:
    """The viewing key of one server, and the check every request passes."""

    def __init__(self, host: str, key: str | None):
        """key: None makes a random one when `host` is not a loopback address; "" means none."""
        self.host = host
        self.needs_key = not is_loopback(host)
        if key is None:
            key = secrets.token_urlsafe(16) if self.needs_key else ""
        if self.needs_key and not key:
            raise LiveTranslatorError(
                QT_TRANSLATE_NOOP("Errors", "Serving captions on {host} needs an access key."),
                QT_TRANSLATE_NOOP("Errors", "Serve on 127.0.0.1, or let the app make a key."),
                host=host,
            )
        self.key = key

    def refusal(
        self, request: web.Request, ports: tuple[int, ...], speaks: Callable[[str], bool], speak: bool = False
    ) -> web.Response | None:
        """Viewing: the viewing key, or a key `speaks` allows (guests read the captions too).
        ports: the server's own, for the Host check. speak: the Host check only; the
        guest-speech link checks its own key."""
        if not self.needs_key:
            allowed = {f"{name}:{port}" for name in ("127.0.0.1", "localhost", "[::1]", self.host) for port in ports}
            if request.host not in allowed:
                return plain(403, "This address serves this computer only.")
        if not self.key or speak:
            return None
        given = request.query.get("key") or request.cookies.get(KEY_COOKIE)
        if not given:
            return plain(401, "An access key is needed: open the URL the app shows, with its ?key=...")
        if not speaks(given) and not secrets.compare_digest(given.encode(), self.key.encode()):
            return plain(403, "Wrong access key: open the URL the app shows for this session.")
        return None

    def with_cookie(self, response: web.Response) -> web.Response:
        """The page's own assets then come with the key too."""
        if self.key:
            response.set_cookie(KEY_COOKIE, self.key, httponly=True, samesite="Strict", path="/")
        return response
