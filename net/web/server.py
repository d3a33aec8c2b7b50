"""The web table: `serve --web PORT` (and `host --web PORT`) opens the whole app in a browser
tab, for a friend on a phone, a tablet or a laptop without an SSH client.

Each tab runs the ordinary app as a process of its own, forked by the same fork server as the
SSH table's sessions (net.ssh.forks; one is shared when both run), and speaks textual-serve's
protocol to it (net.web.tab). Its players host and join on the table's relay, as SSH players
do, so a browser player joins a room opened over SSH or in a terminal by its code.

textual-serve alone is not safe to leave open, so this module serves its page and its script
itself (textual-serve's `Server` is not used) with what a public table needs: the checks of
net.web.door (the table's own page only, no foreign name, the shared password, a browser's
identity), the limits of net.web.limits counted as the SSH table counts them, no directory
listing, headers that keep other sites from framing the table, and a log that names addresses
and never a cookie or a password. It binds to 127.0.0.1 unless told otherwise: put it behind a
reverse proxy for TLS (README.md), trusted (`--web-trust-proxy`) to name each client's address
in X-Forwarded-For.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import signal
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

import textual_serve
from aiohttp import web

from net.host.hosting import TABLE_PAGE_ENV
from net.relay import addresses
from net.ssh import inside, logs
from net.ssh.access import FALLBACK_NAME
from net.ssh.forks import Forks
from net.ssh.keys import player_dir
from net.ssh.limits import AddressRate, Guesses
from net.ssh.server import APP, MIB, Beside, base_env, lasted, player_env
from net.ssh.session import take_report
from net.web import door, gate, page, words
from net.web.inside import WEB_ENV
from net.web.limits import WebLimits
from net.web.tab import POLICY, Tab, TabApp
from net.words import counted

log = logging.getLogger("tabletop.web")

STATIC = Path(textual_serve.__file__).parent / "static"
TITLE = "tabletop-tui"
KEEPALIVE = 15.0  # seconds an idle connection of a browser's is kept for its next request
HEADERS = {  # on every answer: no framing by another site, no guessing of types, no referrer
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": "frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


@dataclass
class WebConfig:
    """What `--web` and its options asked for."""

    port: int
    bind: str = "127.0.0.1"
    names: tuple[str, ...] = ()  # host names the table answers to besides its addresses
    password: str | None = None
    limits: WebLimits = field(default_factory=WebLimits)
    trusted: tuple[addresses.Network, ...] = ()  # reverse proxies that name the client
    players: Path | None = None  # the players' folders (default: the data directory's)

    @property
    def where(self) -> str:
        host = f"[{self.bind}]" if ":" in self.bind else self.bind
        return f"{host}:{self.port}"


@dataclass
class Place:
    """A tab's place at the table."""

    addr: str
    group: str
    owner: str
    lang: str = "en"  # the browser's language (page.language): the app's until one is chosen
    since: float = field(default_factory=time.monotonic)
    # The page the tab came from (its Origin, which the door checked against Host): the
    # lobby gives it to friends who have only a browser.
    page: str = ""


