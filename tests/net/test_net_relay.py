"""The relay and the host under bad input: every bad frame gets a readable error frame, the
game does not change, and a parallel room keeps playing."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import msgpack
import pytest
from netsupport import ME, TIMEOUT, Player, Raw
from test_net_game import finish, open_table
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from net.peer.remote import JoinError, RemoteLink
from net.relay.server import Limits, Relay
from net.wire.frames import VERSION, encode


async def test_bad_frames_get_error_frames_and_change_nothing(relay: Relay) -> None:
    host, me, (pia,) = await open_table(relay, seed=21, names=("Pia",))
    mal = await Raw.join(relay, host.code, watch=False)
    try:
        welcome = await mal.recv("welcome")
        seat = welcome["seat"]
        assert seat == 2
        me.play = pia.play = False  # only Mal acts: any state change would be Mal's doing
        host.start()
        before = host.session.state_no
        # In the clear, to the relay: the envelope.
        cases: list[tuple[Any, str]] = [
            (b"\xc1garbage", "malformed"),
            ("a text frame", "malformed"),
            (b"\x81\x01\x02", "malformed"),  # int map key
            (msgpack.packb([1, 2]), "malformed"),
            (msgpack.packb({"v": VERSION, "t": "teleport", "seq": 100}), "unknown_type"),
            (msgpack.packb({"v": VERSION, "t": "open", "seq": 101, "code": None,
                            "host_token": None}), "unknown_type"),
            (msgpack.packb({"v": VERSION, "t": "move", "seq": 102, "seat": 2,
                            "state_no": 0, "move": {}}), "unknown_type"),  # only sealed
            (msgpack.packb({"v": VERSION, "t": "sealed", "seq": 103, "n": "1",
                            "data": b""}), "bad_field"),
            (msgpack.packb({"v": 99, "t": "sync", "seq": 104}), "version"),
            (b"\x80" + b"x" * 70_000, "too_big"),
        ]
        for data, code in cases:
            await mal.ws.send(data)
            error = await mal.error()
            assert error["code"] == code, (data[:20], error)
            assert error["message"]
        # Sealed, to the host: the payload.
        mal.seq = 150
        payloads: list[tuple[dict[str, Any], str]] = [
            ({"t": "move", "seat": "2", "state_no": 0, "move": {}}, "bad_field"),
            ({"t": "chat", "text": True}, "bad_field"),
            ({"t": "teleport"}, "unknown_type"),
            ({"t": "hello", "name": "Mal", "watch": False}, "bad_order"),
            ({"t": "move", "seat": 2, "state_no": 0,
              "move": {"type": "take", "when": msgpack.Timestamp(1, 0)}}, "bad_move"),
        ]
        for payload, code in payloads:
            await mal.send_payload(payload)
            error = await mal.error()
            assert error["code"] == code and error["seq"] == mal.seq, (payload, error)
        await mal.send("sync", seq=170)
        await mal.recv("sync")
        await mal.send("sync", seq=170)
        assert (await mal.error())["code"] == "replayed"
        mal.channel.sent -= 1  # the relay dropped that one: its counter goes out again
        mal.seq = 200
        view = host.session.sync(seat)
        await mal.send("move", seat=1, state_no=view["state_no"], move={"type": "take"})
        assert (await mal.error())["code"] == "forged_seat"
        if seat not in view["view"]["to_act"]:
            await mal.send("move", seat=seat, state_no=view["state_no"], move={"type": "take"})
            assert (await mal.error())["code"] == "not_your_turn"
        await mal.send("move", seat=seat, state_no=view["state_no"] - 1, move={"type": "pay"})
        error = await mal.error()
        assert error["code"] == "stale"
        sync = await mal.recv("sync")  # refused with a fresh sync, never silently dropped
        assert sync["seat"] == seat and sync["state_no"] == host.session.state_no
        assert host.session.state_no == before
    finally:
        await mal.ws.close()
        await pia.link.close()
        await host.close()


async def test_floods_and_garbage_do_not_disturb_another_room() -> None:
    relay = Relay(Limits(rate=20, burst=20, flood_close=100))
    await relay.start()
    try:
        host, me, peers = await open_table(relay, seed=31)
        victim, *_ = await open_table(relay, seed=32, names=("Vex", "Val"))
        attackers = [await Raw.join(relay, victim.code, name=f"A{i}", watch=True)
                     for i in range(3)]
        for attacker in attackers:
            await attacker.recv("welcome")

        async def flood(raw: Raw) -> list[str]:
            codes: list[str] = []

            async def read() -> None:
                async for data in raw.ws:
                    frame = msgpack.unpackb(data, raw=False)
                    if frame["t"] == "error":
                        codes.append(frame["code"])

            reader = asyncio.get_running_loop().create_task(read())
            with contextlib.suppress(ConnectionClosed):
                for _ in range(400):
                    await raw.send("chat", text="spam")
                    await raw.ws.send(b"\xc1" * 100)
            with contextlib.suppress(ConnectionClosed):
                async with asyncio.timeout(TIMEOUT):
                    await reader
            return codes

        host.start()
        results = await asyncio.gather(finish(me, *peers), *(flood(a) for a in attackers))
        for codes in results[1:]:
            assert "rate_limit" in codes and codes[-1] == "flood"
        assert host.session.over and all(p.result["verified"] for p in peers)
        # The flooded room still works too.
        assert victim.session is None
        victim.start()
        assert victim.session is not None
        await victim.close()
        await host.close()
        for peer in peers:
            await peer.link.close()
    finally:
        await relay.stop()


async def test_a_full_room_refuses_more_connections() -> None:
    relay = Relay(Limits(spectators=0))
    await relay.start()
    try:
        host, _me, peers = await open_table(relay, seed=1)
        with pytest.raises(JoinError) as refused:
            await RemoteLink(host.code, "Late", server=relay.url, watch=True).connect()
        assert refused.value.code == "room_full" and "spectators" in refused.value.message
        for peer in peers:
            await peer.link.close()
        await host.close()
    finally:
        await relay.stop()


async def test_a_wrong_code_is_refused_clearly_and_guessing_is_slowed_down() -> None:
    relay = Relay(Limits(wrong_code_free=3, wrong_code_delay=0.01, wrong_code_max_delay=0.1))
    await relay.start()
    try:
        delays = []
        for _ in range(6):
            with pytest.raises(JoinError) as refused:
                await RemoteLink("K7QX-9MPA-B3CD", "Eve", server=relay.url).connect()
            assert refused.value.code == "no_room"
            assert "K7QX-9MPA" in refused.value.message and "wrong" in refused.value.message
            raw = await Raw.join(relay, "ZZZZ-ZZZZ")
            error = await raw.error()
            delays.append(error["retry_after"])
        assert delays[0] == 0 and delays[-1] >= delays[2] > delays[1]
        assert relay.guard.delay(ME) > 0
    finally:
        await relay.stop()


async def test_a_client_of_another_version_is_told_at_hello(relay: Relay) -> None:
    async with connect(relay.url) as ws:
        await ws.send(msgpack.packb({"v": VERSION + 1, "t": "join", "seq": 1, "code": "x",
                                     "pake": b"", "watch": False}))
        frame = msgpack.unpackb(await ws.recv(), raw=False)
        assert frame["t"] == "error" and frame["code"] == "version" and frame["fatal"]
        assert "update tabletop-tui" in frame["message"]


async def test_a_room_code_belongs_to_its_host(relay: Relay) -> None:
    host, _me, _peers = await open_table(relay, seed=1, names=())
    try:
        async with connect(relay.url) as ws:
            await ws.send(encode("open", seq=1, code=host.room, host_token="guess"))
            frame = msgpack.unpackb(await ws.recv(), raw=False)
            assert frame["code"] == "code_taken"
    finally:
        await host.close()


async def test_a_spectator_sees_the_public_view_and_cannot_move(relay: Relay) -> None:
    host, me, peers = await open_table(relay, seed=40)
    watcher = Player(RemoteLink(host.code, "Vic", server=relay.url, watch=True), play=False)
    await watcher.link.connect()
    try:
        assert watcher.link.seats == [] and watcher.link.seat is None
        host.start()
        await finish(me, *peers, watcher)
        first = watcher.of("sync")[0]
        assert first["seat"] is None and first["legal"] == []
        await watcher.link.send_move(0, {"type": "take"}, first["state_no"])
        error = await watcher.wait_for(lambda m: m["type"] == "error")
        assert error["code"] in ("spectator", "over")
        assert watcher.result is not None and watcher.result["verified"]
    finally:
        for p in [*peers, watcher]:
            await p.link.close()
        await host.close()
