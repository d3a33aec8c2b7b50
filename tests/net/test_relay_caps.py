"""How a relay shares out its rooms (issue 24, item 4), played over real sockets on 127.0.0.1
by hand-driven hosts and peers: the per-address cap counts rooms in use, so rooms people
opened, joined and left lock nobody out; the loopback addresses are one address; a game in
play is never closed to make space, and a newcomer is told the true reason; a host always
gets its own room back with its token."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any, cast

import msgpack
from netsupport import ME, TIMEOUT
from websockets.asyncio.client import ClientConnection, connect

from net.relay import addresses
from net.relay.conns import Conn
from net.relay.rooms import RoomBook
from net.relay.server import Limits, Relay
from net.wire.frames import encode


async def heard(ws: ClientConnection) -> dict[str, Any]:
    async with asyncio.timeout(TIMEOUT):
        return msgpack.unpackb(await ws.recv(), raw=False)


async def open_room(relay: Relay, source: str = "127.0.0.1", code: str | None = None,
                    token: str | None = None) -> tuple[ClientConnection, dict[str, Any]]:
    """A host connecting from `source`: its connection and the relay's answer to its 'open'."""
    ws = await connect(relay.url, local_addr=(source, 0))
    await ws.send(encode("open", seq=1, code=code, host_token=token))
    return ws, await heard(ws)


async def join_room(relay: Relay, host: ClientConnection, code: str,
                    source: str = "127.0.0.1") -> tuple[ClientConnection, int]:
    """A peer in the room `code`: its connection, and its connection id once the host heard
    its join."""
    ws = await connect(relay.url, local_addr=(source, 0))
    await ws.send(encode("join", seq=1, code=code, watch=False, pake=b"\0" * 32))
    frame = await heard(host)
    assert frame["t"] == "from", frame
    return ws, frame["cid"]


class Game:
    """A room in play: a host and a peer, the host's frames reaching the peer."""

    def __init__(self, host: ClientConnection, peer: ClientConnection, cid: int) -> None:
        self.host, self.peer, self.cid = host, peer, cid
        self.seq = 1

    @classmethod
    async def start(cls, relay: Relay, source: str) -> Game:
        host, opened = await open_room(relay, source)
        assert opened["t"] == "opened", opened
        peer, cid = await join_room(relay, host, opened["code"], source)
        game = cls(host, peer, cid)
        await game.plays()
        return game

    async def plays(self) -> None:
        """The host's next frame reaches its peer."""
        self.seq += 1
        data = encode("update", n=self.seq)
        await self.host.send(encode("send", seq=self.seq, items=[{"to": [self.cid],
                                                                  "data": data}]))
        async with asyncio.timeout(TIMEOUT):
            assert await self.peer.recv() == data

    async def close(self) -> None:
        await self.peer.close()
        await self.host.close()


async def until(check: Any, what: str) -> None:
    try:
        async with asyncio.timeout(TIMEOUT):
            while not check():
                await asyncio.sleep(0.02)
    except TimeoutError:
        raise AssertionError(f"gave up waiting for {what}") from None


async def test_fifty_joined_and_abandoned_rooms_lock_nobody_on_that_address_out() -> None:
    relay = Relay(Limits(empty_grace=0.3, sweep_every=0.05))
    await relay.start()
    try:
        assert relay.limits.rooms_per_address == 50
        for _ in range(50):
            host, opened = await open_room(relay)
            peer, _cid = await join_room(relay, host, opened["code"])
            await peer.close()
            await host.close()
        await until(lambda: not any(r.in_use() for r in relay.rooms.rooms.values()),
                    "every host and peer gone")
        # Another host on the same address opens a room at once...
        newcomer, frame = await open_room(relay)
        assert frame["t"] == "opened", frame
        # ... and the abandoned rooms expire (about a minute; here tightened).
        await until(lambda: len(relay.rooms) == 1, "the abandoned rooms expired")
        await newcomer.close()
    finally:
        await relay.stop()


async def test_hosts_spread_over_the_loopback_addresses_count_as_one() -> None:
    relay = Relay(Limits(rooms_per_address=3))
    await relay.start()
    try:
        hosts = []
        for source in ("127.0.0.2", "127.0.0.3", "127.1.2.3"):
            ws, frame = await open_room(relay, source)
            assert frame["t"] == "opened", frame
            hosts.append(ws)
        ws, frame = await open_room(relay, "127.0.0.4")
        assert frame["code"] == "busy" and frame["fatal"]
        assert frame["message"].startswith(addresses.describe(addresses.group(ME))) and \
            "has 3 rooms in use, the most one address may" in frame["message"]
        # A room whose host left, with nobody in it, no longer counts.
        await hosts[0].close()
        await until(lambda: relay.rooms.address_load(ME)[1] == 2, "the host gone")
        ws, frame = await open_room(relay, "127.0.0.5")
        assert frame["t"] == "opened", frame
        for host in [*hosts, ws]:
            await host.close()
    finally:
        await relay.stop()


async def test_wrong_codes_spread_over_the_loopback_addresses_count_as_one() -> None:
    relay = Relay(Limits(wrong_code_free=3, wrong_code_delay=0.01, wrong_code_max_delay=0.1))
    await relay.start()
    try:
        waits = []  # how long the next wrong answer to that address will wait
        for source in ("127.0.0.2", "127.0.0.3", "127.0.0.4"):
            async with connect(relay.url, local_addr=(source, 0)) as ws:
                await ws.send(encode("join", seq=1, code="ZZZZ-ZZZZ", watch=False, pake=b""))
                error = await heard(ws)
                assert error["code"] == "no_room"
                waits.append(error["retry_after"])
        assert waits[0] == waits[1] == 0 < waits[2]
    finally:
        await relay.stop()


