"""A host at an SSH table whose app crashed or whose connection dropped, over real sockets: the
player reads one line (never a traceback with the server's paths), the table's log gets the
traceback, the guests wait in the room, and the host takes the game up again with `ssh -t ...
resume` or from Past games, neither of which needs a shell on the server."""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

import asyncssh
import pytest
from ssh_support import OpenTable, Player, connect, host_with_a_bot
from test_ssh_play import play_by_taking, until

import net
from net.host.hosting import HostPlan, open_room, resumable
from net.records import store
from net.relay.server import Relay
from net.ssh.server import SshTable
from net.ssh.session import command_args
from tui.screens.menu import MENU_ITEMS

ROOT = str(Path(net.__file__).resolve().parent.parent)
SECRET = "hunter2 in a local variable"
F6 = "\x1b[17~"  # what a terminal sends for F6
# Loaded by every session's app before it starts (sitecustomize): a bug in a key at the
# table, or in joining (before any screen).
BUGS = {
    "f6": ("tui.screens.game", "GameScreen.action_log", "def"),
    "join": ("net.peer.remote", "RemoteLink.connect", "async def"),
}


def a_bug(where: str) -> str:
    module, attribute, define = BUGS[where]
    return (f"import {module}\n\n\n"
            f"{define} _bug(self):\n"
            f"    secret = {SECRET!r}\n"
            f"    raise RuntimeError('a bug in {where}: ' + str(len(secret)))\n\n\n"
            f"{module}.{attribute} = _bug\n")


@pytest.fixture
def bug_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    def planting(where: str) -> None:
        folder = tmp_path / "bug"
        folder.mkdir()
        (folder / "sitecustomize.py").write_text(a_bug(where))
        monkeypatch.setenv("PYTHONPATH", str(folder))

    return planting


def crash_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if "the app crashed" in r.getMessage()]


def no_leak(shown: str) -> None:
    for leak in ("Traceback", "a bug", SECRET, ROOT):
        assert leak not in shown, leak


async def host_with_bob(table: SshTable, ada_key: asyncssh.SSHKey,
                        bob_key: asyncssh.SSHKey) -> tuple[Player, Player, str]:
    """Ada hosts Schöne Sch#!?e at the SSH table with a bot and Bob, and starts it."""
    ada = await connect(table.port, "ada", key=ada_key)
    code = await host_with_a_bot(ada)
    bob = await connect(table.port, "bob", key=bob_key, command=f"join {code}")
    await bob.wait_for("Waiting for the host to start", "bob's lobby")
    await ada.wait_for("bob  connected", "bob in the host's lobby")
    ada.press("f5")
    await ada.wait_for(at_the_table(code), "ada's table")
    await bob.wait_for(at_the_table(code), "bob's table")
    return ada, bob, code


def at_the_table(code: str) -> str:
    """The table's top line (the lobby's says "Game: room CODE")."""
    return f"·  room {code}"


async def test_a_game_whose_room_is_open_right_now_is_not_resumed_beside_it(
    relay: Relay,
) -> None:
    """Past games lists the game being hosted in another window (or SSH session) of the same
    player as unfinished: taking it up there would make two hosts of one room and one record."""
    room = await open_room(HostPlan("schoene", 3, server=relay.url, host_name="Hana",
                                    bot_delay=0))
    try:
        room.host.add_bot()
        room.host.add_bot()
        room.host.start()
        path = store.last_record()
        assert path is not None
        with pytest.raises(ValueError, match="open right now"):
            resumable(path)
    finally:
        await room.close(crashed=True)
    assert resumable(path) == path


def test_resume_is_a_command_of_the_table() -> None:
    assert command_args("resume") == ["back"]
    with pytest.raises(ValueError, match="`resume` to go back to the table you did not leave"):
        command_args("resume now")


