"""A shared machine is not one address: the relay asks the kernel whose socket a loopback
connection is (sock_diag for that one socket, else /proc/net/tcp and tcp6) and counts each
local user on their own, so one user holding every room the cap allows blocks nobody else of
the machine. Where /proc does not
say, all loopback is one address, as before."""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket
import sys

import pytest
from test_relay_caps import open_room

from net.relay import addresses
from net.relay.server import Limits, Relay
from net.wire import codes
from net.wire.frames import encode

NOBODY = 65534
HAS_PROC = os.path.exists("/proc/net/tcp")


def connected(family: int, host: str) -> tuple[socket.socket, socket.socket, socket.socket]:
    """A listening socket, a client connected to it and the accepted end."""
    server = socket.socket(family, socket.SOCK_STREAM)
    server.bind((host, 0))
    server.listen()
    client = socket.create_connection(server.getsockname()[:2])
    accepted, _ = server.accept()
    return server, client, accepted


@pytest.mark.skipif(not HAS_PROC, reason="no /proc/net/tcp: all loopback is one address")
@pytest.mark.parametrize(("family", "host"), [(socket.AF_INET, "127.0.0.1"),
                                              (socket.AF_INET6, "::1")])
def test_the_owner_of_a_real_socket_is_read_from_proc(family: int, host: str) -> None:
    try:
        sockets = connected(family, host)
    except OSError:
        pytest.skip(f"no {host} here")
    server, client, accepted = sockets
    try:
        peer, local = accepted.getpeername()[:2], accepted.getsockname()[:2]
        assert addresses.socket_owner(peer, local) == os.getuid()
        # The accepted end (local and remote the other way round) is not the connecting one.
        assert addresses.socket_owner(local, peer) == os.getuid()  # ... ours as well, but:
        assert addresses.socket_owner(peer, (host, 1)) is None  # no such connection
        # Both ways of asking the kernel know it (sock_diag where the machine has it).
        want = (addresses.plain(*peer), addresses.plain(*local))
        assert addresses.proc_owner(want) == os.getuid()
        with contextlib.suppress(OSError):
            assert addresses.diag_owner(*want) == os.getuid()
            assert addresses.diag_owner(want[0], (want[1][0], 1)) is None
        named = addresses.local_user(peer[0], peer, local)
        assert named == f"{peer[0]}{addresses.USER_MARK}{os.getuid()}"
        assert addresses.group(named) == f"{addresses.USER}{os.getuid()}"
        assert addresses.describe(addresses.group(named)) == \
            f"user {os.getuid()} of this machine"
    finally:
        for sock in (client, accepted, server):
            sock.close()


def test_without_proc_or_off_loopback_the_address_is_counted_as_it_was() -> None:
    server, client, accepted = connected(socket.AF_INET, "127.0.0.1")
    try:
        peer, local = accepted.getpeername()[:2], accepted.getsockname()[:2]
        want = (addresses.plain(*peer), addresses.plain(*local))
        assert addresses.proc_owner(want, tables=("/nonexistent/tcp",)) is None
        assert addresses.local_user("203.0.113.9", peer, local) == "203.0.113.9"
        assert addresses.local_user("127.0.0.1", None, None) == "127.0.0.1"
        assert addresses.group("127.0.0.1") == addresses.LOOPBACK
    finally:
        for sock in (client, accepted, server):
            sock.close()


# A host as another user of the machine: started as this one (whose Python it can read), it
# becomes that user before its socket exists, opens a room and prints the relay's answer.
AS_OTHER = """
import encodings.idna  # loaded now: the standard library may be unreadable to that user
import os
import socket
import sys
import msgpack
from websockets.sync.client import connect
socket.getaddrinfo("127.0.0.1", 1)
uid = int(sys.argv[3])
os.setgroups([])
os.setgid(uid)
os.setuid(uid)
with connect(sys.argv[1]) as ws:
    ws.send(bytes.fromhex(sys.argv[2]))
    answer = msgpack.unpackb(ws.recv(timeout=10), raw=False)
    print(answer["t"], answer.get("code", ""))
"""


async def open_as(uid: int, relay: Relay) -> str:
    """The relay's answer to a room opened by a process of user `uid` (a real other user)."""
    code = codes.new_code()
    frame = encode("open", seq=1, code=code, host_token=None).hex()
    child = await asyncio.create_subprocess_exec(
        sys.executable, "-c", AS_OTHER, relay.url + codes.room_path(code), frame, str(uid),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(child.communicate(), 30)
    assert child.returncode == 0, err.decode()
    return out.decode().split()[0]


@pytest.mark.skipif(not HAS_PROC or os.geteuid() != 0,
                    reason="two real users need /proc and root to be the other one")
async def test_one_user_holding_every_room_blocks_no_other_user_of_the_machine() -> None:
    relay = Relay(Limits(rooms_per_address=2))
    await relay.start()
    held = []
    try:
        for source in ("127.0.0.2", "127.0.0.3"):
            ws, frame = await open_room(relay, source)
            assert frame["t"] == "opened", frame
            held.append(ws)
        ws, frame = await open_room(relay, "127.0.0.4")
        held.append(ws)
        assert frame["code"] == "busy" and f"user {os.getuid()} of this machine" in \
            frame["message"]
        # Another user of the machine opens a room all the same, from any loopback address.
        assert await open_as(NOBODY, relay) == "opened"
        # ... and as many as their own cap.
        assert await open_as(NOBODY, relay) == "opened"
        owners = {room.owner for room in relay.rooms.rooms.values()}
        assert owners == {f"{addresses.USER}{os.getuid()}", f"{addresses.USER}{NOBODY}"}
    finally:
        for ws in held:
            await ws.close()
        await relay.stop()


async def test_the_caps_still_hold_for_one_user_over_many_loopback_addresses() -> None:
    relay = Relay(Limits(rooms_per_address=1))
    await relay.start()
    try:
        first, frame = await open_room(relay, "127.0.0.2")
        assert frame["t"] == "opened"
        second, frame = await open_room(relay, "127.9.9.9")
        assert frame["code"] == "busy"
        await first.close()
        await second.close()
    finally:
        await relay.stop()