async def test_a_room_whose_players_wait_for_its_host_counts_and_waits() -> None:
    """The ruling of net.relay.rooms: a room whose host is away counts against its address
    while somebody is in it (and waits for the host), and expires soon once nobody is."""
    relay = Relay(Limits(rooms_per_address=1, empty_grace=0.2, sweep_every=0.05))
    await relay.start()
    try:
        host, opened = await open_room(relay)
        peer, _cid = await join_room(relay, host, opened["code"])
        await host.close()
        assert (await heard(peer))["t"] == "host_gone"
        room = relay.rooms.get(opened["code"])
        assert room is not None
        await until(lambda: room.occupied_at > room.host_gone_at + relay.limits.empty_grace,
                    "a sweep after the empty grace")
        assert relay.rooms.get(opened["code"]) is room
        ws, frame = await open_room(relay)
        assert frame["code"] == "busy" and "1 rooms in use" in frame["message"]
        await peer.close()
        await until(lambda: len(relay.rooms) == 0, "the room expired once nobody waited")
        ws, frame = await open_room(relay)
        assert frame["t"] == "opened", frame
        await ws.close()
    finally:
        await relay.stop()


async def test_a_game_in_play_is_never_closed_to_make_space() -> None:
    """The relay is full: a local user's rooms spread over 127/8 give up their places to its
    next room, and the game in play (the least recently opened room) goes on."""
    relay = Relay(Limits(max_rooms=3))
    await relay.start()
    try:
        game = await Game.start(relay, "127.0.0.1")
        idle = [(await open_room(relay, source))[0] for source in ("127.0.0.2", "127.0.0.3")]
        newcomer, frame = await open_room(relay, "127.0.0.4")
        assert frame["t"] == "opened", frame
        await game.plays()
        evicted = await heard(idle[0])
        assert evicted["code"] == "evicted" and evicted["fatal"]
        assert evicted["message"] == ("this relay is full and this room had no game in play: "
                                      "it was closed to make space")
        assert len(relay.rooms) == 3
        for ws in (*idle, newcomer):
            await ws.close()
        await game.close()
    finally:
        await relay.stop()


async def test_a_full_relay_of_games_in_play_tells_a_newcomer_so() -> None:
    relay = Relay(Limits(max_rooms=2))
    await relay.start()
    try:
        games = [await Game.start(relay, source) for source in ("127.0.0.1", "127.0.0.2")]
        _refused, frame = await open_room(relay, "127.0.0.3")
        assert frame["code"] == "busy" and frame["fatal"]
        assert frame["message"] == "this relay is full: 2 rooms in play; try later"
        for game in games:
            await game.plays()
            await game.close()
    finally:
        await relay.stop()


async def test_a_host_gets_its_room_back_whatever_its_address_holds() -> None:
    relay = Relay(Limits(rooms_per_address=1))
    await relay.start()
    try:
        host, opened = await open_room(relay)
        code, token = opened["code"], opened["host_token"]
        await host.close()
        await until(lambda: relay.rooms.address_load(ME)[1] == 0, "the host gone")
        other, frame = await open_room(relay)  # the address's one room in use
        assert frame["t"] == "opened", frame
        back, frame = await open_room(relay, code=code, token=token)
        assert frame["t"] == "opened" and frame["code"] == code, frame
        for ws in (other, back):
            await ws.close()
    finally:
        await relay.stop()


async def test_after_a_restart_a_host_gets_its_room_back_whatever_its_address_holds() -> None:
    secret = b"relay-secret-for-this-test-only!"
    relay = Relay(Limits(rooms_per_address=1), secret=secret)
    port = await relay.start()
    host, opened = await open_room(relay)
    code, token = opened["code"], opened["host_token"]
    await relay.stop()
    await host.close()
    relay = Relay(Limits(rooms_per_address=1), secret=secret)
    await relay.start("127.0.0.1", port)
    try:
        other, frame = await open_room(relay)  # a new room took the address's one place
        assert frame["t"] == "opened", frame
        back, frame = await open_room(relay, code=code, token=token)
        assert frame["t"] == "opened" and frame["code"] == code, frame
        # A code this relay held and closed is a new room when it comes back: under the cap.
        await back.send(encode("close", seq=2, reason="done"))
        await until(lambda: relay.rooms.get(code) is None, "the room closed")
        _refused, frame = await open_room(relay, code=code, token=token)
        assert frame["code"] == "busy", frame
        await other.close()
    finally:
        await relay.stop()


def test_addresses_are_grouped_by_ipv4_address_ipv6_64_and_loopback() -> None:
    book = RoomBook(Limits())
    for addr in ("192.0.2.7", "192.0.2.7", "192.0.2.8", "2001:db8::1", "2001:db8::ffff:2",
                 "2001:db8:0:1::1", "127.0.0.9", "::1"):
        book.add(book.free_code(), "token", cast(Conn, SimpleNamespace(addr=addr)))
    assert book.address_load("192.0.2.7") == ("192.0.2.7", 2)
    assert book.address_load("::ffff:192.0.2.7") == ("192.0.2.7", 2)
    assert book.address_load("192.0.2.8") == ("192.0.2.8", 1)
    assert book.address_load("2001:db8::42") == ("2001:db8::/64", 2)
    assert book.address_load("2001:db8:0:1:ffff::") == ("2001:db8:0:1::/64", 1)
    assert book.address_load("127.200.0.1") == (addresses.LOOPBACK, 2)
    assert addresses.describe("2001:db8::/64") == "network 2001:db8::/64"
    assert addresses.describe("192.0.2.7") == "address 192.0.2.7"
