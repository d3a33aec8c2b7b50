"""End-to-end encryption, seen from host and peer: what the relay might do to sealed frames
(tamper, replay, reorder) is refused in both directions and changes nothing; a wrong code
fails the exchange with a clear message and takes no seat; old clients are told to update."""

from __future__ import annotations

import asyncio
from typing import Any

import msgpack
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from netsupport import TIMEOUT, Player, Raw
from test_net_cli import outcome, spawn
from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve

from net.host import keys
from net.host.authority import NetHost
from net.peer.remote import JoinError, RemoteLink
from net.records import store
from net.relay.server import Relay
from net.wire import codes
from net.wire.channel import CRYPTO, WRONG_CODE, Refused
from net.wire.frames import VERSION, ProtocolError, decode, encode
from net.wire.pake import SIDE_B, Spake2


def flip(data: bytes) -> bytes:
    return data[:-1] + bytes([data[-1] ^ 1])


async def test_exchange_gives_both_sides_the_same_keys_and_a_wrong_code_other_ones() -> None:
    peer, host = CRYPTO.peer_exchange("K7QX9MPA", "B3CD"), CRYPTO.host_exchange("K7QX9MPA", "B3CD")
    mine, theirs = peer.finish(host.message), host.finish(peer.message)
    n, data = mine.seal({"t": "chat", "text": "hi"})
    assert n == 0 and theirs.open(n, data) == {"t": "chat", "text": "hi"}
    assert mine.open(*theirs.seal({"t": "echo", "data": 1})) == {"t": "echo", "data": 1}
    # The two directions use different keys: a frame does not come back as its own answer.
    n, data = mine.seal({"t": "sync"})
    with pytest.raises(Refused) as bounced:
        mine.open(n, data)
    assert bounced.value.code in ("tampered", "reordered")
    wrong = CRYPTO.host_exchange("K7QX9MPA", "B3CE")
    other = CRYPTO.peer_exchange("K7QX9MPA", "B3CD")
    stranger = wrong.finish(other.message)
    with pytest.raises(Refused) as refused:
        stranger.open(*other.finish(wrong.message).seal({"t": "hello"}))
    assert refused.value.code == "tampered"


def test_a_sealed_frame_is_made_as_the_protocol_document_says() -> None:
    """docs/protocol.md's recipe, by hand: the host's side of SPAKE2 gives K, HKDF of K gives
    each direction's key, and a frame is ChaCha20-Poly1305 under the counter's nonce and the
    AAD, of the body's length, the msgpack body and zeros up to the bucket."""
    room, secret = "K7QX9MPA", "B3CD"
    peer = CRYPTO.peer_exchange(room, secret)
    host = Spake2(SIDE_B, f"tabletop-tui v{VERSION} {room}{secret}".encode(),
                  b"tabletop-tui peer", b"tabletop-tui host")
    channel = peer.finish(host.message)
    k = host.finish(peer.message)

    def key(direction: bytes) -> ChaCha20Poly1305:
        info = b"tabletop-tui v%d " % VERSION + direction
        return ChaCha20Poly1305(HKDF(hashes.SHA256(), 32, room.encode(), info).derive(k))

    def nonce_aad(direction: bytes, n: int) -> tuple[bytes, bytes]:
        aad = b"tabletop-tui v%d sealed " % VERSION + direction + b" " + n.to_bytes(8, "big")
        return n.to_bytes(12, "big"), aad

    move = {"t": "move", "seat": 1, "state_no": 9, "move": {"type": "play", "card": "fee"}}
    for n in range(2):
        sealed_n, data = channel.seal(move)
        nonce, aad = nonce_aad(b"peer to host", n)
        plain = key(b"peer to host").decrypt(nonce, data, aad)
        body = msgpack.packb(move, use_bin_type=True)
        assert sealed_n == n and len(data) == 512 + 16
        assert plain == len(body).to_bytes(4, "big") + body + bytes(512 - 4 - len(body))
    body = msgpack.packb({"t": "notice", "text": "hi"})
    plain = len(body).to_bytes(4, "big") + body + bytes(512 - 4 - len(body))
    nonce, aad = nonce_aad(b"host to peer", 0)
    assert channel.open(0, key(b"host to peer").encrypt(nonce, plain, aad)) == {
        "t": "notice", "text": "hi"}


