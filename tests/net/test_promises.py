"""The promises the README makes, held against attackers over real sockets on 127.0.0.1:
a relay run by a stranger gets no guess at a join code from a peer that has joined (every
return is a resumption), wrong codes slow a room down but never shut it, a ticket seen on the
wire lets nobody past a full room, and a damaged frame costs a re-key, not the game."""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import pytest
from netsupport import ME, TIMEOUT, Places
from test_net_game import finish, open_table

from net.host.authority import NetHost
from net.peer import joining
from net.peer.remote import JoinError, RemoteLink
from net.relay.conns import Conn
from net.relay.limits import Limits, guessing
from net.relay.server import Relay
from net.wire import resume
from net.wire.frames import Frame, decode, encode


class Watching(Relay):
    """An honest relay that keeps every frame each peer sent it (after its first) and can
    turn hostile: swallow one connection's frames instead of passing them to the host, and
    say to it whatever it likes."""

    def __init__(self, limits: Limits | None = None) -> None:
        super().__init__(limits)
        self.sent: dict[int, list[Frame]] = {}
        self.firsts: list[Frame] = []
        self.swallowed: set[int] = set()
        self.damaging: dict[int, int] = {}  # cid -> how many of its next sealed frames to damage

    def accept(self, conn: Conn, raw: bytes | str, table: dict[str, Any], max_frame: int) -> Frame:
        frame = super().accept(conn, raw, table, max_frame)
        self.sent.setdefault(conn.cid, []).append(frame)
        return frame

    def tell(self, conn: Conn, t: str, **fields: Any) -> None:
        if t == "from" and fields.get("cid") in self.swallowed:
            return  # a hijacked connection: the host never hears it
        if t == "from" and isinstance(fields.get("data"), bytes):
            frame = decode(fields["data"])
            if frame["t"] in ("join", "resume"):
                self.firsts.append(frame)
            if frame["t"] == "sealed" and self.damaging.get(fields["cid"]):
                self.damaging[fields["cid"]] -= 1
                fields["data"] = fields["data"][:-1] + bytes([fields["data"][-1] ^ 1])
        super().tell(conn, t, **fields)

    def member(self, room: str, cid: int) -> Conn:
        found = self.rooms.get(room)
        assert found is not None
        return found.members[cid]


@pytest.fixture
async def watching() -> Any:
    relay = Watching()
    await relay.start()
    yield relay
    await relay.stop()


def cid_of(host: NetHost, seat: int) -> int:
    cid = host.seats[seat].cid
    assert cid is not None
    return cid


def pakes(relay: Watching, cid: int) -> int:
    """Code-keyed exchanges connection `cid` began after its first frame."""
    return sum(1 for f in relay.sent.get(cid, []) if "pake" in f)


async def until(check: Any, what: str) -> None:
    async with asyncio.timeout(TIMEOUT):
        while not check():
            await asyncio.sleep(0.01)
    assert check(), what


# -- 1. a relay learns nothing, and gets no guess --------------------------------------------------
async def test_a_hostile_relay_gets_no_guess_from_a_peer_that_has_joined(
    watching: Watching,
) -> None:
    """The relay fakes the host's return again and again and answers the peer itself: the
    peer proves its resumption key each time (no code involved), refuses the relay's answer,
    and stops with a plain sentence; it never runs an exchange keyed by the code again."""
    host, _me, (pia, _per) = await open_table(watching, seed=4)
    try:
        host.start()
        await pia.wait_for(lambda m: m["type"] == "sync")
        cid = cid_of(host, 1)
        conn = watching.member(host.room, cid)
        watching.swallowed.add(cid)
        for _ in range(5):
            before = len(watching.sent.get(cid, []))
            watching.push([conn], encode("host_back"))
            await until(lambda before=before: len(watching.sent.get(cid, [])) > before,
                        "the peer's answer to the relay's host_back")
            if pia.link.closed.is_set():
                break
            watching.push([conn], encode("resumed", epub=secrets.token_bytes(32),
                                         proof=secrets.token_bytes(32)))
            await asyncio.sleep(0.05)
        await until(pia.link.closed.is_set, "the peer giving up on the relay")
        assert pakes(watching, cid) == 0
        assert all(f["t"] in ("rejoin", "sealed") for f in watching.sent[cid])
        assert "could not prove" in pia.link.close_reason
        assert "relay" in pia.link.close_reason
    finally:
        await pia.link.close()
        await host.close()


