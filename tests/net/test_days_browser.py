"""Play over days in a real browser: a player in Debian's headless Chromium (bench/chromium.py)
at a web table takes the open seat of a game Ann opened headless (her moves go through the
table's store as a script's do), plays, the web table stops and a new one starts on the same
store, and the same browser (its cookie: the same player, the same identity) comes back to
the game and plays it to its end; every move is in the store and the record verifies."""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

from days_support import people_move
from netsupport import someone
from test_web_browser import browser, open_page, take  # noqa: F401  (the fixture)
from web_support import OpenWeb

from bench.chromium import Browser, Tab
from net import records
from net.days import table
from net.days.link import with_store
from net.days.store import OVER, PLAYING
from net.players import counted
from net.relay.server import Relay

PLAY_SECONDS = 120.0


async def _ann_plays(game_id: str, ann: object) -> None:
    """Ann, headless: whenever the game waits for her, a seeded choice of her moves."""
    rng = random.Random(7)
    who = {ann.fingerprint: ann}  # type: ignore[attr-defined]

    def step() -> str:
        def move(store):  # type: ignore[no-untyped-def]
            game = store.load(game_id)
            if game is None or game.status != PLAYING:
                return OVER
            if any(game.seats[s].ident in who for s in game.to_act):
                people_move(store, game, time.time(), rng, who)
            return PLAYING

        return str(with_store(None, move))

    while await asyncio.to_thread(step) == PLAYING:
        await asyncio.sleep(0.2)


async def _takes(tab: Tab, moves: int | None) -> int:
    """The browser player takes the card whenever the top line says it is their turn, until
    `moves` were made or (None) the results show; how many it made."""
    made = 0
    deadline = time.monotonic() + PLAY_SECONDS
    while time.monotonic() < deadline:
        text = await tab.text()
        if moves is None and "Results" in text:
            return made
        if moves is not None and made >= moves:
            return made
        if text and "Your turn" in text.splitlines()[0]:
            await take(tab, text)
            made += 1
        else:
            await asyncio.sleep(0.1)
    raise AssertionError("the game did not go on:\n" + await tab.text())


async def _to_the_game(tab: Tab) -> None:
    """From the menu: `w` opens the game waiting longest for this player, else the list,
    where Enter opens the first game."""
    await tab.wait_for("Play over days", "the menu's entry at a web table")
    await tab.press("w")

    async def there() -> bool:
        text = await tab.text()
        return "more card" in text or "the last card" in text or "Waiting for the others" in text

    await tab.until(there, "the game or the list")
    if "more card" not in await tab.text() and "the last card" not in await tab.text():
        await tab.press("enter")
    await tab.until(lambda: _at_table(tab), "the game screen")


async def _at_table(tab: Tab) -> bool:
    text = await tab.text()
    return "more card" in text or "the last card" in text or "Results" in text


async def test_a_browser_player_plays_a_game_over_days_across_a_web_table_restart(
        open_web: OpenWeb, relay: Relay, browser: Browser,  # noqa: F811
) -> None:
    ann = someone()

    def opened(store):  # type: ignore[no-untyped-def]
        return table.open_game(store, "schoene", [table.SeatPlan("me"), table.SeatPlan("open"),
                                                  table.SeatPlan("bot", "random")],
                               ann, "Ann", time.time())

    game = with_store(None, opened)
    first = await open_web()
    tab = await open_page(browser, first.port)
    await tab.wait_for("Play over days", "the menu's entry at a web table")
    await tab.press("w")  # no game waits for this player: the list, with the open game
    await tab.wait_for("Open games", "the open game in the browser's list")
    await tab.press("enter")
    await tab.until(lambda: _at_table(tab), "the browser at the table")
    seated = with_store(None, lambda store: store.load(game.id))
    assert seated is not None and seated.status == PLAYING
    mine = seated.seats[1].ident
    assert mine and mine != ann.fingerprint  # the browser's own identity took the seat
    ann_task = asyncio.get_running_loop().create_task(_ann_plays(game.id, ann))
    try:
        before = await _takes(tab, 2)
        await first.stop()  # the web table goes down; the game is in its store alone
        await tab.close()
        second = await open_web()
        tab = await open_page(browser, second.port)  # the same browser: its cookie, its seat
        await _to_the_game(tab)
        after = await _takes(tab, None)
        await tab.wait_for("★ winner", "the results in the browser")
        async with asyncio.timeout(30):
            await ann_task
    finally:
        ann_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await ann_task
    done = with_store(None, lambda store: store.load(game.id))
    assert done is not None and done.status == OVER and done.record
    # Every take of the browser is a move of its seat in the store, made by the player.
    by_browser = [m for seat, m, by in done.moves if seat == 1 and by == "player"]
    assert before == 2 and len(by_browser) >= before + after
    assert len(table.session_of(done).moves) == done.state_no == len(done.moves)
    found = counted.outcome(records.parse(done.record))  # the deal and every proof check out
    assert {s.ident for s in found.seats} == {ann.fingerprint, mine, "bot:random"}