def test_a_message_that_is_no_exchange_message_fails_it() -> None:
    """Whatever net.wire.pake refuses (tests/net/test_pake.py has every kind) fails the
    exchange as ProtocolError `bad_pake`, with no keys."""
    good = CRYPTO.host_exchange("K7QX9MPA", "B3CD").message
    for message in (good[:-1], b"A" + good[1:], b"B" + bytes(32)):
        exchange = CRYPTO.peer_exchange("K7QX9MPA", "B3CD")
        with pytest.raises(ProtocolError) as failed:
            exchange.finish(message)
        assert failed.value.code == "bad_pake"


async def headless_table(relay: Relay) -> tuple[NetHost, Raw, Player]:
    """A two-seat game: a hand-driven peer (Raw) in seat 0, a bot in seat 1, and a watcher."""
    host = NetHost("schoene", 3, relay_url=relay.url, bot_delay=0, seed=7, keep_record=False)
    code = await host.open()
    raw = await Raw.join(relay, code, name="Mal")
    await raw.recv("welcome")
    host.add_bot()
    host.add_bot()
    watcher = Player(RemoteLink(code, "Vic", server=relay.url, watch=True, remember=False),
                     play=False)
    await watcher.link.connect()
    return host, raw, watcher


async def my_turn(raw: Raw) -> dict[str, Any]:
    while True:
        table = await raw.recv()
        if table["t"] in ("sync", "update") and 0 in table["view"]["to_act"]:
            return table


async def test_tampered_replayed_and_reordered_frames_to_the_host_change_nothing(
    relay: Relay,
) -> None:
    host, raw, watcher = await headless_table(relay)
    try:
        host.start()
        table = await my_turn(raw)
        assert raw.channel is not None
        state = host.session.state_no
        move = {"t": "move", "seat": 0, "state_no": state, "move": table["legal"][0]}
        views = host.session.sync(0), host.session.sync(None)

        def unchanged() -> None:
            assert host.session.state_no == state
            assert (host.session.sync(0), host.session.sync(None)) == views

        # Tampered: a legal move whose ciphertext lost one bit.
        n, data = raw.channel.seal(move)
        await raw.send_clear("sealed", n=n, data=flip(data))
        error = await raw.error()
        assert error["code"] == "tampered" and error["seq"] == raw.seq
        unchanged()
        # Reordered: the move's counter skipped ahead (the one before never came).
        raw.channel.sent = n + 1
        ahead = raw.channel.seal(move)
        await raw.send_clear("sealed", n=ahead[0], data=ahead[1])
        assert (await raw.error())["code"] == "reordered"
        unchanged()
        # The right counter goes through (the refusals moved nothing)...
        raw.channel.sent = n
        good = raw.channel.seal(move)
        await raw.send_clear("sealed", n=good[0], data=good[1])
        await watcher.wait_for(lambda m: m["type"] == "update" and m["state_no"] == state + 1)
        # ...once: replayed with a fresh relay seq, it is refused (the bots may move on).
        mine = [m for seat, m in host.session.moves if seat == 0]
        await raw.send_clear("sealed", n=good[0], data=good[1])
        while (frame := await raw.recv())["t"] != "error":
            pass
        assert frame["code"] == "replayed"
        assert [m for seat, m in host.session.moves if seat == 0] == mine
    finally:
        await raw.ws.close()
        await watcher.link.close()
        await host.close()


