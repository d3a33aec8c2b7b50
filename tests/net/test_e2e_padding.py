"""Padding inside the seal: a frame's length must not tell the relay what it holds.

Every sealed payload is padded to one of a few sizes (net.wire.channel BUCKETS). A relay that
records every frame of a Zwergenamulett game sees one length for every move a peer made,
whichever card it played, and only bucket lengths for the views it carries to players holding
different hands. A payload padded otherwise is refused, and padding never takes a frame over
the relay's limits.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import msgpack
import pytest
from netsupport import TIMEOUT, Raw
from test_e2e_channel import headless_table, my_turn
from test_e2e_relay_blind import RecordingRelay
from test_zwerg_net import ZwergPlayer

from engines.zwergenamulett.rules import CARD_IDS
from net.host.authority import NetHost
from net.host.link import HostLink
from net.peer.remote import RemoteLink
from net.relay.server import Limits, Relay
from net.wire import channel
from net.wire.channel import (
    BUCKETS,
    CRYPTO,
    LENGTH_BYTES,
    TAG_BYTES,
    TO_HOST,
    TO_PEER,
    Channel,
    pad,
    unpad,
)
from net.wire.frames import MAX_FRAME, ProtocolError, unpack

UP, DOWN = BUCKETS[TO_HOST], BUCKETS[TO_PEER]
SEALED_UP, SEALED_DOWN = ({bucket + TAG_BYTES for bucket in b} for b in (UP, DOWN))


def pair() -> tuple[Channel, Channel]:
    peer, host = CRYPTO.peer_exchange("K7QX9MPA", "B3CD"), CRYPTO.host_exchange("K7QX9MPA", "B3CD")
    return peer.finish(host.message), host.finish(peer.message)


def test_every_payload_is_sealed_at_a_bucket_size_and_comes_back_whole() -> None:
    """The smallest bucket that holds the body and its length; over the largest, as it is.
    The host has one bucket more than a peer, whose frames the relay takes up to 64 KiB."""
    assert UP == (512, 2048, 8192, 32768, 61440) and (*UP, 131072) == DOWN
    for buckets in (UP, DOWN):
        edges = {b - LENGTH_BYTES + d for b in buckets for d in (-1, 0, 1)}
        for size in sorted(edges | {0, 1, 30, 57, 100}):
            body = bytes([7]) * size
            plain = pad(body, buckets)
            want = next((b for b in buckets if b >= size + LENGTH_BYTES), size + LENGTH_BYTES)
            assert len(plain) == want and unpad(plain, buckets) == body
    # Only the host pads to its own largest bucket: from a peer, that is no padding.
    with pytest.raises(ProtocolError):
        unpad(pad(bytes(70000), DOWN), UP)
    peer, host = pair()
    for payload in ({"t": "move", "seat": 0, "state_no": 3, "move": {"type": "play",
                                                                      "card": "drache"}},
                    {"t": "chat", "text": "ü" * 100}, {"t": "sync"},
                    {"t": "echo", "data": bytes(5000)}, {"t": "echo", "data": bytes(70000)}):
        body = msgpack.packb(payload, use_bin_type=True)
        for sender, receiver, buckets in ((peer, host, UP), (host, peer, DOWN)):
            n, data = sender.seal(payload)
            assert len(data) == len(pad(body, buckets)) + TAG_BYTES
            assert receiver.open(n, data) == payload
        # 70000 bytes: beyond a peer's buckets (as it is), in the host's largest.
        assert len(data) in SEALED_DOWN


BAD_PADDING: dict[str, Callable[[bytes, tuple[int, ...]], bytes]] = {
    "none (plain msgpack)": lambda body, buckets: body,
    "a byte in the padding": lambda body, buckets: pad(body, buckets)[:-1] + b"\x01",
    "one bucket too many": lambda body, buckets: pad(body, buckets) + bytes(1536),
    "cut short of its bucket": lambda body, buckets: pad(body, buckets)[:-1],
    "a length past the end": lambda body, buckets: (512).to_bytes(LENGTH_BYTES, "big") + pad(
        body, buckets)[LENGTH_BYTES:],
    "nothing at all": lambda body, buckets: b"",
}


def test_a_badly_padded_payload_is_refused_and_uses_up_its_counter(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The tag checks, so the sender (not the relay) padded it wrongly: like a payload that is
    no map, it is refused as malformed and its counter is used up; the next one opens."""
    peer, host = pair()
    for case, padding in BAD_PADDING.items():
        monkeypatch.setattr(channel, "pad", padding)
        bad = peer.seal({"t": "chat", "text": "hi"})
        monkeypatch.undo()
        with pytest.raises(ProtocolError) as refused:
            host.open(*bad)
        assert refused.value.code == "malformed" and "padded" in refused.value.message, case
        assert host.expected == bad[0] + 1
        assert host.open(*peer.seal({"t": "chat", "text": case})) == {"t": "chat", "text": case}