async def test_a_dropped_peer_comes_back_by_resumption_never_by_the_code(
    watching: Watching,
) -> None:
    host, me, (pia, per) = await open_table(watching, seed=4)
    try:
        host.start()
        await pia.wait_for(lambda m: m["type"] == "sync")
        joins = [f["t"] for f in watching.firsts]
        assert joins == ["join", "join"]  # each player typed the code once
        await watching.member(host.room, cid_of(host, 1)).ws.close()  # the relay drops her
        await pia.wait_for(lambda m: m["type"] == "connection" and m["state"] == "connected")
        assert [f["t"] for f in watching.firsts] == ["join", "join", "resume"]
        assert "pake" not in watching.firsts[-1]
        await finish(me, pia, per)  # and the game goes on to its end
    finally:
        await asyncio.gather(pia.link.close(), per.link.close())
        await host.close()


async def test_a_peer_whose_resumption_the_host_cannot_prove_is_told_plainly(
    watching: Watching,
) -> None:
    """A host that started afresh (its record lost) does not know the peer's key: the peer
    hears that the table does not know it, and its connection gives up without the code."""
    host, _me, (pia, _per) = await open_table(watching, seed=4)
    try:
        host.start()
        await pia.wait_for(lambda m: m["type"] == "sync")
        host.seats[1].keys = []  # as a host that lost its record would know nothing
        await watching.member(host.room, cid_of(host, 1)).ws.close()
        await until(pia.link.closed.is_set, "the peer giving up")
        assert "does not know you" in pia.link.close_reason
        assert [f["t"] for f in watching.firsts][-1] == "resume"
        assert sum(f["t"] == "join" for f in watching.firsts) == 2  # no code-keyed retry
    finally:
        await pia.link.close()
        await host.close()


