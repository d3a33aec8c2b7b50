"""The web table plays the attacker's game and wins it: raw HTTP and websocket clients on
127.0.0.1 (tests/net/web_support.py) against each check of net.web.door and each limit of
net.web.limits, and against a tab's websocket sending what no page sends. Every refusal
starts no app, and one tab's garbage or flood closes that tab alone."""

from __future__ import annotations

import asyncio
import logging
import signal
from collections.abc import Awaitable
from typing import Any

import aiohttp
import pytest
from web_support import OpenWeb, WebPlayer

from net.host.hosting import TABLE_PAGE_ENV
from net.players import identity
from net.ssh.pty import HANGUP_GRACE
from net.web import door
from net.web.tab import POLICY, UNSUPPORTED

ATTACKER = "127.0.0.66"  # every address of 127/8 reaches the table
SILENCE = 0.5  # seconds in which an answer the table must not give does not come
ANSWER = 10.0  # seconds to wait for an answer the table must give (not a measure)
MAX_STEPS = 500  # bounds a wait on the table, so a broken build fails instead of hanging


async def menu(player: WebPlayer) -> WebPlayer:
    await player.load()
    await player.open()
    await player.wait_for("Host a game", "the menu")
    return player


async def closing(players: list[WebPlayer], body: Awaitable[Any]) -> Any:
    try:
        return await body
    finally:
        for player in players:
            await player.close()


async def test_a_foreign_origin_no_origin_or_a_foreign_host_name_opens_no_game(
    open_web: OpenWeb,
) -> None:
    """Any page a player visits may open a websocket to the table; only the table's own
    page may start a game. A foreign name that resolves here (DNS rebinding) makes Origin
    and Host agree, so the name itself must be one the table answers to."""
    table = await open_web()
    player = WebPlayer(table.port)
    try:
        await player.load()
        for origin in ("http://evil.example", "null", f"http://127.0.0.1:{table.port + 1}",
                       None):
            with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
                await player.open(origin=origin)
            assert refused.value.status == 403, origin
        rebound = {"Host": f"evil.example:{table.port}"}
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await player.open(origin=f"http://evil.example:{table.port}", headers=rebound)
        assert refused.value.status == 421
        async with player.http.get(player.base + "/", headers=rebound) as page:
            assert page.status == 421
        assert not table.tabs
        await player.open()  # the table's own page is let in
        await player.wait_for("Host a game", "the menu")
    finally:
        await player.close()


async def test_static_files_are_served_but_never_listed_nor_escaped(open_web: OpenWeb) -> None:
    table = await open_web()
    async with aiohttp.ClientSession() as http:
        base = f"http://127.0.0.1:{table.port}"
        async with http.get(base + "/static/js/textual.js") as script:
            assert script.status == 200
            assert script.headers["X-Content-Type-Options"] == "nosniff"
        for path in ("/static/", "/static/js/", "/static/fonts", "/static/../server.py",
                     "/static/%2e%2e/server.py", "/download/x"):
            async with http.get(base + path) as answer:
                assert answer.status in (403, 404), path
                assert "textual.js" not in await answer.text(), path
        async with http.get(base + "/") as page:
            assert page.headers["X-Frame-Options"] == "DENY"
            assert "frame-ancestors 'none'" in page.headers["Content-Security-Policy"]
            cookie = page.headers["Set-Cookie"]
            assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


async def test_a_browser_without_its_cookie_opens_no_game_and_each_browser_is_its_own_owner(
    open_web: OpenWeb, caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.INFO)
    table = await open_web()
    stranger = WebPlayer(table.port)
    ada, bob = WebPlayer(table.port), WebPlayer(table.port)

    async def body() -> None:
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await stranger.open()  # never loaded the page: no identity
        assert refused.value.status == 403
        await menu(ada)
        await menu(bob)
        owners = {place.owner for place in table.tabs.values()}
        assert len(owners) == 2 and all(o.startswith("web-") for o in owners)
        secrets = [c.value for p in (ada, bob) for c in p.http.cookie_jar
                   if c.key == door.IDENTITY_COOKIE]
        assert len(secrets) == 2 and {door.owner_of(s) for s in secrets} == owners
        for place in table.tabs.values():  # a browser is a player, rated as an SSH key is
            env = table.tab_env(place)
            assert identity.UNRATED_ENV not in env and place.owner in env["TABLETOP_TUI_HOME"]
            # The page it came from, for the lobby to give friends with only a browser.
            assert env[TABLE_PAGE_ENV] == f"http://127.0.0.1:{table.port}/"
        assert "web tab from 127.0.0.1 (2 live tabs)" in caplog.text
        await ada.close()
        async with asyncio.timeout(10):
            while "ended after" not in caplog.text:
                await asyncio.sleep(0.05)
        assert "the tab closed (1 live tab)" in caplog.text, caplog.text
        assert not any(s in caplog.text for s in secrets)  # a secret is never logged

    await closing([stranger, ada, bob], body())