async def test_a_badly_padded_move_over_the_relay_is_refused_and_changes_nothing(
    relay: Relay, monkeypatch: pytest.MonkeyPatch,
) -> None:
    host, raw, watcher = await headless_table(relay)
    try:
        host.start()
        table = await my_turn(raw)
        state = host.session.state_no
        views = host.session.sync(0), host.session.sync(None)
        move = {"seat": 0, "state_no": state, "move": table["legal"][0]}
        for padding in BAD_PADDING.values():
            monkeypatch.setattr(channel, "pad", padding)
            await raw.send("move", **move)
            monkeypatch.undo()
            error = await raw.error()
            assert error["code"] == "malformed" and error["seq"] == raw.seq
            assert "padded" in error["message"]
            assert host.session.state_no == state
            assert (host.session.sync(0), host.session.sync(None)) == views
        await raw.send("move", **move)  # padded right, it goes through
        await watcher.wait_for(lambda m: m["type"] == "update" and m["state_no"] == state + 1)
    finally:
        await raw.ws.close()
        await watcher.link.close()
        await host.close()


async def test_the_largest_bucket_and_beyond_fit_the_relays_limits(relay: Relay) -> None:
    """An echo padded to a peer's largest bucket goes to the host under the relay's 64 KiB for
    a peer's frame, and back in the host's largest; one a little larger goes from the peer as it
    is (unpadded) and comes back padded. A frame over the limit is refused as before."""
    host = NetHost("schoene", 3, relay_url=relay.url, bot_delay=0, keep_record=False)
    code = await host.open()
    raw = await Raw.join(relay, code, name="Mal")
    try:
        await raw.recv("welcome")
        top = UP[-1]
        overhead = len(msgpack.packb({"t": "echo", "data": bytes(1000)})) - 1000
        for size in (top - LENGTH_BYTES - overhead, top - LENGTH_BYTES - overhead + 100):
            payload = {"t": "echo", "data": bytes(size)}
            plain = len(pad(msgpack.packb(payload), UP))
            assert plain == top if size + overhead + LENGTH_BYTES == top else plain > top
            frame = await sent_frame(raw, payload)
            assert len(frame) <= MAX_FRAME
            back = len(pad(msgpack.packb(payload), DOWN)) + TAG_BYTES
            assert await received(raw, "echo") == (payload, back)
        too_big = bytes(MAX_FRAME)
        await raw.send("echo", data=too_big)
        assert (await raw.error())["code"] == "too_big"
    finally:
        await raw.ws.close()
        await host.close()


async def sent_frame(raw: Raw, payload: dict[str, Any]) -> bytes:
    """Seal and send `payload` as `Raw.send_payload` does; the frame's bytes as sent."""
    sent: list[bytes] = []
    send = raw.ws.send

    async def keep(data: Any) -> None:
        sent.append(data)
        await send(data)

    raw.ws.send = keep  # type: ignore[method-assign]
    try:
        await raw.send_payload(payload)
    finally:
        raw.ws.send = send  # type: ignore[method-assign]
    return sent[0]


async def received(raw: Raw, t: str) -> tuple[dict[str, Any], int]:
    """The next sealed payload of type `t` the host sends `raw`, and its sealed length."""
    assert raw.channel is not None
    async with asyncio.timeout(TIMEOUT):
        while True:
            frame = unpack(await raw.ws.recv())
            if frame["t"] == "sealed":
                payload = raw.channel.open(frame["n"], frame["data"])
                if payload["t"] == t:
                    return payload, len(frame["data"])


class Sealed:
    """What a channel sealed, by counter: each payload's type (and card, for a move)."""

    def __init__(self, sealing: Channel) -> None:
        self.kinds: dict[int, tuple[str, str | None]] = {}
        seal = sealing.seal

        def keep(payload: dict[str, Any]) -> tuple[int, bytes]:
            n, data = seal(payload)
            move = payload.get("move") or {}
            self.kinds[n] = payload["t"], move.get("card") or move.get("type")
            return n, data

        sealing.seal = keep  # type: ignore[method-assign]

    def played(self) -> set[str]:
        return {str(what) for t, what in self.kinds.values() if t == "move"}


