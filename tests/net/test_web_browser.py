"""The web table in a real browser: Debian's headless Chromium (bench/chromium.py) loads
the table's page on 127.0.0.1, and the tests read what xterm.js painted and type as a person
does. A game against bots to its results, a browser player in a room hosted over SSH, a
refresh back in the seat, a tab closed mid-game, a tap and the key bar, the table at a
phone's and a desktop's size (the screenshots land in $TABLETOP_TUI_SHOTS when it is set),
and two attacks a browser makes: another site's page opening a game, tabs past the caps."""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from aiohttp import web
from ssh_support import OpenTable, connect, host_with_a_bot
from test_ssh_play import until
from web_support import OpenWeb

from bench.chromium import Browser, Tab
from net.host.hosting import HostPlan, open_room
from net.relay.server import Relay
from tui.screens.menu import MENU_ITEMS

TURNS = 200


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    chromium = Browser()
    await chromium.start()
    try:
        yield chromium
    finally:
        await chromium.stop()


async def open_page(browser: Browser, port: int, **size: object) -> Tab:
    tab = await browser.tab(**size)  # type: ignore[arg-type]
    await tab.goto(f"http://127.0.0.1:{port}/")
    await tab.wait_for("Host a game", "the menu painted")
    await tab.focus()
    return tab


def cards_left(text: str) -> str:
    found = re.search(r"\d+ more cards? to come|the last card", text)
    return found.group(0) if found else ""


async def take_until_the_results(tab: Tab) -> str:
    """Take every card offered to this tab's player (a turn taken keeps the turn, so the
    bots rarely move), until the results show."""
    for _ in range(TURNS):
        text = await tab.text()
        if "Results" in text:
            return text
        if "Your turn" in text.splitlines()[0]:
            await take(tab, text)
        else:
            await asyncio.sleep(0.1)
    raise AssertionError("the game did not end:\n" + await tab.text())


async def take(tab: Tab, text: str) -> None:
    """Take the card offered (`text`: the screen now), until the screen shows the next one
    or the results."""
    before = cards_left(text)
    await tab.press("t")

    async def moved() -> bool:
        now = await tab.text()
        return "Results" in now or cards_left(now) not in ("", before)

    await tab.until(moved, "the next card after a take")


def shot(name: str) -> Path | None:
    folder = os.environ.get("TABLETOP_TUI_SHOTS")
    return Path(folder) / name if folder else None


async def test_the_page_paints_the_menu_and_keys_play_a_game_against_bots_to_the_results(
    open_web: OpenWeb, browser: Browser,
) -> None:
    table = await open_web()
    tab = await open_page(browser, table.port)
    tab_text = await tab.text()
    assert "Play a local game" in tab_text and "Quit" in tab_text
    await tab.press("enter")
    await tab.wait_for("Choose a game")
    await tab.press("enter")  # Schöne Sch#!?e, the first
    await tab.wait_for("new table")
    await tab.press("f5")
    await tab.wait_for("more cards to come", "the table")
    if (path := shot("desktop-table.png")) is not None:
        await tab.screenshot(path)
    text = await take_until_the_results(tab)
    await tab.wait_for("★ winner", "the results")
    assert "Bot 1" in await tab.text(), text


async def test_a_browser_player_joins_a_room_hosted_over_ssh_and_a_refresh_is_back_in_the_seat(
    open_table: OpenTable, open_web: OpenWeb, relay: Relay, browser: Browser,
) -> None:
    """Ada hosts over SSH; a browser player joins by code through the same fork server and
    both see the same table. The browser's page is then loaded again: its new app, run as
    the same browser's owner, takes the player straight back to the same seat."""
    ssh = await open_table()
    web = await open_web(forks=ssh.forks)
    ada = await connect(ssh.port, "ada")
    try:
        code = await host_with_a_bot(ada)

        tab = await open_page(browser, web.port)
        await join_by_code(tab, code)
        await tab.wait_for("Waiting for the host to start", "the browser's lobby")
        await ada.wait_for("player", "the browser player in the host's lobby")
        ada.press("f5")
        await ada.wait_for(f"room {code}", "ada's table")
        await tab.wait_for(f"room {code}", "the browser's table")

        async def same_card() -> bool:
            mine = cards_left(await tab.text())
            return bool(mine) and mine == cards_left(ada.text())

        await tab.until(same_card, "the same card count on both screens")

        await tab.send("Page.reload")
        await tab.wait_for(f"room {code}", "the browser back at the table by itself")
        await tab.focus()
        await tab.until(same_card, "the same table again")
        assert "Waiting for the host" not in await tab.text()
    finally:
        await ada.close()


async def join_by_code(tab: Tab, code: str) -> None:
    await tab.press(*["down"] * MENU_ITEMS.index("join"), "enter")
    await tab.wait_for("Join code (e.g.", "the join form")
    for char in code:
        await tab.press(char.lower() if char.isalpha() else char)
    await tab.press("enter")


async def test_a_tab_closed_mid_game_is_a_dropped_player_whose_seat_a_bot_takes_over(
    open_web: OpenWeb, relay: Relay, browser: Browser,
) -> None:
    web = await open_web()
    room = await open_room(HostPlan("schoene", 3, server=relay.url))
    host = room.host
    try:
        host.set_takeover(1.0)
        tab = await open_page(browser, web.port)
        await join_by_code(tab, host.display_code)
        await tab.wait_for("Waiting for the host to start", "the browser's lobby")
        host.add_bot()
        host.add_bot()
        host.start()
        await tab.wait_for(f"room {host.display_code}", "the browser's table")
        await tab.close()
        await until(lambda: not host.seat_list()[0]["connected"], "the seat away")
        assert host.seat_list()[0]["name"] == "player"
        await until(lambda: host.seats[0].auto, "a bot playing the seat")
        await until(lambda: not web.tabs, "the tab's app ended")
    finally:
        await room.close()


