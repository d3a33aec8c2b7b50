"""Players without an SSH key, over real sockets: a name is all that makes them them, so they are
told so, and a name typed by someone else never takes the seat of its connected owner."""

from __future__ import annotations

from pathlib import Path

import asyncssh
from ssh_support import OpenTable, Player, connect
from test_ssh_play import until

from net.host.hosting import HostPlan, open_room
from net.relay.server import Relay
from net.ssh import inside
from net.ssh.server import SshTable


def child_env(table: SshTable, keyed: bool) -> list[bytes]:
    """The environment of the app of the one session with (or without) a key."""
    (session,) = [s for s in table.sessions if (s.visitor.key is not None) == keyed]
    assert session.child is not None
    return Path(f"/proc/{session.child.pid}/environ").read_bytes().split(b"\0")


async def test_a_name_without_a_key_never_takes_the_seat_of_its_connected_owner(
    open_table: OpenTable, relay: Relay,
) -> None:
    """Once, a tablemate connecting as "ada" without a key got Ada's data directory, joined
    with her seat's token and sent her out of her own seat."""
    table = await open_table()
    room = await open_room(HostPlan("schoene", 3, server=relay.url))
    host = room.host
    code = host.display_code
    players: list[Player] = []
    try:
        ada = await connect(table.port, "ada", command=f"join {code}")
        players.append(ada)
        await ada.wait_for("Waiting for the host to start", "ada's lobby")
        await ada.wait_for("No SSH key: anyone who types your name can be", "the note on names")
        host.add_bot()
        host.add_bot()
        host.start()
        await ada.wait_for(f"·  room {code}", "ada's table")

        for command in (f"join {code}", None):
            mallory = await connect(table.port, "Ada", command=command)
            players.append(mallory)
            await mallory.wait_closed()
            assert mallory.status == 1
            assert mallory.stderr.count(b"\n") == 1
            assert (b"someone called 'Ada' is at this table now without an SSH key"
                    in mallory.stderr)
            assert f"-p {table.port} OTHERNAME@HOST".encode() in mallory.stderr
        assert host.seat_list()[0]["connected"] and not ada.closed.is_set()
        assert f"{inside.KEYLESS_ENV}=1".encode() in child_env(table, keyed=False)

        # With a key, the same name is someone else, with a directory of their own: let in,
        # and not told that a name is all they are.
        keyed = await connect(table.port, "ada", key=asyncssh.generate_private_key("ssh-ed25519"))
        players.append(keyed)
        await keyed.wait_for("Host a game", "the menu of the ada with a key")
        assert not any(entry.startswith(inside.KEYLESS_ENV.encode())
                       for entry in child_env(table, keyed=True))
    finally:
        for player in players:
            await player.close()
        await room.close()


async def test_a_keyless_name_is_free_again_once_its_session_has_ended(
    open_table: OpenTable,
) -> None:
    table = await open_table()
    ada = await connect(table.port, "ada")
    await ada.wait_for("Host a game", "the menu")
    ada.press("ctrl+q")
    await ada.wait_closed()
    await until(lambda: not table.sessions, "the session gone")
    again = await connect(table.port, "ada")
    try:
        await again.wait_for("Host a game", "the menu again")
    finally:
        await again.close()
