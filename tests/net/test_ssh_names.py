"""Players without an SSH key, over real sockets: a name is all that makes them them, so they are
told so, and a name typed by someone else never takes the seat of its connected owner."""

from __future__ import annotations

from typing import Any

import asyncssh
from ssh_support import OpenTable, Player, connect
from test_ssh_play import until

from net.host.hosting import HostPlan, open_room
from net.relay.server import Relay
from net.ssh import inside
from net.ssh.server import SshTable


def handed_envs(table: SshTable) -> list[dict[str, str]]:
    """The environments the table hands its sessions' apps, in order (a forked app's
    /proc/PID/environ is its fork server's, so they are read where they are handed over)."""
    handed: list[dict[str, str]] = []
    spawn = table.forks.spawn

    async def spawn_and_note(argv: list[str], env: dict[str, str], *rest: Any) -> Any:
        handed.append(dict(env))
        return await spawn(argv, env, *rest)

    table.forks.spawn = spawn_and_note  # type: ignore[method-assign]
    return handed


async def test_a_name_without_a_key_never_takes_the_seat_of_its_connected_owner(
    open_table: OpenTable, relay: Relay,
) -> None:
    """Once, a tablemate connecting as "ada" without a key got Ada's data directory, joined
    with her seat's token and sent her out of her own seat."""
    table = await open_table()
    envs = handed_envs(table)
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
        assert [env.get(inside.KEYLESS_ENV) for env in envs] == ["1"]

        # With a key, the same name is someone else, with a directory of their own: let in,
        # and not told that a name is all they are.
        keyed = await connect(table.port, "ada", key=asyncssh.generate_private_key("ssh-ed25519"))
        players.append(keyed)
        await keyed.wait_for("Host a game", "the menu of the ada with a key")
        assert [env.get(inside.KEYLESS_ENV) for env in envs] == ["1", None]
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
