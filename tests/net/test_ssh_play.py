"""Playing at an SSH table: two players over SSH share one game on the table's relay, driven
with keys and read from their screens; a player whose connection drops gets the seat back by
connecting again with the same key."""

from __future__ import annotations

import asyncio
import re
import sys
from pathlib import Path

import asyncssh
from ssh_support import OpenTable, Player, code_on, connect, host_with_a_bot
from test_net_tui import open_host_lobby, screen_of
from test_net_tui import until as until_pilot

from net.host.hosting import TABLE_SSH_ENV, HostPlan, open_room
from net.relay.server import Relay
from net.ssh.access import Visitor
from net.wire import codes
from tui.app import TabletopApp
from tui.netplay import NetGameScreen
from tui.screens.host import HostScreen
from tui.screens.reclaim import ReclaimPrompt

TURNS = 200  # more than any game of Schöne Sch#!?e takes when every person takes the card


def cards_left(player: Player) -> str:
    found = re.search(r"\d+ more cards? to come|the last card", player.text())
    return found.group(0) if found else ""


async def take(player: Player) -> None:
    """The player takes the card, until the table has answered (the next card, or the end)."""
    before = cards_left(player)
    player.press("t")
    await player.wait_for(
        lambda: "Results" in player.text() or cards_left(player) not in ("", before),
        "the next card after a take")


async def play_by_taking(players: list[Player]) -> None:
    """Whoever's top line says it is their turn takes the card, until the results show."""
    for _ in range(TURNS):
        if all("Results" in p.text() for p in players):
            return
        waiting = [p for p in players if "Your turn" in p.line(0)]
        for player in waiting:
            await take(player)
        if not waiting:
            await asyncio.sleep(0.05)
    raise AssertionError("the game did not end:\n" + "\n\n".join(p.text() for p in players))


async def test_two_ssh_players_host_and_join_a_game_with_a_bot_to_the_results(
    open_table: OpenTable, relay: Relay,
) -> None:
    table = await open_table()
    ada = await connect(table.port, "ada")
    bob: Player | None = None
    try:
        code = await host_with_a_bot(ada, form=relay.url)  # the form names the table's relay
        bob = await connect(table.port, "bob", command=f"join {code.lower()}")
        await bob.wait_for("Waiting for the host to start", "bob's lobby")
        await ada.wait_for("bob", "bob in the host's lobby")
        ada.press("f5")
        await ada.wait_for(f"room {code}", "ada's table")
        await bob.wait_for(f"room {code}", "bob's table")
        await play_by_taking([ada, bob])
        await bob.wait_for("Shuffles verified", "bob's check of the host's shuffle")
        for player in (ada, bob):
            # The results screen may still be drawing its rows when the check line is in.
            await player.wait_for(
                lambda p=player: "★ winner" in p.text()
                and all(name in p.text() for name in ("ada", "bob", "Bot 2")),
                "the results with every player's name")
        bob.press("ctrl+q")
        await bob.wait_closed()
        assert bob.status == 0
    finally:
        for player in (ada, bob):
            if player is not None:
                await player.close()


async def test_a_dropped_player_gets_the_seat_back_with_the_same_key(
    open_table: OpenTable, relay: Relay,
) -> None:
    """The room's host plays no seat and has nobody at its terminal, so it gives a seat back
    only for the seat's token: the one kept in the player's own data directory."""
    table = await open_table()
    room = await open_room(HostPlan("schoene", 3, server=relay.url))
    host = room.host
    key = asyncssh.generate_private_key("ssh-ed25519")
    players: list[Player] = []
    try:
        bob = await connect(table.port, "bob", key=key, command=f"join {host.display_code}")
        players.append(bob)
        await bob.wait_for("Waiting for the host to start", "bob's lobby")
        host.add_bot()
        host.add_bot()
        host.start()
        await bob.wait_for(f"room {host.display_code}", "bob's table")

        await bob.hang_up()
        await until(lambda: not host.seat_list()[0]["connected"], "bob away")
        again = await connect(table.port, "bob", key=key, command=f"join {host.display_code}")
        players.append(again)
        await again.wait_for(f"room {host.display_code}", "bob back at the table")
        await until(lambda: host.seat_list()[0]["connected"], "bob's seat connected again")
        assert [s["name"] for s in host.seat_list()].count("bob") == 1

        # The same name with another key is someone else: no token, no seat.
        other = await connect(table.port, "bob", key=asyncssh.generate_private_key("ssh-ed25519"),
                              command=f"join {host.display_code}")
        players.append(other)
        await other.wait_closed()
        assert other.status == 2 and "cannot join" in other.text(), other.text()
    finally:
        for player in players:
            await player.close()
        await room.close()


