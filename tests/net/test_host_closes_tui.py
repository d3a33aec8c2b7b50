"""A host who leaves its rated game by its keys (Esc, Esc, yes) closes it for everyone as
its own loss: the game said so before the first move, each guest is told, and the host's
ladder and each guest's show the host last with the penalty and the guests as the game
stood (docs/records.md)."""

from __future__ import annotations

from pathlib import Path

from netsupport import Player
from test_net_tui import open_host_lobby, screen_of, until
from test_ratings import someone

from engines import get_engine
from net import records
from net.host.hosting import HostPlan
from net.peer.remote import RemoteLink
from net.players import closing, ladder
from net.relay.server import Relay
from tui.app import TabletopApp
from tui.i18n import tr
from tui.netplay import NetGameScreen
from tui.screens.host import HostScreen
from tui.screens.menu import MenuScreen
from tui.screens.overlays import ConfirmScreen
from tui.widgets import EventLog

MOVES = 6


async def test_a_host_leaving_its_rated_game_by_keys_is_its_loss_on_every_ladder(
        relay: Relay, tmp_path: Path) -> None:
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana")
    app = TabletopApp(lang="en", opening=lambda: HostScreen(plan, auto=True))
    async with app.run_test(size=(120, 40)) as pilot:
        lobby = await open_host_lobby(pilot)
        host = lobby.host
        guests = []
        for i, name in enumerate(("Pia", "Per")):
            link = RemoteLink(host.code, name, server=relay.url)
            link.deal.identity = someone()  # each guest at a machine of its own
            guests.append(Player(link, seed=20 + i))
            await link.connect()
        try:
            await until(pilot, lambda: [s["name"] for s in lobby.seats] == ["Hana", "Pia", "Per"],
                        "both guests seated")
            host.start()
            game = await until(pilot, screen_of(pilot, NetGameScreen), "the host's table")
            log = (await until(pilot, lambda: game.query("#log"), "the log")).first(EventLog)
            await until(pilot, lambda: tr("net.rated_host") in log.texts, "the rated note")
            while host.session is None or len(host.session.moves) < MOVES:
                session = host.session
                if session is not None and 0 in session.engine.to_act(session.state):
                    legal = session.engine.legal_moves(session.state, 0)
                    host.local_move(0, legal[0], session.state_no)  # Hana's hand plays too
                await pilot.pause(0.01)
            await pilot.press("escape")
            assert tr("game.leave_rated") in log.texts[-1]
            await pilot.press("escape")
            await until(pilot, screen_of(pilot, ConfirmScreen), "are you sure")
            await pilot.press("y")
            await until(pilot, screen_of(pilot, MenuScreen), "the menu")
            for guest in guests:
                await guest.wait_for(lambda m: m["type"] == "notice" and m.get("closed") is True)
        finally:
            for guest in guests:
                await guest.link.close()  # type: ignore[attr-defined]
    host_path = host.record_path
    assert host_path is not None
    record = records.load(host_path)
    assert record.over and record.extra["left"] == [0]
    stood = closing.stood(get_engine("schoene"), records.Replay(record).states[-1])
    for who, path in (("hana", host_path),
                      *((g.link.name, g.link.record_path) for g in guests)):  # type: ignore[attr-defined]
        store = ladder.open_store(tmp_path / f"{who}.sqlite")  # each player's own home
        try:
            changes = ladder.count(store, path).changes
            rows = store.ladder("schoene")
        finally:
            store.close()
        assert changes[0].left, who  # ranked behind everybody, with the penalty
        assert not changes[1].left and not changes[2].left
        assert [c.place for c in changes[1:]] == stood[1:]  # as the game stood
        assert rows[-1].ident == changes[0].ident  # the host at the foot of every ladder
