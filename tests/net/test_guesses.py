"""How many guesses at a room's secret anybody gets, played by the attackers over real sockets
on 127.0.0.1: a relay that forwards joins of its own making in bursts, under connection ids and
sources it invents (the room answers a bounded number of key exchanges, the README's "36 tries
in a day", and a right code refused meanwhile is told why and gets in after); a stranger
guessing from one address through an honest relay (it slows that address, not newcomers from
elsewhere); a join that never says hello (closed, its place freed); a relay that answers a
typed join itself (it gets two exchanges at most); and a re-key, whose welcome comes before
anything else on the new channel. The room's waits go by a stepped clock, never real hours."""

from __future__ import annotations

import asyncio
import secrets
from itertools import count
from pathlib import Path
from typing import Any

import pytest
from netsupport import TIMEOUT, Places, Player, Raw
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve

from net.host import keys
from net.host.authority import NetHost
from net.host.link import HostLink
from net.peer import joining
from net.peer.remote import JoinError, RemoteLink
from net.relay.hosts import HostDesk
from net.relay.limits import Limits
from net.relay.rooms import Room
from net.relay.server import Relay
from net.wire import codes, resume
from net.wire.channel import CRYPTO, Exchange
from net.wire.frames import Frame, decode, encode

DAY = 86400.0
README = Path(__file__).resolve().parents[2] / "README.md"


async def until(check: Any, what: str) -> None:
    async with asyncio.timeout(TIMEOUT):
        while not check():
            await asyncio.sleep(0.01)


def other_secret(real: str) -> str:
    """A secret that is not the room's: the attackers' guesses are wrong ones."""
    while (guess := codes.new_code(codes.SECRET_LENGTH)) == real:
        pass
    return guess


class Forging(HostDesk):
    """The host's desk of a `Guessing` relay: what the host sends to a forged connection goes
    to the relay's own guesser instead of to anybody."""

    relay: Guessing

    def _deliver(self, room: Room, items: list[Any]) -> None:
        honest = []
        for item in items:
            to = item.get("to") if isinstance(item, dict) else None
            if isinstance(to, list) and len(to) == 1 and to[0] in self.relay.forged:
                self.relay.answered_by_host(room, to[0], item["data"])
            else:
                honest.append(item)
        super()._deliver(room, honest)

    def _kick(self, room: Room, frame: Frame) -> None:
        if frame["cid"] in self.relay.forged:
            self.relay.outcomes[frame["cid"]] = frame
            return
        super()._kick(room, frame)


class Guessing(Relay):
    """A hostile relay: it carries the room honestly and, besides, forwards joins of its own
    making to the host, each under a connection id and a source it invents with a key exchange
    for a guess of its own, and answers the host's half at once with a hello sealed under that
    guess (`holding`: it keeps those hellos back until `release`)."""

    def __init__(self) -> None:
        super().__init__(Limits(wrong_code_free=10**6))
        self.hosts = Forging(self)
        self.forged: dict[int, Exchange] = {}
        self.outcomes: dict[int, Frame] = {}  # cid -> the host's kick of it
        self.answered = 0  # key exchanges the host answered for forged joins
        self.holding = False
        self.held: list[tuple[int, bytes]] = []
        self._cids = count(1_000_000)

    def burst(self, room: str, n: int, real: str) -> list[int]:
        found = self.rooms.get(room)
        assert found is not None and found.host is not None
        cids = []
        for _ in range(n):
            cid = next(self._cids)
            exchange = self.forged[cid] = CRYPTO.peer_exchange(room, other_secret(real))
            self.tell(found.host, "from", cid=cid, src=secrets.token_hex(8),
                      data=encode("join", seq=1, code=room, watch=False, pake=exchange.message))
            cids.append(cid)
        return cids

    def answered_by_host(self, room: Room, cid: int, data: bytes) -> None:
        frame = decode(data)
        if frame["t"] != "pake":
            return
        self.answered += 1
        channel = self.forged[cid].finish(frame["msg"])
        n, sealed = channel.seal({"t": "hello", "name": "Mal", "watch": False})
        hello = encode("sealed", seq=2, n=n, data=sealed)
        if self.holding:
            self.held.append((cid, hello))
        elif room.host is not None:
            self.tell(room.host, "from", cid=cid, data=hello)

    def release(self, room: str) -> None:
        found = self.rooms.get(room)
        assert found is not None and found.host is not None
        for cid, hello in self.held:
            self.tell(found.host, "from", cid=cid, data=hello)
        self.held.clear()


@pytest.fixture
async def guessing() -> Any:
    relay = Guessing()
    await relay.start()
    yield relay
    await relay.stop()


async def hosting(relay: Relay) -> tuple[NetHost, list[float]]:
    """A room whose waits go by a clock the test steps."""
    host = NetHost("schoene", 3, relay_url=relay.url, host_name="Hana", keep_record=False)
    await host.open()
    clock = [1000.0]
    host.keys.now = lambda: clock[0]
    return host, clock


async def watch(host: NetHost, relay: Relay, name: str = "Vic") -> None:
    """A newcomer with the right code gets in (and goes)."""
    vic = RemoteLink(host.code, name, server=relay.url, watch=True, remember=False)
    await vic.connect()
    assert vic.seat is None
    await vic.close()


