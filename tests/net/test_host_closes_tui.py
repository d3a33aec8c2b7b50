"""A host who leaves its rated game by its keys (Esc, Esc, yes) closes it for everyone as
its own loss: the game said so before the first move, each guest is told, and the host's
ladder and each guest's show the host last with the penalty and the guests as the game
stood (docs/records.md)."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest
from netsupport import Player
from test_net_tui import open_host_lobby, screen_of, until
from test_ratings import someone

from engines import get_engine
from net import records
from net.host import closing as host_closing
from net.host import dealer
from net.host.authority import NetHost
from net.host.hosting import HostPlan
from net.host.link import HostLink
from net.peer.remote import RemoteLink
from net.players import closing, identity, ladder
from net.relay.server import Relay
from tui.app import TabletopApp
from tui.i18n import tr
from tui.netplay import NetGameScreen
from tui.screens.host import HostScreen
from tui.screens.join import JoinScreen
from tui.screens.menu import MenuScreen
from tui.screens.overlays import ConfirmScreen
from tui.widgets import EventLog

MOVES = 6


def my_games(engine: str) -> int:
    """This installation's counted games of `engine` in its own ladder."""
    me = identity.mine()
    assert me is not None
    store = ladder.open_store()
    try:
        found = store.standing(engine, me.fingerprint)
    finally:
        store.close()
    return found[0].games if found is not None else 0


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
            await until(pilot, lambda: any(tr("net.rated_host") in text for text in log.texts),
                        "the rated note")
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
            # The host's own ladder has it at once (no results screen counts a closed game).
            await until(pilot, lambda: my_games("schoene") == 1, "the host's ladder")
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


async def test_a_guest_at_the_screen_reads_why_and_its_ladder_counts_the_close_at_once(
        relay: Relay, monkeypatch: pytest.MonkeyPatch) -> None:
    """Pia plays Scho K.O. in her app; her host Hana (a machine of her own: another identity)
    closes the room mid-game. Pia's table says what that means, and her own ladder has the
    game at once: Hana below her, with the penalty."""
    hana = someone()
    host_identity = SimpleNamespace(mine=lambda: hana, proven=identity.proven)
    monkeypatch.setattr(dealer, "identity", host_identity)
    monkeypatch.setattr(host_closing, "identity", host_identity)
    host = NetHost("schoko", 2, relay_url=relay.url, host_name="Hana", bot_delay=0)
    code = await host.open()
    hanas = Player(HostLink(host), seed=3)
    await hanas.link.start()  # type: ignore[attr-defined]
    app = TabletopApp(lang="en", opening=lambda: JoinScreen(code, "Pia", relay.url, auto=True))
    try:
        async with app.run_test(size=(100, 34)) as pilot:
            await until(pilot, lambda: host.seat_list()[1]["kind"] == "person", "Pia seated")
            host.start()
            game = await until(pilot, screen_of(pilot, NetGameScreen), "Pia's table")
            while len(host.session.moves if host.session else ()) < MOVES:
                table = game.latest
                if table is not None and table.legal and table.seat is not None:
                    await game.link.send_move(table.seat, table.legal[0], table.state_no)
                await pilot.pause(0.02)
            hanas.play = False
            await host.close()
            log = (await until(pilot, lambda: game.query("#log"), "the log")).first(EventLog)
            await until(pilot, lambda: any(tr("net.host_closed") in t for t in log.texts),
                        "what the close means")
            await until(pilot, lambda: my_games("schoko") == 1, "Pia's ladder")
    finally:
        await host.close()
    store = ladder.open_store()
    try:
        rows = {row.ident: row for row in store.ladder("schoko")}
    finally:
        store.close()
    me = identity.mine()
    assert me is not None and set(rows) == {me.fingerprint, hana.fingerprint}
    assert rows[hana.fingerprint].skill.mu < rows[me.fingerprint].skill.mu