class WebTable:
    """The web server. `start()` listens, `stop()` closes every tab and stops."""

    def __init__(self, config: WebConfig, relay_url: str, forks: Forks | None = None) -> None:
        self.config = config
        self.limits = config.limits
        self.relay_url = relay_url
        self.door = door.Door(config.names, config.password)
        self.rate = AddressRate(self.limits.per_minute)
        self.guesses = Guesses(self.limits.password_delay)
        self.pause = asyncio.sleep  # how a password's answer waits (a test records the waits)
        self.group = addresses.group  # how tabs are counted by address
        self.tabs: dict[Tab, Place] = {}
        self.logging_in: dict[str, int] = {}  # passwords being checked, per address group
        self.port = 0
        self._own_forks = forks is None
        self.forks = forks or Forks(APP, base_env(), self.limits.session_memory * MIB,
                                    self.limits.session_nice)
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        # Open connections by address (net.web.gate), counted as tabs are.
        self.connections = gate.Connections(self.limits, config.trusted,
                                            lambda addr: self.group(addr))

    # -- running -----------------------------------------------------------------------------
    def application(self) -> web.Application:
        app = web.Application(middlewares=[self._headers], client_max_size=4096)
        app.add_routes([
            web.get("/", self.index),
            web.post("/login", self.login),
            web.get("/ws", self.websocket),
            web.static("/static", STATIC, show_index=False, follow_symlinks=False),
        ])
        return app

    async def start(self) -> int:
        """Listen (port 0: any free one) and have the fork server ready; returns the port.
        OSError if either cannot be."""
        if self._own_forks:
            self.forks.start()
        try:
            self._runner = web.AppRunner(self.application(), access_log=None,
                                         handle_signals=False, shutdown_timeout=1.0,
                                         keepalive_timeout=KEEPALIVE)
            await self._runner.setup()
            serve = self._runner.server
            assert serve is not None
            self._listener = await gate.listen(self.connections, serve, self.config.bind or None,
                                               self.config.port)
            self.port = self._listener.sockets[0].getsockname()[1]
            await self.forks.ready()
        except BaseException:
            await self.stop()
            raise
        return self.port

    async def stop(self) -> None:
        await asyncio.gather(*(t.close(POLICY, "closing")
                               for t in list(self.tabs)), return_exceptions=True)
        if self._listener is not None:
            self._listener.close()
            self._listener = None
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self._own_forks:
            await self.forks.stop()

    def banner(self) -> str:
        way = "closed: the shared password" if self.config.password is not None \
            else "open to anyone"
        host = f"[{self.config.bind}]" if ":" in self.config.bind else self.config.bind
        return f"web table on http://{host}:{self.port}/ ({way})"

    # -- requests ----------------------------------------------------------------------------
    @web.middleware
    async def _headers(self, request: web.Request,
                       handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                       ) -> web.StreamResponse:
        why = self.door.host_refused(request)
        if why is not None:
            log.info("web request from %s refused: %s", self.client(request), why)
            raise web.HTTPMisdirectedRequest(text=why)
        response = await handler(request)
        if not response.prepared:
            response.headers.update(HEADERS)
        return response

    def client(self, request: web.Request) -> str:
        """The address a request counts under (a trusted proxy's X-Forwarded-For)."""
        return addresses.client(_peer(request), request.headers.getall(addresses.FORWARDED, []),
                                self.config.trusted)

    def secure(self, request: web.Request) -> bool:
        """Whether the browser reached us over TLS: directly, or through a trusted proxy that
        says so (its cookies are then marked Secure)."""
        if request.secure:
            return True
        if request.headers.get("X-Forwarded-Proto", "").lower() != "https":
            return False
        return addresses.trusted(_peer(request), self.config.trusted)

    async def index(self, request: web.Request) -> web.Response:
        if not self.door.let_in(request):
            return web.Response(text=page.password_page(TITLE, lang=said_in(request)),
                                content_type="text/html")
        response = web.Response(text=page.table_page(TITLE, said_in(request)),
                                content_type="text/html")
        response.headers["Cache-Control"] = "no-store"
        if door.identity(request) is None:
            door.set_cookie(response, door.IDENTITY_COOKIE, door.new_identity(),
                            self.secure(request))
        return response

    async def login(self, request: web.Request) -> web.StreamResponse:
        """The password form: the same origin only, the SSH table's delay before every
        answer to an address that has been guessing, and as many at once per address as it
        may have tabs."""
        addr = self.client(request)
        why = self.door.origin_refused(request)
        if why is not None or self.config.password is None:
            raise web.HTTPForbidden(text=why or "this table asks for no password")
        group = self.group(addr)
        if self.logging_in.get(group, 0) >= self.limits.per_address:
            raise web.HTTPTooManyRequests(text="too many logins in progress from "
                                          f"{addresses.describe(group)}; try again in a moment")
        self.logging_in[group] = self.logging_in.get(group, 0) + 1
        try:
            form = await request.post()
            given = form.get("password")
            await self.pause(self.guesses.delay(group))
            if not isinstance(given, str) or not self.door.password_ok(given):
                tries = self.guesses.wrong(group)
                log.info("web login from %s: wrong password (%s lately)", addr,
                         counted(tries, "wrong one"))
                return web.Response(text=page.password_page(TITLE, True, said_in(request)),
                                    status=403,
                                    content_type="text/html")
        finally:
            self.logging_in[group] -= 1
            if not self.logging_in[group]:
                del self.logging_in[group]
        response = web.Response(status=303, headers={"Location": "/"})
        door.set_cookie(response, door.PASSWORD_COOKIE, self.door.pass_token(),
                        self.secure(request))
        return response

    async def websocket(self, request: web.Request) -> web.StreamResponse:
        addr = self.client(request)
        why = self.door.origin_refused(request)
        if why is None and not self.door.let_in(request):
            why = "the password first: load the table's page"
        secret = door.identity(request)
        if why is None and secret is None:
            why = "no identity: load the table's page first"
        if why is not None:
            log.info("web tab from %s refused: %s", addr, why)
            raise web.HTTPForbidden(text=why)
        assert secret is not None
        owner = door.owner_of(secret)
        socket = web.WebSocketResponse(heartbeat=30, max_msg_size=self.limits.max_message,
                                       compress=False)
        await socket.prepare(request)
        # Refusals from here on are a close frame with a line the page shows the player, in
        # the browser's language.
        group = self.group(addr)
        why = self.knock(group) or self.admit(group, owner)
        if why is not None:
            log.info("web tab from %s refused: %s", addr, why("en"))
            await socket.close(code=POLICY, message=words.reason(why(said_in(request))))
            return socket
        page = request.headers.get("Origin", "").rstrip("/") + "/"
        await self._play(socket, request, Place(addr, group, owner, said_in(request),
                                                page=page))
        return socket

    def knock(self, group: str) -> Callable[[str], str] | None:
        """Count a new tab from `group`: None if it may open, else why not in a language."""
        if self.rate.allow(group):
            return None
        return lambda lang: words.said("rate", lang, where=words.where(group, lang),
                                       count=self.limits.per_minute)

    def admit(self, group: str, owner: str) -> Callable[[str], str] | None:
        """None if a tab from `group` for `owner` has a place, else why not in a language."""
        each = self.limits.per_address
        key = ("address" if sum(p.group == group for p in self.tabs.values()) >= each
               else "browser" if sum(p.owner == owner for p in self.tabs.values()) >= each
               else "full" if len(self.tabs) >= self.limits.max_tabs else None)
        if key is None:
            return None
        most = self.limits.max_tabs if key == "full" else each
        return lambda lang: words.said(key, lang, where=words.where(group, lang),
                                       tabs=words.counted(most, "tab", lang))

    def tab_env(self, place: Place) -> dict[str, str]:
        """What a tab's app gets: its browser's own folders (seats, settings, the identity its
        games are rated under, made there on first start: a browser is a player as an SSH key
        is) and the table's relay and ladder."""
        home = player_dir(place.owner, self.config.players)
        env = player_env(base_env(), home, place.owner, FALLBACK_NAME, self.relay_url,
                         rated=True)
        env[WEB_ENV] = "1"
        if place.page:
            env[TABLE_PAGE_ENV] = place.page
        if place.lang == "de":  # as a terminal's locale would ask (tui.app.default_language)
            env["LC_MESSAGES"] = "de_DE.UTF-8"
        return env

    async def _play(self, socket: web.WebSocketResponse, request: web.Request,
                    place: Place) -> None:
        env = self.tab_env(place)
        report = Path(env["TABLETOP_TUI_HOME"]) / f"crash-{secrets.token_hex(8)}.txt"
        env[inside.CRASH_ENV] = str(report)
        # A tab's app starts where its player sat: a reload or a closed tab is a hang-up,
        # never a leaving (tui.comeback).
        app = TabApp(self.forks, ["back"], env, env["TABLETOP_TUI_HOME"], socket)
        limits = self.limits
        tab = Tab(socket, app, limits.max_cols, limits.max_rows, limits.idle_minutes, place.lang)
        self.tabs[tab] = place
        log.info("web tab from %s (%s)", place.addr, counted(len(self.tabs), "live tab"),
                 extra=logs.EVERY)
        try:
            await tab.run(_number(request.query.get("width"), 80),
                          _number(request.query.get("height"), 24))
        except OSError as exc:
            log.error("cannot start a tab's app: %s", exc)
            await tab.close(POLICY, "cannot_start")
        finally:
            del self.tabs[tab]
            code = app.child.forked.returncode if app.child is not None else None
            if (text := take_report(report)) is not None:
                log.error("web tab from %s: the app crashed (exit status %s)\n%s", place.addr,
                          code, text.rstrip())
            log.info("web tab from %s ended after %s: %s (%s)", place.addr,
                     lasted(time.monotonic() - place.since),
                     tab.ending or ended_why(code),
                     counted(len(self.tabs), "live tab"), extra=logs.EVERY)