# -- 1. a relay's bursts -------------------------------------------------------------------------
async def test_a_burst_of_forged_joins_gets_a_few_exchanges_and_the_right_code_in_after(
    guessing: Guessing, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """500 joins at once, each under its own connection id and source: the room answers
    MAX_FLYING of them and tells the rest to wait; a right code that comes meanwhile is told
    why, and gets in once the burst's exchanges have failed."""
    monkeypatch.setattr(joining, "SLOW_WAIT", 0.0)  # every wait here is the test's to make
    host, _clock = await hosting(guessing)
    try:
        guessing.holding = True
        cids = guessing.burst(host.room, 500, host.keys.secret)
        await until(lambda: len(guessing.outcomes) + guessing.answered == 500, "the answers")
        assert guessing.answered == keys.MAX_FLYING == 8
        refused = [guessing.outcomes[c] for c in cids if c in guessing.outcomes]
        flying = [c for c in cids if c not in guessing.outcomes]
        assert len(refused) == 492
        assert {(f["code"], f["retry_after"]) for f in refused} == {("slow_down", 2.0)}
        with pytest.raises(JoinError) as busy:
            await RemoteLink(host.code, "Vic", server=guessing.url, watch=True,
                             remember=False).connect()
        assert busy.value.code == "slow_down" and busy.value.retry_after == 2.0
        assert "answering other joins just now" in busy.value.message
        guessing.release(host.room)
        await until(lambda: host.keys.wrong_tries == 8, "the guesses refused")
        assert all(guessing.outcomes[c]["code"] == "wrong_code" for c in flying)
        await watch(host, guessing)
        assert guessing.answered == 8 and host.keys.wrong_tries == 8
    finally:
        await host.close()


async def test_a_relay_bursting_all_day_gets_36_exchanges(guessing: Guessing) -> None:
    """Bursts of 50 forged joins, each time the room takes one again, for a day: the room
    answers 36 exchanges in all (the README's figure), and a right code gets in after the
    last wait."""
    host, clock = await hosting(guessing)
    start, forged = clock[0], 0
    try:
        while clock[0] + host.keys.slowed() - start <= DAY:
            clock[0] += host.keys.slowed()
            cids = guessing.burst(host.room, 50, host.keys.secret)
            forged += 50
            await until(lambda cids=cids: all(c in guessing.outcomes for c in cids),
                        "the burst settled")
        assert forged >= 900
        assert guessing.answered == host.keys.wrong_tries == 36
        assert "at most 36 tries in a day" in " ".join(README.read_text().split())
        clock[0] += host.keys.slowed()
        await watch(host, guessing)
    finally:
        await host.close()


# -- 2. a stranger with the room code, through an honest relay ---------------------------------
async def test_a_stranger_guessing_from_one_address_slows_that_address_and_nobody_else(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Eve guesses from one address for a day (the relay's own hold-back is off: the room's
    rule alone), again as soon as she may. Newcomers from elsewhere, every three hours, get in
    within a few minutes of arriving; Eve's own waits grow to hours; once she stops, the next
    newcomer gets in within a minute."""
    monkeypatch.setattr(joining, "SLOW_WAIT", 0.0)
    relay = Relay(Limits(wrong_code_free=10**6))
    places = Places.on(relay)
    await relay.start()
    host, clock = await hosting(relay)
    wrong = host.room + other_secret(host.keys.secret)
    arrivals = count()

    async def newcomer() -> float:
        """A newcomer from an address of its own joins, waiting as long as it is asked;
        the seconds it waited."""
        places.at = f"198.51.100.{next(arrivals)}"
        waited = 0.0
        while True:
            try:
                await watch(host, relay)
            except JoinError as exc:
                assert exc.code == "slow_down", exc.message
                assert exc.retry_after is not None
                waited += exc.retry_after
                clock[0] += exc.retry_after
                continue
            return waited

    try:
        start, tries, waits = clock[0], 0, []
        due = start
        while clock[0] - start < DAY:
            places.at = "203.0.113.7"
            with pytest.raises(JoinError) as eve:
                await RemoteLink(wrong, "Eve", server=relay.url, remember=False).connect()
            if eve.value.code == "wrong_code":
                tries += 1
                clock[0] += 1.0
            else:
                assert eve.value.code == "slow_down" and eve.value.retry_after
                clock[0] += eve.value.retry_after
            if clock[0] >= due:
                waits.append(await newcomer())
                due += 3 * 3600
        assert len(waits) >= 7 and max(waits) <= 180, waits
        assert tries <= keys.SOURCE_FREE + 17, tries
        places.at = "203.0.113.7"
        for _ in range(2):  # her next guess, if one is due, then the one after
            with pytest.raises(JoinError) as eve:
                await RemoteLink(wrong, "Eve", server=relay.url, remember=False).connect()
            if eve.value.code != "wrong_code":
                break
        assert eve.value.code == "slow_down" and "from your network" in eve.value.message
        assert (eve.value.retry_after or 0) > 3600  # hers are hours
        assert await newcomer() <= 60  # the attack has stopped
    finally:
        await host.close()
        await relay.stop()


# -- 9. a join that never says hello ---------------------------------------------------------------
async def test_a_join_that_never_says_hello_is_closed_and_its_place_freed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A join that takes the host's half of the exchange and says nothing more holds the
    room's one place for players only until the hello deadline; it is told why, and its
    source counts it (the room does not: it guessed nothing)."""
    monkeypatch.setattr(keys, "HELLO_DEADLINE", 0.3)
    relay = Relay(Limits(players=1))
    await relay.start()
    host = NetHost("schoene", 3, relay_url=relay.url, host_name="Hana", keep_record=False)
    await host.open()
    try:
        async with connect(relay.url + codes.room_path(host.room)) as ws:
            exchange = CRYPTO.peer_exchange(host.room, host.keys.secret)
            await ws.send(encode("join", seq=1, code=host.room, watch=False,
                                 pake=exchange.message))
            async with asyncio.timeout(TIMEOUT):
                assert decode(await ws.recv())["t"] == "pake"
                said = decode(await ws.recv())
        assert said["t"] == "error" and said["code"] == "timeout" and said["fatal"]
        assert "no hello" in said["message"]
        assert host.keys.wrong_tries == 0
        assert [s.wrong for s in host.keys.sources.values()] == [1]
        pia = RemoteLink(host.code, "Pia", server=relay.url, remember=False)
        await pia.connect()  # the place it held is free again
        assert pia.seat == 1
        await pia.close()
    finally:
        await host.close()
        await relay.stop()


# -- 9. a relay answering a typed join itself ---------------------------------------------------
async def impostor(tricks: list[str]) -> tuple[Any, list[int], str]:
    """A relay that plays the host itself: it answers each join's exchange with a guess of its
    own, counts the hellos sealed under it (one guess each), then plays the next trick: say
    `slow_down`, or send a second `pake` and `host_back`."""
    hellos: list[int] = []
    connections = count()

    async def handle(ws: ServerConnection) -> None:
        trick = tricks[next(connections) % len(tricks)]
        first = decode(await ws.recv())
        room = first["code"]
        await ws.send(encode("pake", msg=CRYPTO.host_exchange(room, "0000").message))
        async for raw in ws:
            if decode(raw)["t"] != "sealed":
                continue
            hellos.append(1)
            if trick == "slow_down":
                await ws.send(encode("error", code="slow_down", message="try again in 0 s",
                                     fatal=True, retry_after=0.1))
                await ws.close()
                return
            await ws.send(encode("pake", msg=CRYPTO.host_exchange(room, "1111").message))
            await ws.send(encode("host_back"))

    server = await serve(handle, "127.0.0.1", 0)
    port = next(iter(server.sockets)).getsockname()[1]
    return server, hellos, f"127.0.0.1:{port}"


@pytest.mark.parametrize("tricks", [["slow_down"], ["host_back"], ["host_back", "slow_down"]])
async def test_one_typed_join_gives_a_relay_two_exchanges_at_most(tricks: list[str]) -> None:
    server, hellos, where = await impostor(tricks)
    try:
        with pytest.raises(JoinError):
            await RemoteLink("K7QX-9MPA-B3CD", "Pia", server=where, remember=False).connect()
        assert len(hellos) == (1 if tricks == ["slow_down"] else 2)
        assert joining.MAX_EXCHANGES == 2
    finally:
        server.close()
        await server.wait_closed()


# -- 9. a re-key's welcome comes first -----------------------------------------------------------
async def test_after_every_rekey_the_welcome_comes_before_any_update(relay: Relay) -> None:
    """A spectator written from the protocol alone re-keys forty times while bots play on:
    each time, the first sealed frame on the new channel is the welcome."""
    host = NetHost("schoene", 3, relay_url=relay.url, host_name="Hana", bot_delay=0.01,
                   keep_record=False)
    await host.open()
    link = HostLink(host)
    Player(link)  # the host's own seat plays at once
    await link.start()
    host.add_bot(1, "random")
    host.add_bot(2, "random")
    raw = await Raw.join(relay, host.code, name="Wes", watch=True)
    try:
        await raw.recv("welcome")
        assert raw.channel is not None
        key = resume.seat_key(raw.channel.secret, host.room, None)
        host.start()
        await raw.recv("sync")
        updates = 0
        for _ in range(40):
            proof = resume.Resumption(host.room, key)
            await raw.send_clear("rejoin", **proof.fields())
            async with asyncio.timeout(TIMEOUT):
                while (frame := decode(await raw.ws.recv()))["t"] != "resumed":
                    updates += frame["t"] == "sealed"  # old-channel frames: the game moves on
                raw.channel = proof.finish(frame["epub"], frame["proof"])
                await raw.send("hello", name="Wes", watch=True)
                while (frame := decode(await raw.ws.recv()))["t"] != "sealed":
                    pass
            first = raw.channel.open(frame["n"], frame["data"])
            assert first["t"] == "welcome", first["t"]
        assert updates >= 20  # the table was busy throughout
    finally:
        await raw.ws.close()
        await host.close()