def carried(relay: RecordingRelay) -> tuple[dict[int, dict[int, int]], dict[int, dict[int, int]]]:
    """Per connection id, the length of the sealed data of every frame the relay forwarded
    from it to the host (`from`), and of every one the host sent to it (`send`), by counter."""
    up: dict[int, dict[int, int]] = {}
    down: dict[int, dict[int, int]] = {}
    for raw in relay.messages():
        try:
            frame = unpack(raw)
        except ProtocolError:
            continue
        if frame.get("t") == "from":
            inner = unpack(frame["data"])
            if inner.get("t") == "sealed":
                up.setdefault(frame["cid"], {})[inner["n"]] = len(inner["data"])
        elif frame.get("t") == "send":
            for item in frame["items"]:
                inner = unpack(item["data"])
                if inner.get("t") == "sealed":
                    for cid in item["to"]:
                        down.setdefault(cid, {})[inner["n"]] = len(inner["data"])
    return up, down


class Lengths:
    """Sealed lengths the relay carried in Zwergenamulett games: Pia's moves (and the card or
    call each made), the updates each peer was sent, everything else each way."""

    def __init__(self) -> None:
        self.moves: list[int] = []
        self.played: set[str] = set()
        self.updates: dict[str, list[int]] = {"Pia": [], "Per": []}
        self.up: list[int] = []
        self.down: list[int] = []


async def test_a_relay_cannot_tell_the_card_a_move_played_from_its_length() -> None:
    """Zwergenamulett: two peers play random cards until one of them has played every kind
    (in one game or more, each on a fresh recording relay). All of that peer's moves,
    whichever card, are one length, a bucket's; the updates the host sent both peers (holding
    different hands) and everything else sealed come in bucket lengths only. Unpadded, a
    move's length named the card for five of the nine kinds."""
    seen = Lengths()
    for seed in range(1, 6):
        relay = RecordingRelay(Limits(sweep_every=0.5))
        await relay.start()
        try:
            await play_zwerg(relay, seed, seen)
        finally:
            await relay.stop()
        if seen.played >= set(CARD_IDS):
            break
    assert seen.played >= set(CARD_IDS), sorted(set(CARD_IDS) - seen.played)
    assert len(set(seen.moves)) == 1 and seen.moves[0] in SEALED_UP, sorted(set(seen.moves))
    for name, lengths in seen.updates.items():
        assert len(lengths) > 20 and set(lengths) <= SEALED_DOWN, (name, sorted(set(lengths)))
    assert set(seen.up) <= SEALED_UP, sorted(set(seen.up))
    # A sync late in a long game may be over the largest bucket: it goes as it is.
    assert all(n in SEALED_DOWN or n > DOWN[-1] + TAG_BYTES for n in seen.down), \
        sorted(set(seen.down))


async def play_zwerg(relay: RecordingRelay, seed: int, seen: Lengths) -> None:
    """One game (until its end, or until Pia has played every card kind): the host's own
    seat, Pia and Per over the relay, a bot; what the relay carried goes to `seen`."""
    host = NetHost("zwergenamulett", 4, relay_url=relay.url, host_name="Hana", bot_delay=0,
                   seed=seed, keep_record=False)
    code = await host.open()
    host.add_bot(3, "random")
    me = ZwergPlayer(HostLink(host), seed=seed)
    await me.link.start()
    peers = [ZwergPlayer(RemoteLink(code, name, server=relay.url, remember=False),
                         seed=seed * 10 + i) for i, name in enumerate(seen.updates)]
    for peer in peers:
        await peer.link.connect()
    links = [peer.link for peer in peers]
    assert all(isinstance(link, RemoteLink) and link.pipe and link.pipe.channel
               for link in links)
    pia = Sealed(links[0].pipe.channel)  # type: ignore[union-attr]
    cids = {peer.name: peer.cid for peer in host.peers.values()}
    sent = {name: Sealed(host.uplink.channels[cid]) for name, cid in cids.items()}
    try:
        host.start()
        async with asyncio.timeout(TIMEOUT * 3):  # the whole game, or until Pia played all
            while not (seen.played | pia.played() >= set(CARD_IDS) or peers[0].done.is_set()):
                await asyncio.sleep(0.05)
    finally:
        await asyncio.gather(*(link.close() for link in links))
        await host.close()
    up, down = carried(relay)
    for name, cid in cids.items():
        for n, length in down[cid].items():
            kind = sent[name].kinds.get(n, ("before the game", None))[0]
            (seen.updates[name] if kind == "update" else seen.down).append(length)
        for n, length in up[cid].items():
            kind, what = (pia.kinds if name == "Pia" else {}).get(n, ("other", None))
            if kind == "move":
                seen.moves.append(length)
                seen.played.add(str(what))
            else:
                seen.up.append(length)
