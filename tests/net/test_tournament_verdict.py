"""The app's verdict on a game at a tournament's duplicate table: a real table on a relay on
127.0.0.1 dealt from the round's seed (or, by a cheating organiser, from another), a real
guest link playing it out, and its end shown on the results screen of the app, which reads
the round from the table's store: before the round closes it says the deal is checked then;
once the round seed is revealed it says verified, or names the failure. And the whole way by
keys: menu → Tournaments → enter → sit down → play → the checked deal."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from netsupport import TIMEOUT, Player
from test_net_tui import screen_of, until
from test_tournament_tui import open_tournaments
from textual.widgets import Static

from net.director import Director
from net.host.authority import NetHost
from net.host.hosting import TABLE_RELAY_ENV
from net.host.seats import Seat, new_token
from net.peer.remote import RemoteLink
from net.players import ladder
from net.players.tournaments import Event, Tournaments
from net.relay.server import Relay
from net.tournament import duplicate
from net.wire import proofs
from tui.app import TabletopApp
from tui.screens import results
from tui.screens.game import GameScreen
from tui.screens.results import ResultsScreen

TID = "cup"


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Tournaments]:
    """The table's store, the one the app reads too (as at an SSH table)."""
    where = tmp_path / "table.sqlite"
    monkeypatch.setenv(ladder.TABLE_ENV, str(where))
    monkeypatch.setattr(results, "ROUND_LOOK", 0.05)
    store = ladder.open_store(where)
    try:
        yield Tournaments(store)
    finally:
        store.close()


async def played(table: Tournaments, relay: Relay, crooked: bool) -> tuple[str, str, Any]:
    """Round 1 of a duplicate tournament, published, and the guest's table played out (the
    organiser deals it from another seed if `crooked`): (round seed, join code, result)."""
    table.create(Event(TID, "schoene", "swiss", rounds=1, size=3, starts=time.time(),
                       duplicate=True))
    round_seed = duplicate.new_round_seed()
    deal = duplicate.deal_seed(round_seed, duplicate.label(TID, 1))
    table.open_round(TID, 1, [("ann", None, None)], duplicate.commit(round_seed), deal)
    host = NetHost("schoene", 3, relay_url=relay.url, bot_delay=0,
                   seed=deal ^ 1 if crooked else deal)
    host.duplicate = {"tournament": TID, "round": 1, "commitment": duplicate.commit(round_seed),
                      "round_seed": round_seed}
    code = await host.open()
    host.add_bot(1, "random")
    host.add_bot(2, "random")
    token = new_token()  # Ann's seat, reserved as the director reserves it
    host.seats[0] = Seat(name="Ann", token=token)
    proof_key = proofs.proof_key(host.uplink.host_token or "", token)
    table.give_seat(TID, 1, "ann", code, token, proof_key)
    link = RemoteLink(code, "Ann", server=relay.url, token=token, proof_key=proof_key,
                      remember=False)
    ann = Player(link, seed=3)
    try:
        await link.connect()
        await until_seated(host)
        host.start()
        await ann.wait_for(lambda m: m.get("result") is not None, TIMEOUT)
        # Ann was never told the seed before the end: whoever knows it knows every hand.
        assert link.deal.dealt is not None and link.deal.dealt["fixed_seed"] is None
        assert link.deal.announced and link.deal.contribution is not None
    finally:
        await link.close()
        await host.close()
    assert ann.result is not None
    return round_seed, link.code, ann.result  # the code the game screen passes on


async def until_seated(host: NetHost) -> None:
    async with asyncio.timeout(TIMEOUT):
        while host.seats[0].cid is None:
            await asyncio.sleep(0.01)


async def shown(pilot: Any, result: dict[str, Any], code: str) -> Static:
    """The results screen of Ann's game at table `code`, as the game screen opens it; its
    verdict line."""
    app = pilot.app
    app.push_screen(ResultsScreen("schoene", result, ["Ann", "Bot", "Bot"], can_rematch=False,
                                  room=code))
    line: Static = await until(pilot, lambda: isinstance(app.screen, ResultsScreen)
                               and verdict(app), "the results")
    return line