async def test_a_table_started_under_nohup_still_hangs_up_on_a_closed_tab(
    open_web: OpenWeb, caplog: pytest.LogCaptureFixture,
) -> None:
    """nohup leaves SIGHUP ignored for everything the table starts: a session that kept it so
    would outlive its closed tab until killed, without noting where its player sat."""
    caplog.set_level(logging.INFO)
    before = signal.signal(signal.SIGHUP, signal.SIG_IGN)
    try:
        table = await open_web()
    finally:
        signal.signal(signal.SIGHUP, before)
    ada = WebPlayer(table.port)

    async def body() -> None:
        await menu(ada)
        await ada.close()
        async with asyncio.timeout(10):
            while "ended after" not in caplog.text:
                await asyncio.sleep(0.05)
        assert "the tab closed (0 live tabs)" in caplog.text, caplog.text

    await closing([ada], body())


async def test_tabs_per_address_per_browser_and_in_all_are_capped_with_a_line(
    open_web: OpenWeb,
) -> None:
    """Behind a trusted proxy each client counts under the address it forwards."""
    table = await open_web(per_address=2, max_tabs=4, trusted="127.0.0.1")
    players: list[WebPlayer] = []

    async def from_address(addr: str, like: WebPlayer | None = None) -> WebPlayer:
        player = WebPlayer(table.port)
        players.append(player)
        if like is None:
            await player.load()
        else:  # the same browser: its cookie
            player.http.cookie_jar.update_cookies(
                {c.key: c.value for c in like.http.cookie_jar})
        await player.open(headers={"X-Forwarded-For": addr})
        return player

    async def body() -> None:
        await from_address("198.51.100.1")
        await (await from_address("198.51.100.1")).wait_for("Host a game", "a second tab")
        third = await from_address("198.51.100.1")
        assert await third.wait_closed() == POLICY
        assert "198.51.100.1 has 2 tabs at this table already" in third.reason()
        browser = await from_address("198.51.100.2")
        await (await from_address("198.51.100.3", like=browser)).wait_for(
            "Host a game", "the same browser's second tab, from another address")
        same_browser = await from_address("198.51.100.4", like=browser)
        assert await same_browser.wait_closed() == POLICY
        assert "you have 2 tabs at this table already" in same_browser.reason()
        full = await from_address("198.51.100.5")
        assert await full.wait_closed() == POLICY
        assert "this table is full (4 tabs)" in full.reason()
        assert len(table.tabs) == 4

    await closing(players, body())


async def test_one_address_holding_many_connections_shuts_out_nobody_else(
    open_web: OpenWeb,
) -> None:
    """A thousand idle connections (or requests sent a byte at a time) from one address: the
    table holds its share and answers the rest with one line, and a player elsewhere plays."""
    table = await open_web(per_address=1)
    table.group = str  # each loopback address its own, as machines of their own
    most = table.limits.per_address_connections
    held: list[asyncio.StreamWriter] = []

    async def connect() -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", table.port, local_addr=(ATTACKER, 0))
        held.append(writer)
        return reader, writer

    async def body() -> None:
        for _ in range(most):
            await connect()
        held[0].write(b"GET / HTTP/1.1\r\nHo")  # a request that never ends
        for _ in range(200):
            reader, _writer = await connect()
            answer = await asyncio.wait_for(reader.read(), ANSWER)  # the line, then the end
            assert answer.startswith(b"HTTP/1.1 503 ")
            assert f"too many connections from address {ATTACKER}: at most {most}".encode() \
                in answer
        await menu(player)  # from another address, while the attacker holds its share
        held[1].close()  # one of the attacker's held ones goes: one more may come
        for _ in range(MAX_STEPS):
            if len([t for g, t in table.connections.open if g == ATTACKER
                    and not t.is_closing()]) < most:
                break
            await asyncio.sleep(0.01)
        reader, _writer = await connect()
        with pytest.raises(TimeoutError):  # held open, waiting for a request
            await asyncio.wait_for(reader.read(1), SILENCE)

    player = WebPlayer(table.port)
    try:
        await closing([player], body())
    finally:
        for writer in held:
            writer.close()