async def test_a_replay_to_a_peer_changes_nothing_and_a_damaged_frame_renews_its_keys(
    relay: Relay,
) -> None:
    """A frame played again is refused and changes nothing. A damaged (or reordered) frame
    would leave the channel stuck for good, so the peer renews its keys by resumption (no
    code involved) and catches up with a fresh table; the game goes on."""
    host, raw, watcher = await headless_table(relay)
    link = watcher.link
    assert isinstance(link, RemoteLink)
    heard: list[bytes] = []
    deliver = link._frame

    def keep(data: bytes | str) -> None:
        assert isinstance(data, bytes)
        heard.append(data)
        deliver(data)

    link._frame = keep  # type: ignore[method-assign]
    try:
        await link.request_sync()
        await watcher.wait_for(lambda m: m["type"] == "lobby")
        sealed = decode(heard[-1])
        assert sealed["t"] == "sealed"
        before = (link.lobby, link.table, dict(link.seen), len(watcher.messages))
        deliver(heard[-1])  # the relay plays the last frame again
        error = watcher.messages[-1]
        assert error["type"] == "error" and error["code"] == "replayed"
        assert "refused" in error["message"]
        assert (link.lobby, link.table, dict(link.seen)) == before[:3]
        cid = max(host.peers)
        old = host.uplink.channels[cid]
        welcomes = len(watcher.of("welcome"))
        deliver(encode("sealed", n=sealed["n"] + 1, data=flip(sealed["data"])))
        await watcher.wait_for(lambda m: m["type"] == "notice" and "renewing" in m["text"])
        await until(lambda: len(watcher.of("welcome")) > welcomes, "the welcome after re-keying")
        assert host.uplink.channels[cid] is not old and cid in host.peers  # same connection
        # The channel is in step with the host again: the table goes on for the watcher.
        host.start()
        await watcher.wait_for(lambda m: m["type"] == "sync")
    finally:
        await raw.ws.close()
        await link.close()
        await host.close()


async def until(check: Any, what: str) -> None:
    async with asyncio.timeout(TIMEOUT):
        while not check():
            await asyncio.sleep(0.01)
    assert check(), what


async def test_wrong_codes_slow_the_room_down_but_never_shut_it(
    relay: Relay, monkeypatch: pytest.MonkeyPatch,
) -> None:
    """After FREE_WRONG wrong codes the room takes new code-keyed joins only after a wait
    that doubles with every further wrong one; a player with the right code still gets in
    (the client waits by itself for a short wait), and no seat is taken by a guess."""
    monkeypatch.setattr(keys, "FREE_WRONG", 2)
    host = NetHost("schoene", 3, relay_url=relay.url, host_name="Hana", bot_delay=0,
                   keep_record=False)
    code = await host.open()
    notices: list[dict[str, Any]] = []
    host.add_listener(notices.append)
    wrong = host.room + ("0000" if host.keys.secret != "0000" else "1111")
    try:
        for _ in range(3):
            with pytest.raises(JoinError) as failed:
                await RemoteLink(wrong, "Eve", server=relay.url, remember=False).connect()
            assert failed.value.code in ("wrong_code", "slow_down")
        assert failed.value.code == "wrong_code" and failed.value.message == WRONG_CODE
        assert "last four symbols" in failed.value.message
        assert host.keys.wrong_tries == 3 and not host.peers
        assert [s.empty for s in host.seats] == [False, True, True]
        assert any("wrong code" in n.get("text", "") for n in notices)
        assert host.keys.slowed() > 0  # the third wrong one started a wait
        pia = RemoteLink(code, "Pia", server=relay.url, remember=False)
        await pia.connect()  # waits out the room's short wait by itself, then gets in
        assert pia.seat == 1
        await pia.close()
    finally:
        await host.close()