def verdict(app: TabletopApp) -> Static:
    return app.screen.query_one("#results-verified", Static)


@pytest.mark.parametrize("crooked", [False, True])
async def test_the_apps_verdict_on_a_duplicate_table_waits_for_the_round_then_checks_it(
        table: Tournaments, relay: Relay, crooked: bool) -> None:
    round_seed, code, result = await played(table, relay, crooked)
    assert result["verified"] and result["verify_code"] == "practice"  # the table's own reveal
    app = TabletopApp(lang="en")
    async with app.run_test(size=(100, 40)) as pilot:
        line = await shown(pilot, result, code)
        text = str(line.render())
        assert "committed seed; checked when the round closes" in text
        assert "practice" not in text and not line.has_class("-warning")
        await pilot.press("t", "x")  # keys while it waits change nothing
        table.close_round(TID, 1, round_seed)  # the round closes: its seed revealed
        if crooked:
            await until(pilot, lambda: "NOT the round's deal" in str(verdict(app).render()),
                        "the failed check")
            assert "not dealt from the round's seed" in str(verdict(app).render())
            assert verdict(app).has_class("-warning")
        else:
            await until(pilot, lambda: "round's deal, verified" in str(verdict(app).render()),
                        "the check")
            assert not verdict(app).has_class("-warning")


async def test_a_round_seed_that_breaks_the_commitment_fails_the_apps_check(
        table: Tournaments, relay: Relay) -> None:
    _, code, result = await played(table, relay, crooked=False)
    table.close_round(TID, 1, duplicate.new_round_seed())  # another seed revealed
    app = TabletopApp(lang="de")
    async with app.run_test(size=(100, 40)) as pilot:
        line = await shown(pilot, result, code)
        assert "passt nicht zur Festlegung mit der Auslosung" in str(line.render())


async def test_by_keys_a_player_sits_at_a_duplicate_table_and_reads_its_checked_deal(
        table: Tournaments, relay: Relay, monkeypatch: pytest.MonkeyPatch) -> None:
    """Menu → Tournaments → enter → sit down at the round's table → play it out → the
    results screen: the round's deal, checked against the round's revealed seed."""
    monkeypatch.setenv(TABLE_RELAY_ENV, relay.url)
    table.create(Event(TID, "schoene", "swiss", rounds=1, size=3, starts=time.time(),
                       duplicate=True))
    table.enter(TID, "b1", "Bot One", bot="random")
    table.enter(TID, "b2", "Bot Two", bot="random")
    director: asyncio.Task[None] | None = None
    app = TabletopApp(lang="en")
    try:
        async with app.run_test(size=(100, 40)) as pilot:
            screen = await open_tournaments(pilot)
            await pilot.press("j")
            await until(pilot, lambda: len(table.entrants(TID)) == 3, "entered")
            director = asyncio.get_running_loop().create_task(
                Director(table, TID, relay.url, show_up=60.0).run())
            await until(pilot, lambda: "press s" in str(
                screen.query_one("#tn-you", Static).render()), "my table ready")
            await pilot.press("s")
            game = await until(pilot, screen_of(pilot, GameScreen), "my table's game")
            while not isinstance(app.screen, ResultsScreen):
                now = game.latest
                if now is not None and now.legal and now.seat is not None and now.result is None:
                    await game.link.send_move(now.seat, now.legal[0], now.state_no)
                await pilot.pause(0.02)
            await until(pilot, lambda: "round's deal, verified" in str(
                verdict(app).render()), "the checked deal")
            await asyncio.wait_for(director, TIMEOUT)
    finally:
        if director is not None and not director.done():
            director.cancel()
            await asyncio.gather(director, return_exceptions=True)