async def test_the_table_full_of_connections_answers_the_next_with_a_line(
    open_web: OpenWeb,
) -> None:
    """Idle connections from many addresses fill the table's total: the next address gets
    the line, and a connection freed lets one more in."""
    table = await open_web(per_address=1, max_tabs=1)
    table.group = str
    share, most = table.limits.per_address_connections, table.limits.max_connections
    held: list[asyncio.StreamWriter] = []

    async def connect(addr: str) -> asyncio.StreamReader:
        reader, writer = await asyncio.open_connection("127.0.0.1", table.port,
                                                       local_addr=(addr, 0))
        held.append(writer)
        return reader

    try:
        for n in range(most // share):
            for _ in range(share):
                await connect(f"127.0.1.{n + 1}")
        answer = await asyncio.wait_for((await connect("127.0.2.1")).read(), ANSWER)
        assert answer.startswith(b"HTTP/1.1 503 ")
        assert b"the table has too many connections" in answer
    finally:
        for writer in held:
            writer.close()


async def test_a_tab_the_table_cannot_start_is_closed_with_a_line(open_web: OpenWeb) -> None:
    """No fork server to start its app (the table's is stopped): the tab is told so, and the
    table goes on."""
    table = await open_web()
    await table.forks.stop()
    player = WebPlayer(table.port)

    async def body() -> None:
        await player.load()
        await player.open()
        assert await player.wait_closed() == POLICY
        assert "the table cannot start a game right now" in player.reason()
        for _ in range(MAX_STEPS):  # its place is given back as the table finishes with it
            if not table.tabs:
                break
            await asyncio.sleep(0.01)
        assert table.tabs == {}

    await closing([player], body())


async def test_an_address_opening_tabs_too_fast_waits_a_minute(open_web: OpenWeb) -> None:
    table = await open_web(per_minute=2)
    players = [WebPlayer(table.port) for _ in range(3)]

    async def body() -> None:
        for player in players[:2]:
            await menu(player)
            await player.ws.close()  # type: ignore[union-attr]
        await players[2].load()
        await players[2].open()
        assert await players[2].wait_closed() == POLICY
        assert "too many new tabs from" in players[2].reason()
        assert "at most 2 a minute" in players[2].reason()

    await closing(players, body())


async def test_the_shared_password_is_asked_first_and_guessing_is_slowed_per_address(
    open_web: OpenWeb,
) -> None:
    table = await open_web(password="open sesame", password_delay=2.0)
    waits: list[float] = []

    async def pause(seconds: float) -> None:
        waits.append(seconds)

    table.pause = pause  # type: ignore[method-assign]
    guesser = WebPlayer(table.port)
    friend = WebPlayer(table.port)

    async def login(player: WebPlayer, password: str, origin: str | None = "same"
                    ) -> aiohttp.ClientResponse:
        headers = {"Origin": player.base} if origin == "same" else \
            ({"Origin": origin} if origin else {})
        async with player.http.post(player.base + "/login", data={"password": password},
                                    headers=headers, allow_redirects=False) as answer:
            await answer.read()
            return answer

    async def body() -> None:
        page = await guesser.load()
        assert "asks for a password" in await _text(guesser)
        assert door.IDENTITY_COOKIE not in {c.key for c in guesser.http.cookie_jar}, page
        with pytest.raises(aiohttp.WSServerHandshakeError) as refused:
            await guesser.open()
        assert refused.value.status == 403
        assert (await login(guesser, "sesame", origin="http://evil.example")).status == 403
        for guess in ("sesame", "open", "Open Sesame"):
            assert (await login(guesser, guess)).status == 403
        assert waits == [0.0, 2.0, 4.0]
        answer = await login(guesser, "open sesame")  # right, after the guesser's wait
        assert answer.status == 303 and waits[-1] == 8.0
        await menu(guesser)
        # The delay is per address: loopback is one, so a friend here waits too; a right
        # password lets in, a wrong one never does.
        assert (await login(friend, "open sesame")).status == 303
        await menu(friend)

    await closing([guesser, friend], body())


async def _text(player: WebPlayer) -> str:
    async with player.http.get(player.base + "/") as page:
        return await page.text()


@pytest.mark.parametrize("attack", ["not json", "binary", "bad utf-8", "unknown kind",
                                    "too large", "flood"])
async def test_garbage_or_a_flood_closes_that_tab_alone(open_web: OpenWeb, attack: str) -> None:
    table = await open_web(max_message=4096)
    victim, bystander = WebPlayer(table.port), WebPlayer(table.port)

    async def body() -> None:
        await menu(victim)
        await menu(bystander)
        ws = victim.ws
        assert ws is not None
        if attack == "not json":
            await ws.send_str("{not json")
        elif attack == "binary":
            await ws.send_bytes(b"\x00\x01garbage")
        elif attack == "bad utf-8":
            await ws.send_frame(b'["stdin", "\xff\xfe"]', aiohttp.WSMsgType.TEXT)
        elif attack == "unknown kind":
            await victim.send("exec", "rm -rf /")
        elif attack == "too large":
            await victim.send("stdin", "x" * 5000)
        else:
            for _ in range(2000):
                if ws.closed or victim.closed is not None:
                    break
                await victim.send("resize", {"width": 80, "height": 24})
        code = await victim.wait_closed()
        assert code in (UNSUPPORTED, POLICY, 1007, 1009), code
        if attack == "flood":
            assert "too much at once" in victim.reason()
        await bystander.press("enter")
        await bystander.wait_for("Choose a game", "the other tab going on")
        async with asyncio.timeout(HANGUP_GRACE + 10):  # the victim's app is on its way out
            while len(table.tabs) != 1:
                await asyncio.sleep(0.05)

    await closing([victim, bystander], body())


async def test_a_lone_surrogate_or_a_silly_size_changes_nothing(open_web: OpenWeb) -> None:
    """Messages of the right kind with values no page sends are taken as harmless: a key
    that is no character becomes U+FFFD, a size is clamped, a ping answered."""
    table = await open_web()
    player = WebPlayer(table.port)

    async def body() -> None:
        await menu(player)
        await player.send("stdin", "\ud800")
        await player.send("resize", {"width": -5, "height": 10 ** 9})
        await player.send("ping", "x")
        await player.send("resize", {"width": 100, "height": 30})
        await player.press("enter")
        await player.wait_for("Choose a game", "the menu still taking keys")
        assert '["pong", "x"]' in player.texts
        assert player.closed is None

    await closing([player], body())


async def test_a_tab_left_without_a_key_pressed_is_closed_with_a_line(open_web: OpenWeb) -> None:
    table = await open_web(idle_minutes=0.02)
    player = WebPlayer(table.port)

    async def body() -> None:
        await menu(player)
        assert await player.wait_closed() == POLICY
        assert "closed after 1 second without a key pressed" in player.reason()

    await closing([player], body())


async def test_a_forwarded_address_from_an_untrusted_peer_counts_for_nothing(
    open_web: OpenWeb,
) -> None:
    table = await open_web(per_address=1)
    one, two = WebPlayer(table.port), WebPlayer(table.port)

    async def body() -> None:
        await menu(one)
        await two.load()
        await two.open(headers={"X-Forwarded-For": "203.0.113.9"})
        assert await two.wait_closed() == POLICY
        assert "this machine" in two.reason() or "loopback" in two.reason() or \
            "has 1 tab" in two.reason()

    await closing([one, two], body())


async def test_cookies_are_marked_secure_behind_a_trusted_tls_proxy_only(
    open_web: OpenWeb,
) -> None:
    trusted = await open_web(trusted="127.0.0.1")
    untrusted = await open_web()
    https = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "198.51.100.7"}
    async with aiohttp.ClientSession() as http:
        for table, secure in ((trusted, True), (untrusted, False)):
            async with http.get(f"http://127.0.0.1:{table.port}/", headers=https) as page:
                assert ("Secure" in page.headers["Set-Cookie"]) is secure
        async with http.get(f"http://127.0.0.1:{trusted.port}/") as page:
            assert "Secure" not in page.headers["Set-Cookie"]