# -- 3. wrong codes slow a room down, never shut it ---------------------------------------------
async def test_25_wrong_codes_leave_the_room_open_to_the_right_one_and_to_seat_owners(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """25 wrong secrets from elsewhere (the relay does not slow these: as if from 25 places):
    the room then asks newcomers to wait, twice as long after each wrong code past 20, but
    a seat owner comes back at once by resumption (no guess counted), and a new player with
    the right code gets in once the wait is over."""
    relay = Relay(Limits(wrong_code_free=1000))
    places = Places.on(relay)
    await relay.start()
    clock = [1000.0]
    host, _me, (pia, per) = await open_table(relay, seed=4)
    host.keys.now = lambda: clock[0]
    wrong = host.room + ("0000" if host.keys.secret != "0000" else "1111")
    try:
        host.start()
        await pia.wait_for(lambda m: m["type"] == "sync")
        for n in range(25):
            places.at = f"203.0.113.{n}"
            with pytest.raises(JoinError) as failed:
                await RemoteLink(wrong, "Eve", server=relay.url, remember=False).connect()
            assert failed.value.code in ("wrong_code", "slow_down")
            clock[0] += 40.0  # each guess after the wait the one before began
        assert host.keys.wrong_tries == 25
        clock[0] -= 40.0
        assert host.keys.slowed() == pytest.approx(32.0)  # 2**5 s after the 25th
        # The owner of seat 1 drops and is back at once: a resumption is no guess.
        await relay.rooms.get(host.room).members[cid_of(host, 1)].ws.close()  # type: ignore[union-attr]
        await pia.wait_for(lambda m: m["type"] == "connection" and m["state"] == "connected")
        assert host.seats[1].cid is not None and host.keys.wrong_tries == 25
        # A newcomer with the right code is asked to wait (told how long), then gets in.
        places.at = "127.0.0.1"
        monkeypatch.setattr(joining, "SLOW_WAIT", 1.0)  # no waiting it out by itself here
        with pytest.raises(JoinError) as waiting:
            await RemoteLink(host.code, "Vic", server=relay.url, watch=True,
                             remember=False).connect()
        assert waiting.value.code == "slow_down" and waiting.value.retry_after == 32.0
        assert "try again in 32 s" in waiting.value.message
        clock[0] += 33.0
        vic = RemoteLink(host.code, "Vic", server=relay.url, watch=True, remember=False)
        await vic.connect()
        assert vic.seat is None and host.keys.wrong_tries == 25
        await vic.close()
    finally:
        await asyncio.gather(pia.link.close(), per.link.close())
        await host.close()
        await relay.stop()


async def test_an_address_guessing_a_rooms_secret_is_slowed_and_nobody_else() -> None:
    relay = Relay(Limits(wrong_code_free=2, wrong_code_delay=1.0, wrong_code_max_delay=1.0))
    await relay.start()
    host, _me, _peers = await open_table(relay, seed=4, names=())
    other = NetHost("schoene", 3, relay_url=relay.url, host_name="Olga", keep_record=False)
    await other.open()
    wrong = host.room + ("0000" if host.keys.secret != "0000" else "1111")
    try:
        for _ in range(3):
            with pytest.raises(JoinError):
                await RemoteLink(wrong, "Eve", server=relay.url, remember=False).connect()
        assert relay.secret_guard.penalty(guessing(ME, host.room)) == 1.0
        elsewhere = "127.0.0.9" + ME.removeprefix("127.0.0.1")  # 127/8, the same user: one
        assert relay.secret_guard.penalty(guessing(elsewhere, host.room)) == 1.0
        assert relay.secret_guard.penalty(guessing(ME, other.room)) == 0.0
        async with asyncio.timeout(0.8):  # another room of the same machine: no wait at all
            vic = RemoteLink(other.code, "Vic", server=relay.url, watch=True, remember=False)
            await vic.connect()
        await vic.close()
    finally:
        await other.close()
        await host.close()
        await relay.stop()


# -- 5. caps hold for everyone; only a proven owner goes past a full room ------------------------
async def test_ids_seen_on_the_wire_let_nobody_past_a_full_room() -> None:
    relay = Watching(Limits(players=2))
    await relay.start()
    host, _me, (pia, _per) = await open_table(relay, seed=4)
    try:
        host.start()
        await pia.wait_for(lambda m: m["type"] == "sync")
        room = relay.rooms.get(host.room)
        assert room is not None
        vouched = sorted(room.seat_ids)
        assert len(vouched) == 2  # a ticket hash per seated person, nothing usable
        relay.limits.players = 0
        for seen in vouched:
            for first in ("join", "resume"):
                fields: dict[str, Any] = (
                    {"pake": b"x" * 33, "seat_id": seen, "nonce": "n"} if first == "join"
                    else {"ticket": seen, "rid": "x", "nonce": bytes(16), "epub": bytes(32)})
                frame = await raw_first(relay, first, code=host.room, watch=False, **fields)
                assert frame["code"] == "room_full", frame
        # Pia's own ticket (the one her link holds) gets her past the full room, once.
        ticket = pia.link.ticket
        assert ticket is not None and resume.ticket_id(ticket) in room.seat_ids
        await relay.member(host.room, cid_of(host, 1)).ws.close()
        await pia.wait_for(lambda m: m["type"] == "connection" and m["state"] == "connected")
        assert resume.ticket_id(ticket) not in room.seat_ids  # spent
        again = await raw_first(relay, "resume", code=host.room, watch=False, ticket=ticket,
                                rid="x", nonce=bytes(16), epub=bytes(32))
        assert again["code"] == "room_full"
    finally:
        await pia.link.close()
        await host.close()
        await relay.stop()


async def raw_first(relay: Relay, t: str, **fields: Any) -> dict[str, Any]:
    """Send one first frame on a fresh connection; the relay's (or host's) clear answer."""
    from websockets.asyncio.client import connect

    async with connect(relay.url) as ws:
        await ws.send(encode(t, seq=1, **fields))
        async with asyncio.timeout(TIMEOUT):
            frame = decode(await ws.recv())
    return frame


# -- 6. a damaged frame costs a re-key, not the game --------------------------------------------
async def test_damaged_frames_both_ways_renew_the_keys_and_the_game_goes_on(
    watching: Watching,
) -> None:
    host, me, (pia, per) = await open_table(watching, seed=4)
    try:
        host.start()
        await pia.wait_for(lambda m: m["type"] == "sync")
        cid = cid_of(host, 1)
        watching.damaging[cid] = 1  # Pia's next frame reaches the host damaged
        conn = watching.member(host.room, cid)
        original = watching.push

        def damage_once(targets: Any, data: bytes) -> None:
            targets = list(targets)
            if conn in targets and decode(data)["t"] == "sealed" and not done:
                done.append(True)
                data = data[:-1] + bytes([data[-1] ^ 1])
            original(targets, data)

        done: list[bool] = []
        watching.push = damage_once  # type: ignore[method-assign]
        await finish(me, pia, per)
        assert done and watching.damaging[cid] == 0
        renewals = [m for m in pia.messages if m["type"] == "notice" and "renewing" in m["text"]]
        assert renewals  # she renewed her keys at least once, and played on
        assert pia.result is not None and pia.result["scores"] == host.session.result()["scores"]
        assert sum(f["t"] == "join" for f in watching.firsts) == 2 and pakes(watching, cid) == 0
    finally:
        await asyncio.gather(pia.link.close(), per.link.close())
        await host.close()