async def test_a_join_over_ssh_keeps_the_code_out_of_the_process_list(
    open_table: OpenTable, relay: Relay,
) -> None:
    """Every user of the machine can read a process's command line. The child app is forked
    by the table's fork server, whose command line it shows: it names no session. The code
    goes to the child in its environment, through the fork server's private socket."""
    table = await open_table()
    room = await open_room(HostPlan("schoene", 3, server=relay.url))
    code = room.host.display_code
    bob = await connect(table.port, "bob", command=f"watch {code.lower()}")
    try:
        await bob.wait_for("Waiting for the host to start", "bob's lobby")
        (session,) = table.sessions
        assert session.child is not None
        proc = Path(f"/proc/{session.child.pid}")
        cmdline = (proc / "cmdline").read_bytes()
        assert cmdline == Path(f"/proc/{table.forks.pid}/cmdline").read_bytes()
        assert cmdline.split(b"\0")[:3] == [sys.executable.encode(), b"-m", b"net.ssh.forkserver"]
        for shown in ("cmdline", "environ"):
            text = (proc / shown).read_bytes().upper()
            assert codes.display(code).encode() not in text
            assert codes.normalise_join(code).encode() not in text
    finally:
        await bob.close()
        await room.close()


async def until(check: object, what: str, timeout: float = 20.0) -> None:
    async with asyncio.timeout(timeout):
        while not check():  # type: ignore[operator]
            await asyncio.sleep(0.05)


async def test_an_ssh_players_lobby_gives_the_ssh_command_to_join(
    open_table: OpenTable, relay: Relay,
) -> None:
    """A player at the SSH table has no `tabletop-tui` of their own: friends are told the ssh
    command, to the address this player came in on, or the name the operator gave."""
    table = await open_table()
    ada = await connect(table.port, "ada", size=(160, 40))
    try:
        await ada.wait_for("Host a game", "the menu")
        ada.press("down", "enter")
        await ada.wait_for(relay.url, "the host form")
        ada.press("f5")
        code = await ada.wait_for(lambda: code_on(ada), "the join code")
        assert f"Friends join with:  ssh -t -p {table.port} 127.0.0.1 join {code}" in ada.text()
        assert "tabletop-tui join" not in ada.text()
    finally:
        await ada.close()
    table.config.name = "table.example.org"
    bob = Visitor("192.0.2.1", "bob", reached="::ffff:192.0.2.80")
    assert table.child_env(bob, "xterm", {})[TABLE_SSH_ENV] == (
        f"ssh -t -p {table.port} table.example.org")
    table.config.name = None
    assert table.invitation(bob) == f"ssh -t -p {table.port} 192.0.2.80"


async def test_a_seat_asked_back_by_name_says_it_is_asking_the_host(
    open_table: OpenTable, relay: Relay,
) -> None:
    """Bob's seat token stayed with his first key: with another key he is only a name, so the
    host's player is asked, and until they answer bob reads why he waits (not a blank
    screen)."""
    table = await open_table()
    plan = HostPlan("schoene", 3, server=relay.url, host_name="Hana", seed=4, bot_delay=0.05)
    app = TabletopApp(lang="en", opening=lambda: HostScreen(plan, auto=True))
    players: list[Player] = []
    async with app.run_test(size=(100, 40)) as pilot:
        lobby = await open_host_lobby(pilot)
        host = lobby.host
        try:
            bob = await connect(table.port, "bob", key=asyncssh.generate_private_key("ssh-ed25519"),
                                command=f"join {host.display_code}")
            players.append(bob)
            await bob.wait_for("Waiting for the host to start", "bob's lobby")
            host.add_bot()
            await pilot.press("f5")
            await until_pilot(pilot, screen_of(pilot, NetGameScreen), "the host's table")
            await bob.hang_up()
            await until(lambda: host.seats[1].cid is None, "bob away")
            again = await connect(table.port, "bob",
                                  key=asyncssh.generate_private_key("ssh-ed25519"),
                                  command=f"join {host.display_code}")
            players.append(again)
            await again.wait_for("Asking the host to give you your seat back", "the wait said")
            await until_pilot(pilot, screen_of(pilot, ReclaimPrompt), "the host's question")
            await pilot.press("y")
            await again.wait_for(f"room {host.display_code}", "bob back at the table")
        finally:
            for player in players:
                await player.close()
            await host.close()


async def test_a_spectator_watching_a_long_game_is_not_closed_as_idle(
    open_table: OpenTable, relay: Relay,
) -> None:
    """The idle limit is three seconds here; the bots' game runs for twenty. The watcher
    presses no key, but the moves going on in front of it are no idleness (a quiet lobby is:
    nothing moves there)."""
    table = await open_table(idle_minutes=3 / 60)
    room = await open_room(HostPlan("schoene", 3, server=relay.url, bot_delay=0.4))
    host = room.host
    watcher = await connect(table.port, "wes", command=f"watch {host.display_code}")
    try:
        await watcher.wait_for("Waiting for the host to start", "the watcher's lobby")
        for _ in range(3):
            host.add_bot()
        host.start()
        await watcher.wait_for(f"room {host.display_code}", "the game being watched")
        before = watcher.text()
        await asyncio.sleep(7.0)  # more than two idle limits, the game going on
        assert not watcher.closed.is_set(), watcher.stderr
        assert watcher.text() != before  # the game went on in front of it
    finally:
        await watcher.close()
        await room.close()