async def test_a_tap_works_where_a_click_does(open_web: OpenWeb, browser: Browser) -> None:
    table = await open_web()
    tab = await open_page(browser, table.port, width=390, height=844, scale=3, mobile=True)
    where = await tab.until(lambda: _find(tab, "Host a game"), "the menu's second line")
    await tab.tap(*await tab.cell_centre(*where))
    await tab.wait_for("Open the room", "the host form opened by a tap")


async def tap_key(tab: Tab, label: str) -> None:
    """Tap the page's key bar button labelled `label`."""
    where = await tab.evaluate(
        "(() => { for (const b of document.querySelectorAll('#keys button')) {"
        f" if (b.textContent === {label!r}) {{ b.scrollIntoView({{inline: 'center'}});"
        " const r = b.getBoundingClientRect();"
        " return [r.x + r.width / 2, r.y + r.height / 2, r.width]; } } return null; })()")
    assert where is not None and where[2] > 0, f"no {label} on the key bar (shown: {where})"
    await tab.tap(where[0], where[1])


async def _find(tab: Tab, text: str) -> tuple[int, int] | None:
    for row, line in enumerate((await tab.text()).splitlines()):
        if (col := line.find(text)) >= 0:
            return col + 1, row
    return None


async def test_a_phone_gets_a_terminal_of_45_columns_or_more_and_the_desktop_a_large_one(
    open_web: OpenWeb, browser: Browser,
) -> None:
    """A phone is a browser of three device pixels to a CSS pixel (a switch of Chromium's: its
    emulated scale leaves xterm's canvas drawn at one, magnified), in portrait, with touch."""
    table = await open_web()
    phone_browser = Browser("--force-device-scale-factor=3")
    await phone_browser.start()
    try:
        phone = await open_page(phone_browser, table.port, width=390, height=844, scale=0,
                                mobile=True)
        size = await phone.screen()
        assert size is not None and size["cols"] >= 45 and size["rows"] >= 30, size
        # A phone's keyboard has no Esc, F-keys or arrows: the page's key bar has.
        await tap_key(phone, "⏎")
        await phone.wait_for("Choose a game")
        await tap_key(phone, "⏎")
        await phone.wait_for("new table")
        await tap_key(phone, "F5")
        await phone.until(lambda: _find(phone, "Your turn"), "the table on the phone")
        if (path := shot("phone-table.png")) is not None:
            await phone.screenshot(path)
        await tap_key(phone, "Esc")
        await tap_key(phone, "Esc")  # Esc twice leaves a game
        await phone.wait_for("Play a local game", "the menu again, by the key bar alone")
        # Held sideways, the font shrinks until a table's rows fit.
        await phone.resize(844, 390, 0, mobile=True)
        await phone.send("Page.reload")
        await phone.wait_for("Host a game", "the menu, sideways")
        size = await phone.screen()
        assert size is not None and size["rows"] >= 24 and size["cols"] >= 80, size
        if (path := shot("phone-sideways.png")) is not None:
            await phone.screenshot(path)
    finally:
        await phone_browser.stop()
    desktop = await open_page(browser, table.port, width=1440, height=900)
    size = await desktop.screen()
    assert size is not None and size["cols"] >= 160 and size["rows"] >= 45, size


async def test_a_page_of_another_site_cannot_open_a_game_in_the_players_browser(
    open_web: OpenWeb, browser: Browser,
) -> None:
    """The player has the table open (their browser holds its cookie); a page of another site
    they visit tries a websocket to the table: refused, and no app starts."""
    table = await open_web()
    await open_page(browser, table.port)
    assert len(table.tabs) == 1
    async def cats(_: web.Request) -> web.Response:
        return web.Response(text="<p>cat pictures</p>", content_type="text/html")

    evil = web.Application()
    evil.add_routes([web.get("/", cats)])
    runner = web.AppRunner(evil)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    try:
        port = runner.addresses[0][1]
        other = await browser.tab()
        await other.goto(f"http://127.0.0.1:{port}/")
        said = await other.evaluate(
            "new Promise(done => { const ws = new WebSocket("
            f"'ws://127.0.0.1:{table.port}/ws?width=80&height=24');"
            " ws.onopen = () => done('open'); ws.onclose = () => done('closed'); })")
        assert said == "closed"
        assert len(table.tabs) == 1  # the player's own tab, nothing more
    finally:
        await runner.cleanup()


async def test_a_browser_past_its_tabs_is_told_why_in_the_page(
    open_web: OpenWeb, browser: Browser,
) -> None:
    table = await open_web(per_address=2)
    for _ in range(2):
        await open_page(browser, table.port)
    third = await browser.tab()
    await third.goto(f"http://127.0.0.1:{table.port}/")
    why = await third.until(
        lambda: third.evaluate("document.body.classList.contains('-closed') &&"
                               " document.getElementById('why').textContent"),
        "the refusal in the third tab")
    assert "2 tabs at this table already" in why, why
    assert len(table.tabs) == 2