async def test_a_resumed_room_keeps_its_count_of_wrong_codes(
    relay: Relay, monkeypatch: pytest.MonkeyPatch,
) -> None:
    from test_net_faults import close_all, crash
    from test_net_game import open_table

    monkeypatch.setattr(keys, "FREE_WRONG", 1)
    host, _me, (pia, per) = await open_table(relay, seed=13)
    resumed: NetHost | None = None
    try:
        host.start()
        await pia.wait_for(lambda m: m["type"] == "sync")
        wrong = host.room + ("0000" if host.keys.secret != "0000" else "1111")
        with pytest.raises(JoinError):
            await RemoteLink(wrong, "Eve", server=relay.url, remember=False).connect()
        crash(host)
        path = store.last_record()
        assert path is not None
        resumed = NetHost.resume(path, relay.url, bot_delay=0)
        assert resumed.keys.wrong_tries == 1
        await resumed.open()
        await resumed.begin_resumed()
        with pytest.raises(JoinError) as second:
            await RemoteLink(wrong, "Eve", server=relay.url, remember=False).connect()
        assert second.value.code == "wrong_code"
        # The second guess is past the room's free tries, across the restart: a wait now.
        assert resumed.keys.wrong_tries == 2 and resumed.keys.slowed() > 0
    finally:
        await close_all(resumed or host, pia, per)


async def test_the_right_code_after_a_wrong_one_gets_in(relay: Relay) -> None:
    host = NetHost("schoene", 3, relay_url=relay.url, host_name="Hana", keep_record=False)
    code = await host.open()
    try:
        with pytest.raises(JoinError):
            await RemoteLink(host.room + "ZZZZ", "Eve", server=relay.url,
                             remember=False).connect()
        pia = RemoteLink(code.lower(), "Pia", server=relay.url, remember=False)
        await pia.connect()
        assert pia.seat == 1 and host.seats[1].name == "Pia"
        await pia.close()
    finally:
        await host.close()


async def test_the_join_command_reports_a_wrong_code_in_one_line(relay: Relay) -> None:
    host = NetHost("schoene", 3, relay_url=relay.url, host_name="Hana", keep_record=False)
    await host.open()
    wrong = codes.display(host.room + ("0000" if host.keys.secret != "0000" else "1111"))
    try:
        for args in (("--bot", "random"), ()):  # headless, and with a screen
            rc, _, err = await outcome(await spawn(
                "join", wrong, *args, "--server", relay.url.removeprefix("ws://")))
            assert rc == 2 and len(err.strip().splitlines()) == 1, err
            assert f"cannot join {wrong}: {WRONG_CODE}" in err
    finally:
        await host.close()


def test_an_eight_symbol_code_is_refused_with_a_reason() -> None:
    with pytest.raises(codes.BadCode, match=r"now have 12 symbols.*older tabletop-tui"):
        RemoteLink("K7QX-9MPA", "Pia")


async def test_an_old_client_and_an_old_relay_are_told_to_update(relay: Relay) -> None:
    async with connect(relay.url) as ws:  # a protocol-2 join: name in the clear, no exchange
        await ws.send(msgpack.packb({"v": 2, "t": "join", "seq": 1, "code": "K7QX9MPA",
                                     "name": "Old", "watch": False}))
        frame = msgpack.unpackb(await ws.recv(), raw=False)
    assert frame["code"] == "version" and frame["fatal"]
    assert f"protocol {VERSION}" in frame["message"]
    assert "please update tabletop-tui" in frame["message"]

    async def old_relay(ws: ServerConnection) -> None:  # answers in protocol 2
        await ws.recv()
        await ws.send(msgpack.packb({"v": 2, "t": "error", "code": "version", "fatal": True,
                                     "message": "protocol version 3 is not supported"}))

    async with serve(old_relay, "127.0.0.1", 0) as server:
        port = next(iter(server.sockets)).getsockname()[1]
        link = RemoteLink("K7QX-9MPA-B3CD", "Pia", server=f"127.0.0.1:{port}", remember=False)
        async with asyncio.timeout(TIMEOUT):
            with pytest.raises(JoinError) as refused:
                await link.connect()
    assert refused.value.code == "version" and "please update" in refused.value.message