async def test_a_german_browser_gets_german_words_and_a_german_app(open_web: OpenWeb) -> None:
    """The page's words and the app's first language follow Accept-Language (the browser's
    order); any other browser gets English."""
    table = await open_web()
    german, other = WebPlayer(table.port), WebPlayer(table.port)
    asked = {"Accept-Language": "de-AT,de;q=0.9,en;q=0.5"}

    async def body() -> None:
        async with german.http.get(german.base + "/", headers=asked) as response:
            assert "Nochmal spielen" in await response.text()
        await german.open(headers=asked)
        await german.wait_for("Spiel eröffnen", "the menu in German")
        async with other.http.get(other.base + "/",
                                  headers={"Accept-Language": "fr-FR,en;q=0.8"}) as response:
            assert "Play again" in await response.text()
        await other.open(headers={"Accept-Language": "fr-FR"})
        await other.wait_for("Host a game", "the menu in English")

    await closing([german, other], body())


async def test_a_german_browser_is_refused_and_closed_in_german(open_web: OpenWeb) -> None:
    """The table's own lines (a limit, the idle timeout) in the browser's language, cut
    whole to what a close frame carries."""
    table = await open_web(per_address=1, idle_minutes=0.02)
    asked = {"Accept-Language": "de-DE,de;q=0.9"}
    first, second = WebPlayer(table.port), WebPlayer(table.port)

    async def body() -> None:
        for player in (first, second):
            await player.load(headers=asked)
        await first.open(headers=asked)
        await first.wait_for("Spiel eröffnen", "the menu in German")
        await second.open(headers=asked)
        assert await second.wait_closed() == POLICY
        assert second.reason().startswith("dieser Rechner hat schon 1 Tab an diesem Tisch")
        assert await first.wait_closed() == POLICY
        assert "geschlossen nach 1 Sekunde ohne Tastendruck" in first.reason()

    await closing([first, second], body())
