"""One table on several relays behind a real HAProxy on 127.0.0.1, configured by the shipped
deploy/haproxy.cfg (bench.relays changes only its addresses): every connection of a room
reaches the room's relay, a relay added to the ring takes new rooms and no live one, and
games go on when a relay is killed mid-game, its peers waiting at the next relay for a
late host."""

from __future__ import annotations

import asyncio
import resource
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from netsupport import Player
from test_net_game import open_table
from websockets.asyncio.client import ClientConnection, connect

from bench.relays import SHIPPED, Balancer, RelayProcess, haproxy_binary, log_name, write_secret
from net.host.authority import NetHost
from net.host.uplink import Uplink
from net.peer.remote import RemoteLink
from net.records import record
from net.relay import addresses, tokens
from net.relay.server import Limits, Relay
from net.wire import codes
from net.wire.frames import decode, encode

# .ci/run installs HAProxy when it is missing; the tests only look for it (an install here
# would run at collection, in every test run, and could hang without a network).
HAPROXY = haproxy_binary()
pytestmark = pytest.mark.skipif(
    HAPROXY is None, reason="haproxy is not installed (apt-get install haproxy; .ci/run does it)")

ROOMS = 300
# A peer's raw join: the relay hands it to the host without reading the exchange.
JOIN = {"watch": False, "seat_id": None, "nonce": None, "pake": bytes(33)}


