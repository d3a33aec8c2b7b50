"""Who may open a tab at a web table, and who they are once in.

A browser runs whatever page its user visits, and every page may open a websocket to any
address, this table's too: a table that took every websocket would start a game for any site a
player on the LAN happens to look at. So a tab's websocket must come from the table's own page:
its `Origin` must name the host the request was sent to (`Host`), and that host must be one
this table answers to, which stops DNS rebinding (a foreign name that resolves to this machine
makes both headers agree). The table answers to its loopback names, to any address typed as
digits (no rebinding there) and to the names the operator gives (`--web-name`). A websocket
with no `Origin` came from no browser and is refused too: a script needs none of this table.

Identity: a browser gets a random secret in a cookie (HttpOnly, SameSite=Strict) on its first
visit; the table hashes it into the owner the tab's app runs as, so a refresh, a new tab or a
dropped connection finds the same seats and settings, as an SSH player coming back with their
key does. The secret is never in a URL and never logged, and the hash cannot be turned back
into it. With `--web-password` the table asks for the shared password first (a form, with the
SSH table's per-address delay before every answer) and then gives the browser a second
cookie, a keyed hash of the password valid for this run of the table.
"""

from __future__ import annotations

import hashlib
import hmac
import ipaddress
import re
import secrets
from urllib.parse import urlsplit

from aiohttp import web

IDENTITY_COOKIE = "tabletop_id"
PASSWORD_COOKIE = "tabletop_pass"
COOKIE_DAYS = 400  # the longest browsers keep a cookie
_SECRET = re.compile(r"[A-Za-z0-9_-]{43}")  # 32 random bytes, URL-safe base64
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")


def owner_of(secret: str) -> str:
    """The owner a browser's secret stands for: a directory name, as net.ssh.access's."""
    return "web-" + hashlib.sha256(b"tabletop-web:" + secret.encode()).hexdigest()[:32]


def identity(request: web.Request) -> str | None:
    """The browser's secret, if it sent a well-formed one."""
    secret = request.cookies.get(IDENTITY_COOKIE, "")
    return secret if _SECRET.fullmatch(secret) else None


def new_identity() -> str:
    return secrets.token_urlsafe(32)


def set_cookie(response: web.StreamResponse, name: str, value: str, secure: bool) -> None:
    response.set_cookie(name, value, max_age=COOKIE_DAYS * 86400, path="/", httponly=True,
                        samesite="Strict", secure=secure)


def host_name(host: str) -> str:
    """The name or address in a `Host` header or an origin's authority, without its port."""
    if host.startswith("["):
        return host[1:].split("]", 1)[0].lower()
    return host.rsplit(":", 1)[0].lower() if host.count(":") == 1 else host.lower()


def _is_address(name: str) -> bool:
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class Door:
    """The table's checks on requests; each returns None to let one in, else why not."""

    def __init__(self, names: tuple[str, ...] = (), password: str | None = None) -> None:
        self.names = {n.lower() for n in (*LOOPBACK_NAMES, *names)}
        self.password = password
        self._key = secrets.token_bytes(32)  # a password cookie is valid for this run only

    def host_refused(self, request: web.Request) -> str | None:
        name = host_name(request.headers.get("Host", ""))
        if name in self.names or _is_address(name):
            return None
        return "this table does not answer to that name (the operator can add it: --web-name)"

    def origin_refused(self, request: web.Request) -> str | None:
        """A request that acts (a websocket, a password) must come from the table's page."""
        origin = request.headers.get("Origin")
        if not origin:
            return "no Origin: only the table's own page may open a game"
        parts = urlsplit(origin)
        if parts.scheme not in ("http", "https") or \
                parts.netloc.lower() != request.headers.get("Host", "").lower():
            return "another site's page may not open a game at this table"
        return None

    # -- the shared password ------------------------------------------------------------------
    def password_ok(self, given: str) -> bool:
        if self.password is None:
            return True
        return hmac.compare_digest(given.encode(), self.password.encode())

    def pass_token(self) -> str:
        assert self.password is not None
        return hmac.new(self._key, self.password.encode(), hashlib.sha256).hexdigest()

    def let_in(self, request: web.Request) -> bool:
        """Whether this browser gave the password (or none is asked)."""
        if self.password is None:
            return True
        return hmac.compare_digest(request.cookies.get(PASSWORD_COOKIE, ""), self.pass_token())