async def test_a_crashed_host_reads_one_line_and_takes_the_game_up_again_with_ssh_resume(
    open_table: OpenTable, caplog: pytest.LogCaptureFixture, bug_in: Callable[[str], None],
) -> None:
    caplog.set_level(logging.INFO, logger="tabletop.sshd")
    bug_in("f6")
    table = await open_table()
    ada_key, bob_key = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    ada, bob, code = await host_with_bob(table, ada_key, bob_key)
    players = [ada, bob]
    try:
        ada.press(F6)
        await ada.wait_closed()
        assert ada.status == 1
        shown = ada.raw.decode(errors="replace")
        assert ("tabletop-tui: the app stopped on an error, which the table has logged for its "
                "keeper. Nothing is lost: an unfinished game goes on with r in the menu's Past "
                f"games (one you host also with `ssh -t -p {table.port} HOST resume`; your "
                "guests wait for you)\r\n") in shown
        no_leak(shown)
        (logged,) = crash_lines(caplog)
        assert "'ada': the app crashed (exit status 1)" in logged
        assert "Traceback" in logged and "RuntimeError: a bug in f6" in logged
        assert SECRET not in logged  # a traceback without the local variables

        # Bob stays in the room, told that the host can come back.
        await bob.wait_for("crashed", "the notice that the host's app crashed")
        assert not bob.closed.is_set()
        ada = await connect(table.port, "ada", key=ada_key, command="resume")
        players.append(ada)
        await ada.wait_for(at_the_table(code), "ada back at her table")
        # Bob's app finds the resumed room by itself; the game goes on once he is back in it.
        await ada.wait_for(lambda: "offline" not in ada.text(), "bob back at ada's table")
        await play_by_taking([ada, bob])
    finally:
        for player in players:
            await player.close()


async def test_an_error_before_any_screen_is_one_line_too(
    open_table: OpenTable, caplog: pytest.LogCaptureFixture, bug_in: Callable[[str], None],
) -> None:
    caplog.set_level(logging.INFO, logger="tabletop.sshd")
    bug_in("join")
    table = await open_table()
    bob = await connect(table.port, "bob", command="join K7QX-9MPA-B3CD")
    await bob.wait_closed()
    assert bob.status == 1
    shown = bob.raw.decode(errors="replace")
    assert shown.startswith("tabletop-tui: the app stopped on an error, which the table has "
                            "logged for its keeper."), shown
    no_leak(shown)
    (logged,) = crash_lines(caplog)
    assert "RuntimeError: a bug in join" in logged and SECRET not in logged


async def test_a_host_whose_connection_dropped_takes_the_game_up_again_from_past_games(
    open_table: OpenTable,
) -> None:
    """Past games offered only the command line's `host --resume`, which a player at an SSH
    table cannot run. A name without a key is someone else: it reaches nothing of Ada's."""
    table = await open_table()
    ada_key, bob_key = (asyncssh.generate_private_key("ssh-ed25519") for _ in range(2))
    ada, bob, code = await host_with_bob(table, ada_key, bob_key)
    players = [ada, bob]
    try:
        await ada.hang_up()
        await bob.wait_for("The host is away", "the host away at bob's")
        # (Her dropped session holds its place until its app has gone: three at most from
        # this machine.)
        await until(lambda: len(table.sessions) == 1, "ada's dropped session gone")

        nameonly = await connect(table.port, "ada", command="resume")
        players.append(nameonly)
        await nameonly.wait_for("Past games", "the menu: no table of this name's to go back to")
        assert f"room {code}" not in nameonly.text()

        ada = await connect(table.port, "ada", key=ada_key)
        players.append(ada)
        await ada.wait_for("Past games", "the menu")
        ada.press(*["down"] * MENU_ITEMS.index("past"), "enter")
        await ada.wait_for("unfinished", "the hosted game among the past games")
        ada.press("r")
        await ada.wait_for(at_the_table(code), "ada back at her table")

        # Bob's connection drops too; `resume` takes him back to his seat.
        await bob.hang_up()
        await ada.wait_for("· offline", "bob away at ada's")
        bob = await connect(table.port, "bob", key=bob_key, command="resume")
        players.append(bob)
        await bob.wait_for(at_the_table(code), "bob back in his seat")
        await play_by_taking([ada, bob])
    finally:
        for player in players:
            await player.close()