@pytest.fixture
def secret(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The table's shared relay secret, for relays in this process and in others."""
    path = write_secret(tmp_path / "relay-secret")
    monkeypatch.setenv(tokens.SECRET_FILE_ENV, str(path))
    return path


@pytest.fixture
async def relays(secret: Path) -> AsyncIterator[list[Relay]]:
    """Three relays in this process (their rooms can be looked into), all load from this
    machine: the cap per address is lifted."""
    started = []
    for _ in range(3):
        relay = Relay(Limits(rooms_per_address=10 * ROOMS, sweep_every=0.5))
        await relay.start()
        started.append(relay)
    yield started
    for relay in started:
        await relay.stop()


@pytest.fixture
def balancer(tmp_path: Path, relays: list[Relay]) -> Iterator[Balancer]:
    lb = Balancer(tmp_path, [r.port for r in relays])
    try:
        yield lb
    finally:
        lb.stop()


class RawRoom:
    """A room at the wire: a host that opened it under a code it drew, and peers in it."""

    def __init__(self, host: ClientConnection, code: str) -> None:
        self.host, self.code = host, code
        self.peers: list[ClientConnection] = []

    @classmethod
    async def open(cls, url: str) -> RawRoom:
        code = codes.new_code()
        host = await connect(url + codes.room_path(code))
        await host.send(encode("open", seq=1, code=code, host_token=None))
        answer = decode(await host.recv())
        assert answer["t"] == "opened", answer
        return cls(host, code)

    async def join(self, url: str) -> None:
        """One more peer, through `url`; returns once the host heard it: so the peer reached
        the relay that holds the room (no other relay knows the code)."""
        peer = await connect(url + codes.room_path(self.code))
        await peer.send(encode("join", seq=1, code=self.code, **JOIN))
        self.peers.append(peer)
        while True:
            frame = decode(await asyncio.wait_for(self.host.recv(), 10))
            if frame["t"] == "from":
                return

    async def close(self) -> None:
        for ws in [*self.peers, self.host]:
            await ws.close()


async def open_rooms(url: str, count: int, peers: int) -> list[RawRoom]:
    rooms = []
    for _ in range(count):
        room = await RawRoom.open(url)
        for _ in range(peers):
            await room.join(url)
        rooms.append(room)
    return rooms


def holders(relays: list[Relay], rooms: list[RawRoom]) -> dict[str, int]:
    """Which relay (by index) holds each room, checking that exactly one does, with the
    room's host and every one of its peers: no room is split."""
    where: dict[str, int] = {}
    for room in rooms:
        held = [i for i, r in enumerate(relays) if r.rooms.get(room.code) is not None]
        assert len(held) == 1, (room.code, held)
        kept = relays[held[0]].rooms.get(room.code)
        assert kept is not None and kept.host is not None
        assert len(kept.members) == len(room.peers), (room.code, len(kept.members))
        where[room.code] = held[0]
    return where


async def test_every_connection_of_each_of_300_rooms_reaches_one_relay_and_all_get_rooms(
    relays: list[Relay], balancer: Balancer,
) -> None:
    await asyncio.to_thread(balancer.start)  # the relays answer its checks meanwhile
    rooms = await open_rooms(balancer.url, ROOMS, peers=2)
    try:
        where = holders(relays, rooms)
        shares = [list(where.values()).count(i) for i in range(len(relays))]
        assert sum(shares) == ROOMS
        assert min(shares) >= ROOMS // 10, shares  # every relay gets a real share
        assert sum(len(r.rooms) for r in relays) == ROOMS
    finally:
        for room in rooms:
            await room.close()


async def test_a_relay_added_takes_new_rooms_and_no_live_one(
    relays: list[Relay], balancer: Balancer,
) -> None:
    await asyncio.to_thread(balancer.start)
    live = await open_rooms(balancer.url, ROOMS, peers=1)
    fourth = Relay(Limits(rooms_per_address=10 * ROOMS))
    await fourth.start()
    try:
        before = holders(relays, live)
        await asyncio.to_thread(balancer.add_relay, fourth.port)
        # Every live room takes a late joiner through the new ring: the stick table sends it
        # to the relay that holds the room, though about a quarter of these codes hash to the
        # new relay now.
        for room in live:
            await room.join(balancer.url)
        assert holders([*relays, fourth], live) == before
        assert len(fourth.rooms) == 0
        fresh = await open_rooms(balancer.url, ROOMS // 2, peers=1)
        everywhere = [*relays, fourth]
        placed = holders(everywhere, fresh)
        assert list(placed.values()).count(3) >= ROOMS // 2 // 10  # the new relay's share
        assert all(list(placed.values()).count(i) > 0 for i in range(4))
        await asyncio.gather(*(room.close() for room in fresh))
    finally:
        for room in live:
            await room.close()
        await fourth.stop()


# -- a relay killed in the middle of 30 games ------------------------------------------------
GAMES = 30


class Timeline:
    """When each game's host applied each move of a peer (monotonic clock): those come
    through the relay, unlike the moves of the host's own seat and its bots."""

    def __init__(self) -> None:
        self.moves: dict[str, list[float]] = {}

    def follow(self, host: NetHost, seats: set[int]) -> None:
        session = host.session
        assert session is not None
        stamps = self.moves.setdefault(host.room, [])

        def moved(seat: int, *_: Any) -> None:
            if seat in seats:
                stamps.append(time.monotonic())

        session.subscribe(moved)

    def first_after(self, rooms: set[str], moment: float) -> list[float]:
        """For each room, seconds from `moment` to its first move after it."""
        return [next(t for t in self.moves[r] if t > moment) - moment for r in rooms
                if any(t > moment for t in self.moves[r])]


@pytest.fixture
def relay_processes(tmp_path: Path, secret: Path) -> Iterator[list[RelayProcess]]:
    """Three `tabletop-tui serve --secret-file` processes sharing the table's secret."""
    procs = [RelayProcess(tmp_path, secret) for _ in range(3)]
    try:
        for proc in procs:
            proc.start()
        yield procs
    finally:
        for proc in procs:
            proc.stop()


async def test_games_go_on_without_a_lost_move_when_a_relay_is_killed(
    tmp_path: Path, relay_processes: list[RelayProcess],
) -> None:
    lb = Balancer(tmp_path, [p.port for p in relay_processes]).start()
    tables: list[tuple[NetHost, Player, list[Player]]] = []
    timeline = Timeline()
    try:
        for game in range(GAMES):
            host, me, peers = await open_table(lb, seed=game, seats=4, fixed=False)
            host.add_bot()
            tables.append((host, me, peers))
        for host, *_ in tables:
            host.start()
        await asyncio.sleep(0)  # the deals are made together: wait until every game plays
        async with asyncio.timeout(60):
            while not all(h.session is not None and h.session.state_no >= 3
                          for h, *_ in tables):
                await asyncio.sleep(0.05)
        for host, _me, peers in tables:
            timeline.follow(host, {s for p in peers for s in p.link.seats})
        # The relay with the most rooms dies without a word.
        victim = max(relay_processes, key=lambda p: p.rooms())
        names = set(victim.opened())
        moved = {h.room for h, *_ in tables if log_name(h.room) in names}
        playing = [h for h, *_ in tables if h.room in moved and not h.session.over]
        assert len(playing) >= 3, "too few games were still on the relay when it died"
        killed = time.monotonic()
        victim.kill()
        async with asyncio.timeout(120):
            await asyncio.gather(*(p.done.wait() for _, me, peers in tables
                                   for p in (me, *peers)))
        waits = timeline.first_after({h.room for h in playing}, killed)
        print(f"\nfailover: {len(playing)} games moved; a peer's first move after the kill: "
              f"first {min(waits):.2f} s, median {sorted(waits)[len(waits) // 2]:.2f} s, "
              f"last {max(waits):.2f} s")
        assert len(waits) == len(playing)
        for host, me, peers in tables:
            check_game(host, me, peers)
    finally:
        for host, _me, peers in tables:
            await asyncio.gather(*(p.link.close() for p in peers))
            await host.close()
        lb.stop()


def kill(relay: Relay) -> None:
    """A relay in this process gone as SIGKILL leaves it: it stops listening, and every one of
    its connections is cut without a closing handshake."""
    assert relay._server is not None
    relay._server.server.close()
    for conn in list(relay.conns):
        conn.ws.transport.abort()


@pytest.fixture
async def late_host(
    tmp_path: Path, secret: Path, monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> AsyncIterator[tuple[list[Relay], Balancer]]:
    """Two relays behind HAProxy whose hosts reopen a room late (half a second, or as the
    test's parameter says), after their peers have reached the next relay (one wrong code a
    minute is free there: one would show). A peer waits a minute there for its host: longer
    than any test here waits for it, so a peer the host's arrival did not wake fails them."""
    lateness = getattr(request, "param", 0.5)
    relays = [Relay(Limits(wrong_code_free=1, resume_wait=60.0)) for _ in range(2)]
    for relay in relays:
        await relay.start()
    lb = Balancer(tmp_path, [r.port for r in relays])
    reopen = Uplink._connect

    async def late(uplink: Uplink) -> Any:
        if uplink.host_token is not None:  # reopening its room: after the peers
            await asyncio.sleep(lateness)
        return await reopen(uplink)

    monkeypatch.setattr(Uplink, "_connect", late)
    await asyncio.to_thread(lb.start)
    try:
        yield relays, lb
    finally:
        lb.stop()
        for relay in relays:
            await relay.stop()


async def test_peers_that_reach_the_next_relay_before_their_host_wait_there_unpenalised(
    late_host: tuple[list[Relay], Balancer], monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After a relay died mid-game, a room's host and peers reconnect through HAProxy to the
    next relay in any order. Here the host is late on purpose: its peers' resumes wait at the
    next relay for the room, none of them counts as a wrong code there (one would show: only
    one is free), and the game is played to its end with every shuffle verified."""
    relays, lb = late_host
    host, me, peers = await open_table(lb, seed=7, fixed=False)
    try:
        # The game stops at the host's own seat, which waits until the relay died.
        me.play = False
        host.start()
        stopped = await me.wait_for(lambda m: m["type"] in ("sync", "update")
                                    and m["seat"] in me.link.seats and bool(m["legal"]))
        victim = next(r for r in relays if r.rooms.get(host.room) is not None)
        (survivor,) = [r for r in relays if r is not victim]
        waited: list[bool] = []
        wait_for = survivor.rooms.wait_for

        async def noted(code: str, addr: str) -> Any:
            room = await wait_for(code, addr)
            waited.append(room is not None)
            return room

        monkeypatch.setattr(survivor.rooms, "wait_for", noted)
        kill(victim)
        for peer in peers:
            await peer.wait_for(lambda m: m["type"] == "connection" and m["state"] == "connected")
        assert survivor.guard.delay("127.0.0.1") == 0  # no wrong code counted
        assert waited == [True, True]  # both peers were there first, and got in
        room = survivor.rooms.get(host.room)
        assert room is not None and room.host is not None and len(room.members) == 2
        me.play = True
        me.hear(stopped)
        async with asyncio.timeout(60):
            await asyncio.gather(*(p.done.wait() for p in (me, *peers)))
        check_game(host, me, peers)
    finally:
        await asyncio.gather(*(p.link.close() for p in peers))
        await host.close()


# Half a second late, and a moment late: then a peer's resume and the host's reopening
# often reach the next relay in one turn of its event loop, the race that once left the peer
# waiting the whole `resume_wait` (tests/net/test_relay_balancer.py makes it certain).
@pytest.mark.parametrize("late_host", [0.5, 0.002], indirect=True, ids=["late", "a_moment"])
async def test_a_lobby_keeps_its_people_when_the_relay_under_it_dies(
    late_host: tuple[list[Relay], Balancer],
) -> None:
    """Before the game, too: the relay of a room whose seats are taken dies; the host comes
    back late, after its peers (their seats held meanwhile, not freed), and the table starts
    with the same people in the same seats and plays to the end. The peers are back long
    before their wait at the next relay would have run out."""
    relays, lb = late_host
    host, me, peers = await open_table(lb, seed=7, fixed=False)
    try:
        seated = [(s["name"], s["connected"]) for s in host.seat_list()]
        assert seated == [("Hana", True), ("Pia", True), ("Per", True)]
        kill(next(r for r in relays if r.rooms.get(host.room) is not None))
        for peer in peers:
            await peer.wait_for(lambda m: m["type"] == "connection" and m["state"] == "connected")
        async with asyncio.timeout(30):
            while [(s["name"], s["connected"]) for s in host.seat_list()] != seated:
                await asyncio.sleep(0.05)
        assert [p.link.seat for p in peers] == [1, 2]  # type: ignore[attr-defined]
        host.start()
        async with asyncio.timeout(60):
            await asyncio.gather(*(p.done.wait() for p in (me, *peers)))
        check_game(host, me, peers)
    finally:
        await asyncio.gather(*(p.link.close() for p in peers))
        await host.close()


def check_game(host: NetHost, me: Player, peers: list[Player]) -> None:
    """The game ended alike everywhere, the host's record holds every move (it replays to
    the same end), every update a peer saw is the record's move of that number, and every
    peer verified the shuffle."""
    session = host.session
    assert session is not None and session.over
    path = host.record_path
    assert path is not None
    replay = record.Replay(record.load(path))
    assert len(replay.record.moves) == len(session.moves)
    assert replay.result == session.result() == me.result
    for peer in peers:
        assert peer.result is not None
        assert peer.result["verify_note"] == "shuffles verified", peer.result
        assert {k: v for k, v in peer.result.items()
                if not k.startswith("verif") and k != "fixed_seed"} == replay.result
        for update in peer.of("update"):
            assert update["events"] == replay.events[update["state_no"]], update["state_no"]
        link: Any = peer.link
        assert isinstance(link, RemoteLink)


@pytest.mark.parametrize("nofile", [None, 1024], ids=["this_machine", "a_small_limit"])
async def test_the_shipped_config_starts_as_it_is_and_sizes_itself_by_the_file_limit(
    relays: list[Relay], tmp_path: Path, nofile: int | None,
) -> None:
    """deploy/haproxy.cfg as shipped, its global section and all, only its addresses
    changed: it starts under this machine's file limit and under a small one (1024, a
    stock soft limit), takes as many connections as the limit allows, and routes rooms."""
    lb = Balancer(tmp_path, [r.port for r in relays], nofile=nofile)
    try:
        await asyncio.to_thread(lb.start)
        shipped = SHIPPED.read_text().splitlines()
        ran = (tmp_path / "haproxy-1.cfg").read_text().splitlines()
        changed = [line.split()[0] for line in set(ran) - set(shipped)]
        assert sorted(set(changed)) == ["bind", "server", "stats"], changed
        assert len(ran) == len(shipped)
        assert not [line for line in shipped if line.strip().startswith("maxconn")]
        info = lb.info()
        limit = int(info["Ulimit-n"])
        given = nofile or resource.getrlimit(resource.RLIMIT_NOFILE)[1]
        assert given - 2 <= limit <= given  # HAProxy may keep one back for itself
        assert limit // 2 - 100 < int(info["Maxconn"]) <= limit // 2
        rooms = await open_rooms(lb.url, 6, peers=1)
        holders(relays, rooms)
        for room in rooms:
            await room.close()
    finally:
        lb.stop()


async def test_the_relays_learn_each_clients_address_from_haproxy_and_only_from_it(
    tmp_path: Path, secret: Path,
) -> None:
    relay = Relay(Limits(), proxies=addresses.networks("127.0.0.1"))
    await relay.start()
    lb = Balancer(tmp_path, [relay.port])
    try:
        await asyncio.to_thread(lb.start)
        code = codes.new_code()
        # A client at 127.0.0.2 that names itself another address: HAProxy drops its header
        # and writes the address the client really came from, which the relay counts it
        # under (HAProxy itself reaches the relay from 127.0.0.1).
        async with connect(lb.url + codes.room_path(code), local_addr=("127.0.0.2", 0),
                           additional_headers={"X-Forwarded-For": "203.0.113.9"}) as ws:
            await ws.send(encode("open", seq=1, code=code, host_token=None))
            assert decode(await ws.recv())["t"] == "opened"
            room = relay.rooms.get(code)
            assert room is not None and room.host is not None
            # A forwarded address: whose socket it was at the balancer, the relay cannot know.
            assert room.host.addr == "127.0.0.2" and room.owner == addresses.LOOPBACK
    finally:
        lb.stop()
        await relay.stop()