def said_in(request: web.Request) -> str:
    """The language the browser asks for (page.language)."""
    return page.language(request.headers.get("Accept-Language", ""))


def ended_why(code: int | None) -> str:
    """Why a tab's app ended, for the log."""
    if code is None:
        return "the app did not start"
    if code == -signal.SIGHUP:
        return "the tab closed"
    return "the player quit" if code == 0 else f"the app ended with {code}"


def _peer(request: web.Request) -> str:
    peer = request.transport.get_extra_info("peername") if request.transport else None
    return str(peer[0]) if peer else "unknown"


def _number(text: str | None, default: int) -> int:
    try:
        return int(text or "")
    except ValueError:
        return default


class WebUnavailable(OSError):
    """The web table cannot open (its port, its fork server); the text says why."""


def beside(config: WebConfig, say: Callable[[str], None]) -> Beside:
    """The web table as the SSH table's neighbour (net.ssh.server.serve_with_ssh): started on
    the relay's URL, sharing the SSH table's fork server when there is one."""

    async def start(relay_url: str, forks: Forks | None) -> Callable[[], Awaitable[None]]:
        table = WebTable(config, relay_url, forks)
        try:
            await table.start()
        except OSError as exc:
            raise WebUnavailable(f"cannot open the web table on {config.where}: "
                                 f"{exc.strerror or exc}") from None
        say(table.banner())
        return table.stop

    return start
