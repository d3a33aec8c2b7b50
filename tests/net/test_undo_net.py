"""Undo at a networked table: a guest takes back a quiet move of its turn through the relay,
everyone hears the table afresh, the host's record keeps only the moves that stand, and the
guest's check of the deal still verifies at the end; a move that passed the turn is refused
with the table's reason, and so is every undo by somebody else (a spectator, the host, the
guest on an old state): nothing changes. Conceding a hosted game is leaving it, asked first."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from netsupport import Player
from test_net_tui import open_host_lobby, screen_of, until

from net import records
from net.host.authority import NetHost
from net.host.hosting import HostPlan
from net.host.link import HostLink
from net.peer.remote import RemoteLink
from net.relay.server import Relay
from net.table import undo
from tui.app import TabletopApp
from tui.i18n import tr
from tui.netplay import NetGameScreen
from tui.screens.host import HostScreen
from tui.screens.overlays import ConfirmScreen

COLOUR = {"type": "colour", "colour": "white"}


def next_heard(player: Player, predicate: Any) -> asyncio.Task[dict[str, Any]]:
    """The first message from now on that satisfies `predicate` (a task, listening now)."""
    start = len(player.messages)

    def later(message: dict[str, Any]) -> bool:
        return any(m is message for m in player.messages[start:]) and predicate(message)

    return asyncio.get_running_loop().create_task(player.wait_for(later))


async def test_a_guest_takes_back_its_colour_but_not_its_tile(relay: Relay) -> None:
    host = NetHost("schoko", 2, {}, relay_url=relay.url, host_name="Hana",
                   bot_delay=0, seed=2)  # seat 1 begins
    code = await host.open()
    me = Player(HostLink(host), play=False)
    await me.link.start()
    guest = Player(RemoteLink(code, "Pia", server=relay.url), play=False)
    await guest.link.connect()
    watcher = Player(RemoteLink(code, "Wes", server=relay.url, watch=True), play=False)
    await watcher.link.connect()
    try:
        heard = next_heard(guest, lambda m: m["type"] == "error")
        await guest.link.undo(1, 0)  # before the deal: nothing to take back
        assert (await heard)["code"] == "not_started"
        host.start()
        first = await guest.wait_for(lambda m: m["type"] in ("sync", "update"))
        assert first["seat"] == 1 and first["undo"] is False
        await guest.link.send_move(1, COLOUR, first["state_no"])
        chose = await guest.wait_for(lambda m: m.get("state_no") == 1 and m["undo"] is True)
        assert chose["type"] == "update"
        # Nobody else takes it back: a spectator, the host, or the guest on another state.
        heard = next_heard(watcher, lambda m: m["type"] == "error")
        await watcher.link.undo(1, 1)
        assert (await heard)["code"] == "spectator"
        heard = next_heard(me, lambda m: m["type"] == "error")
        await me.link.undo(0, 1)
        assert (await heard)["message"] == undo.NOT_YOURS
        heard = next_heard(guest, lambda m: m["type"] == "error")
        await guest.link.undo(1, 7)
        assert (await heard)["code"] == "stale"
        assert host.session is not None and host.session.state_no == 1
        await guest.link.undo(1, 1)
        back = await guest.wait_for(lambda m: m["type"] == "sync" and m["log"])
        assert back["state_no"] == 0
        assert back["log"][-1] == {"kind": "undo", "seat": 1, "to": 0, "n": 0}
        await me.wait_for(lambda m: m["type"] == "sync" and m["log"])
        session = host.session
        assert session is not None and session.moves == []
        assert records.load(host.record_path).moves == []  # type: ignore[arg-type]
        # Dark this time, then a tile: the turn passes, and a tile is drawn.
        heard = next_heard(guest, lambda m: m.get("state_no") == 1)
        await guest.link.send_move(1, {"type": "colour", "colour": "dark"}, 0)
        await heard
        place = session.engine.legal_moves(session.state, 1)[0]
        heard = next_heard(guest, lambda m: m.get("state_no") == 2)
        await guest.link.send_move(1, place, 1)
        await heard
        heard = next_heard(guest, lambda m: m["type"] == "error")
        await guest.link.undo(1, 2)
        refused = await heard
        assert refused["code"] == "undo_refused" and refused["message"] == undo.REVEALED
        assert session.state_no == 2
        # The host may not take back the guest's move either.
        heard = next_heard(me, lambda m: m["type"] == "error")
        await me.link.undo(0, 2)
        mine = await heard
        assert mine["message"] in (undo.NOT_YOURS, undo.NOTHING, undo.REVEALED)
        # Play on to the end: the guest's check replays the moves that stand.
        rng = random.Random(3)
        links = {0: me.link, 1: guest.link}
        async with asyncio.timeout(60):
            while not session.over:
                seat = session.engine.to_act(session.state)[0]
                number = session.state_no
                move = rng.choice(session.engine.legal_moves(session.state, seat))
                await links[seat].send_move(seat, move, number)
                while session.state_no == number and not session.over:
                    await asyncio.sleep(0.01)
        await guest.done.wait()
    finally:
        await watcher.link.close()
        await guest.link.close()
        await host.close()
    assert guest.result is not None and guest.result["verified"] is True
    kept = records.load(host.record_path)  # type: ignore[arg-type]
    assert kept.moves[0] == [1, {"type": "colour", "colour": "dark"}]


@asynccontextmanager
async def hosting(relay: Relay, plan: HostPlan, bots: int = 0
                  ) -> AsyncIterator[tuple[Any, NetHost, Player, NetGameScreen]]:
    """The host's app at its table (Hana, by keys), Pia in seat 2 (a headless guest), then
    `bots` bots: (pilot, host, Pia, the host's game screen)."""
    app = TabletopApp(lang="en", opening=lambda: HostScreen(plan, auto=True))
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = await open_host_lobby(pilot)
        host = lobby.host
        pia = Player(RemoteLink(host.code, "Pia", server=relay.url, remember=False), play=False)
        await pia.link.connect()
        await until(pilot, lambda: host.seat_list()[1]["name"] == "Pia", "Pia in the lobby")
        for seat in range(2, 2 + bots):
            host.add_bot(seat)
        await pilot.press("f5")
        table = await until(pilot, screen_of(pilot, NetGameScreen), "the host's table")
        try:
            yield pilot, host, pia, table
        finally:
            await pia.link.close()
            await host.close()


async def test_the_host_undoes_by_keys_and_is_told_why_not_after_a_tile(relay: Relay) -> None:
    plan = HostPlan("schoko", 2, server=relay.url, host_name="Hana", seed=1, bot_delay=0)
    async with hosting(relay, plan) as (pilot, host, pia, table):
        session = host.session
        assert session is not None and session.engine.to_act(session.state) == [0]
        await until(pilot, lambda: table.board is not None, "the board")
        assert not offers_undo(table)
        await pilot.press("w")  # white: the turn stays, nothing hidden shown
        await until(pilot, lambda: offers_undo(table), "the undo key in the footer")
        heard = next_heard(pia, lambda m: m["type"] == "sync")
        await pilot.press("u")
        back = await heard
        assert back["state_no"] == 0 and session.moves == []
        await until(pilot, lambda: table.latest.state_no == 0, "the table back")
        await pilot.press("d", "enter")  # dark this time, then a tile: the turn passes
        await until(pilot, lambda: session.state_no == 2, "the tile laid")
        await pilot.press("u")
        await until(pilot, lambda: any(undo.REVEALED in line for line in logged(table)),
                    "the reason in the log")
        assert session.state_no == 2 and not offers_undo(table)


def offers_undo(screen: NetGameScreen) -> bool:
    return any(b.binding.action == "undo" and b.binding.show and b.enabled
               for b in screen.active_bindings.values())


def logged(screen: NetGameScreen) -> list[str]:
    return [screen._entry_text(entry) for entry in screen.entries]


async def test_the_host_concedes_by_f8_after_a_question_that_names_the_guests(
        relay: Relay) -> None:
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana", seed=4, bot_delay=0.05)
    async with hosting(relay, plan, bots=1) as (pilot, host, pia, _):
        app = pilot.app
        await pilot.press("f8")
        question = await until(pilot, screen_of(pilot, ConfirmScreen), "the question")
        assert "Concede this game?" in question.question
        assert question.question.endswith(tr("net.leave_host_game"))
        await pilot.press("n")  # no: nothing changes
        await until(pilot, screen_of(pilot, NetGameScreen), "the table again")
        assert not host.uplink.closing
        closed = next_heard(pia, lambda m: m["type"] == "connection"
                            and m.get("state") == "closed")
        await pilot.press("f8")
        await until(pilot, screen_of(pilot, ConfirmScreen), "the question again")
        await pilot.press("y")
        await until(pilot, lambda: not any(isinstance(s, NetGameScreen)
                                           for s in app.screen_stack), "the table left")
        await closed  # the guest hears the room close, as when the host leaves
