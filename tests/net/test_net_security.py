"""Holes a hostile peer with the join code could use (issue 10), each closed and tried over real
sockets on 127.0.0.1 with an attacker written from docs/protocol.md: seat theft by name, rooms
that lock a relay, code squatting, spectators that lock players out, a slow close that stalls a
room, a seed the host alone picks, and the smaller ones."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import os
import signal
from pathlib import Path
from typing import Any

import msgpack
import pytest
from netsupport import TIMEOUT, Player, Raw
from test_net_cli import spawn
from test_net_faults import close_all, to_act
from test_net_game import finish, open_table
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from net import discovery
from net.host.authority import NetHost
from net.peer import tokens as seat_tokens
from net.peer.remote import JoinError, RemoteLink
from net.records import store
from net.relay import tokens
from net.relay.server import Limits, Relay
from net.wire import codes
from net.wire.channel import CRYPTO
from net.wire.frames import encode


async def away(host: NetHost, player: Player, seat: int = 1) -> None:
    """`player` closes its connection mid-game and the host sees its seat empty."""
    await player.link.close()
    async with asyncio.timeout(TIMEOUT):
        while host.seats[seat].cid is not None:
            await asyncio.sleep(0.01)


async def started(relay: Relay, seed: int, **kwargs: Any) -> tuple[NetHost, Player, Player]:
    host, _me, (pia, per) = await open_table(relay, seed=seed, **kwargs)
    pia.play = False
    host.start()
    await pia.wait_for(to_act(1) if seed == 4 else lambda m: m["type"] == "sync")
    return host, pia, per


# -- 1. seat theft by name -------------------------------------------------------------------------
async def test_a_name_alone_never_takes_an_away_seat_from_a_headless_host(relay: Relay) -> None:
    host, pia, per = await started(relay, seed=4)
    assert isinstance(pia.link, RemoteLink)
    token, key = pia.link.token, pia.link.proof_key
    try:
        await away(host, pia)
        for watch in (False, True):  # a would-be player, and a spectator trying the name
            thief = RemoteLink(host.code, "Pia", server=relay.url, remember=False, watch=watch)
            if watch:
                await thief.connect()
                assert thief.seat is None  # watches; gets no hand
                await thief.close()
            else:
                with pytest.raises(JoinError) as refused:
                    await thief.connect()
                assert refused.value.code == "refused" and "token" in refused.value.message
        assert host.seats[1].cid is None and host.seats[1].holds(token)
        # The owner's token still works, and gets the hand back.
        back = Player(RemoteLink(host.code, "Pia", server=relay.url, token=token,
                                 proof_key=key), seed=8)
        await back.link.connect()
        sync = await back.wait_for(lambda m: m["type"] == "sync")
        assert sync["seat"] == 1 and back.link.token == token
    finally:
        await close_all(host, pia, per)


async def test_the_host_says_yes_and_the_token_still_wins(relay: Relay) -> None:
    host, pia, per = await started(relay, seed=4)
    host.attended = True
    asked: list[dict[str, Any]] = []
    host.add_listener(lambda m: asked.append(m) if m["type"] == "reclaim" else None)
    assert isinstance(pia.link, RemoteLink)
    token, key = pia.link.token, pia.link.proof_key
    try:
        await away(host, pia)
        # Refused once by the host, then given on the second try.
        first = asyncio.ensure_future(
            RemoteLink(host.code, "pia", server=relay.url, remember=False).connect())
        while not asked:
            await asyncio.sleep(0.01)
        assert asked[0]["seat"] == 1 and asked[0]["name"] == "pia"
        host.answer_reclaim(asked[0]["cid"], False)
        with pytest.raises(JoinError) as refused:
            await first
        assert refused.value.code == "refused"
        other = Player(RemoteLink(host.code, "pia", server=relay.url, remember=False), seed=9)
        joining = asyncio.ensure_future(other.link.connect())
        while len(asked) < 2:
            await asyncio.sleep(0.01)
        host.answer_reclaim(asked[1]["cid"], True)
        await joining
        assert other.link.seat == 1 and other.link.token != token
        # The real owner comes back with the token: the seat is theirs, from whoever has it.
        owner = Player(RemoteLink(host.code, "Pia", server=relay.url, token=token,
                                  proof_key=key), seed=10)
        await owner.link.connect()
        assert owner.link.seat == 1
        await other.wait_for(lambda m: m["type"] == "error" and m["code"] == "replaced")
        assert host.seats[1].cid == next(c for c, p in host.peers.items() if p.seat == 1)
        await other.link.close()
        await owner.link.close()
    finally:
        await close_all(host, pia, per)


# -- 2. one address must not lock a relay: tests/net/test_relay_caps.py ------------------------


# -- 3. code squatting after a relay restart -------------------------------------------------------
async def test_a_restarted_relay_gives_a_known_code_only_to_its_host() -> None:
    relay = Relay(Limits(sweep_every=0.2))
    port = await relay.start()
    host, _me, (pia, per) = await open_table(relay, seed=4)
    try:
        host.start()
        code = host.room
        await relay.stop()  # the relay restarts: it remembers no rooms
        relay = Relay(Limits(sweep_every=0.2))
        await relay.start("127.0.0.1", port)
        for token in ("guess", tokens.host_token(b"x" * 32, code)):
            async with connect(relay.url) as squatter:
                await squatter.send(encode("open", seq=1, code=code, host_token=token))
                frame = msgpack.unpackb(await squatter.recv(), raw=False)
                assert frame["code"] == "code_taken", token
        # Opening the code anew (hosts draw their codes) gets a room with a later token...
        squatter = await connect(relay.url)
        await squatter.send(encode("open", seq=1, code=code, host_token=None))
        assert msgpack.unpackb(await squatter.recv(), raw=False)["t"] == "opened"
        # ...which the real host, whose token is older, takes back when it reconnects.
        await finish(_me, pia, per)
        assert host.room == code and pia.result is not None and pia.result["verified"]
        heard = []
        with contextlib.suppress(ConnectionClosed):
            async for raw in squatter:
                heard.append(msgpack.unpackb(raw, raw=False))
        assert heard[-1]["t"] == "error" and heard[-1]["code"] == "replaced"
        # Whoever came back meanwhile only named its resumption key: no guess, no token.
        assert all(f["t"] in ("from", "left", "error") for f in heard), heard
    finally:
        await close_all(host, pia, per)
        await relay.stop()


async def test_a_seat_token_is_never_sent_to_a_room_that_cannot_prove_its_host(
    relay: Relay,
) -> None:
    host, _me, (pia, per) = await open_table(relay, seed=4)
    assert isinstance(pia.link, RemoteLink) and pia.link.token and pia.link.proof_key
    token = pia.link.token
    # A relay the attacker runs, where it holds the same code (its own secret signs it).
    fake = Relay(secret=b"attacker" * 4)
    await fake.start()
    try:
        squatter = await connect(fake.url, max_size=None)
        await squatter.send(encode("open", seq=1, code=host.room,
                                   host_token=tokens.host_token(b"attacker" * 4, host.room)))
        assert msgpack.unpackb(await squatter.recv(), raw=False)["t"] == "opened"
        heard: list[bytes] = []

        async def play_host() -> None:
            async for raw in squatter:
                heard.append(raw)
                frame = msgpack.unpackb(raw, raw=False)
                if frame["t"] == "from":
                    # It knows the room code, not the secret part: it guesses one, runs the
                    # exchange and sends a proof sealed with the keys it got.
                    inner = msgpack.unpackb(frame["data"], raw=False)
                    if inner["t"] == "join":
                        guess = CRYPTO.host_exchange(host.room, "0000")
                        channel = guess.finish(inner["pake"])
                        n, sealed = channel.seal({"t": "proof", "proof": "00" * 32})
                        await squatter.send(encode("send", seq=2, items=[
                            {"to": [frame["cid"]], "data": encode("pake", msg=guess.message)},
                            {"to": [frame["cid"]], "data": encode("sealed", n=n,
                                                                  data=sealed)}]))

        task = asyncio.ensure_future(play_host())
        victim = RemoteLink(host.code, "Pia", server=fake.url, token=token,
                            proof_key=pia.link.proof_key, remember=False)
        with pytest.raises(JoinError) as refused:
            await victim.connect()
        assert refused.value.code == "wrong_code" and "last four" in refused.value.message
        await asyncio.sleep(0.1)
        assert heard and not any(token.encode() in raw for raw in heard)
        task.cancel()
        await squatter.close()
    finally:
        await fake.stop()
        await close_all(host, pia, per)


# -- 4. spectators never lock a player out ---------------------------------------------------------
async def test_spectators_and_strangers_cannot_keep_a_seat_owner_out() -> None:
    relay = Relay(Limits(spectators=2, players=2))
    await relay.start()
    host, _me, (pia, per) = await open_table(relay, seed=4)
    watchers: list[RemoteLink] = []
    try:
        host.start()
        for i in range(2):
            watcher = RemoteLink(host.code, f"W{i}", server=relay.url, watch=True)
            await watcher.connect()
            watchers.append(watcher)
        with pytest.raises(JoinError) as refused:
            await RemoteLink(host.code, "W3", server=relay.url, watch=True).connect()
        assert refused.value.code == "room_full"
        await away(host, pia)
        relay.limits.players = 0  # no room for anybody new at all: an owner still gets in
        with pytest.raises(JoinError):
            await RemoteLink(host.code, "Eve", server=relay.url, remember=False).connect()
        assert isinstance(pia.link, RemoteLink)
        # What Pia's link kept (token, resumption key, one-time ticket) brings her back.
        back = RemoteLink(host.code, "Pia", server=relay.url, token=pia.link.token,
                          proof_key=pia.link.proof_key)
        back.key, back.ticket = pia.link.key, pia.link.ticket
        assert back.key is not None and back.ticket is not None
        await back.connect()
        assert back.seat == 1
        await back.close()
    finally:
        for watcher in watchers:
            await watcher.close()
        await close_all(host, pia, per)
        await relay.stop()


# -- 5. cutting a connection never stalls its room -------------------------------------------------
async def test_a_connection_that_will_not_close_delays_nobody() -> None:
    relay = Relay(Limits(close_timeout=30, rate=20, burst=20, flood_close=40))
    await relay.start()
    host, _me, (pia, per) = await open_table(relay, seed=4)
    try:
        for how in ("kick", "flood"):
            mal = await Raw.join(relay, host.code, name=f"Mal-{how}", watch=True)
            await mal.recv("welcome")
            if how == "flood":
                with contextlib.suppress(Exception):
                    for _ in range(60):
                        await mal.send("chat", text="spam")
            mal.ws.transport.pause_reading()  # it never reads the close frame: no handshake
            if how == "kick":
                cid = next(c for c, p in host.peers.items() if p.name == "Mal-kick")
                host.uplink.kick(cid, "go away")
            await asyncio.sleep(0.1)
            async with asyncio.timeout(5):  # the close handshake itself may take 30 s
                assert await pia.link.echo(b"still here") == b"still here"
            mal.ws.transport.abort()
    finally:
        await close_all(host, pia, per)
        await relay.stop()


# -- 6. the seed is everybody's --------------------------------------------------------------------
async def test_the_seed_needs_every_seat_and_a_fixed_seed_says_so(relay: Relay) -> None:
    decks = []
    for _ in range(2):
        host, me, peers = await open_table(relay, seed=7, fixed=False)
        host.seed = None
        host.start()
        await finish(me, *peers)
        for peer in peers:
            assert isinstance(peer.link, RemoteLink)
            assert peer.link.deal.contribution in host.contributions
            assert peer.result is not None and peer.result["verify_note"] == "shuffles verified"
        decks.append(host.session.seed)
        await close_all(host, *peers)
    assert decks[0] != decks[1]  # the same host settings no longer give the same deal
    host, me, peers = await open_table(relay, seed=7)  # a practice deal: `--seed 7`
    try:
        host.start()
        await finish(me, *peers)
        assert host.session.seed == 7
        for peer in peers:
            note = peer.result["verify_note"]
            assert "practice deal" in note and note != "shuffles verified"
            assert any(m["type"] == "notice" and "chose the seed (7)" in m["text"]
                       for m in peer.messages)
    finally:
        await close_all(host, *peers)


# -- 7. live codes on a shared machine -------------------------------------------------------------
def test_the_rooms_file_name_is_slow_and_salted_per_machine(
    private_dirs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = discovery.publish("K7QX9MPA", "ws://127.0.0.1:4321")
    assert path is not None
    plain = hashlib.sha256(b"tabletop-tui room K7QX9MPA").hexdigest()[:24]
    assert path.stem != plain and path.stem != codes.room_key("K7QX9MPA")
    salt = (path.parent / ".salt").read_bytes()
    assert path.stem == codes.room_key("K7QX9MPA", salt)
    monkeypatch.setenv("TABLETOP_TUI_ROOMS", str(private_dirs / "another-machine"))
    other = discovery.publish("K7QX9MPA", "ws://127.0.0.1:4321")
    assert other is not None and other.stem != path.stem


# -- 8. the smaller ones ---------------------------------------------------------------------------
async def test_wrong_codes_from_one_address_never_delay_a_right_code() -> None:
    relay = Relay(Limits(wrong_code_free=0, wrong_code_delay=3, wrong_code_max_delay=3))
    await relay.start()
    host, _me, _peers = await open_table(relay, seed=4, names=())
    guessers = [await Raw.join(relay, "ZZZZ-ZZZZ") for _ in range(3)]
    try:
        await asyncio.sleep(0.1)
        async with asyncio.timeout(2):  # each wrong answer waits 3 s; the right one does not
            link = RemoteLink(host.code, "Pia", server=relay.url)
            await link.connect()
        assert link.seat == 1
        await link.close()
        error = await guessers[0].error()
        assert error["code"] == "no_room" and error["retry_after"] == 3
    finally:
        for guesser in guessers:
            await guesser.ws.close()
        await host.close()
        await relay.stop()


async def test_the_relay_log_names_rooms_by_a_short_hash(relay: Relay,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="tabletop.relay")
    host, _me, _peers = await open_table(relay, seed=4, names=())
    await host.close()
    await asyncio.sleep(0.1)
    text = caplog.text
    assert tokens.log_name(host.room) in text
    assert host.room not in text and codes.display(host.room) not in text


async def test_a_move_over_the_rate_is_answered_and_sent_again() -> None:
    relay = Relay(Limits(rate=4, burst=1))
    await relay.start()
    host, _me, (pia, per) = await open_table(relay, seed=4)
    try:
        pia.play = False
        host.start()
        table = await pia.wait_for(to_act(1))
        raw = await Raw.join(relay, host.code, name="Rex", watch=True)
        await raw.recv("welcome")
        for _ in range(2):
            await raw.send("sync")
        error = await raw.error()
        assert error["code"] == "rate_limit" and error["seq"] == 3 and error["retry_after"] > 0
        await raw.ws.close()
        # Pia chats and moves at once: the relay drops the move, she sends it again.
        state = table["state_no"]
        await pia.link.send_chat("my move:")
        await pia.link.send_move(1, table["legal"][0], state)
        await pia.wait_for(lambda m: m["type"] in ("sync", "update") and m["state_no"] > state
                           and host.session.moves[state][0] == 1)
        assert not any(m["type"] == "error" for m in pia.messages)
    finally:
        await close_all(host, pia, per)
        await relay.stop()


async def test_a_host_ended_by_a_signal_leaves_no_rooms_file(private_dirs: Path) -> None:
    host = await spawn("host", "schoene", "--headless", "--bots", "1", "--seats", "3",
                       "--port", "0")
    assert host.stdout is not None
    code = codes.normalise_join((await host.stdout.readline()).decode().strip())
    assert discovery.lookup_local(code) is not None
    host.send_signal(signal.SIGTERM)
    await host.wait()
    folder = discovery.rooms_dir()
    assert folder is not None and not list(folder.glob("*.json"))
    # A file whose host process is gone is ignored (SIGKILL leaves one behind).
    path = discovery.publish(code, "ws://127.0.0.1:1")
    assert path is not None
    path.write_text(f'{{"url": "ws://127.0.0.1:1", "pid": {2**22 + 1}}}')
    assert discovery.lookup_local(code) is None
    path.write_text(f'{{"url": "ws://127.0.0.1:1", "pid": {os.getpid()}}}')
    assert discovery.lookup_local(code) == "ws://127.0.0.1:1"


async def test_a_silent_spectator_that_answers_pings_is_not_idle() -> None:
    relay = Relay(Limits(idle_timeout=0.3, sweep_every=0.1, ping_timeout=1))
    await relay.start()
    host, _me, _peers = await open_table(relay, seed=4, names=())
    try:
        watcher = RemoteLink(host.code, "Vic", server=relay.url, watch=True)
        await watcher.connect()
        mute = await Raw.join(relay, host.code, name="Mute", watch=True)
        await mute.recv("welcome")
        mute.ws.transport.pause_reading()  # never answers a ping
        await asyncio.sleep(1.8)
        assert not watcher.closed.is_set()
        assert sum(1 for p in host.peers.values() if p.seat is None) == 1
        await watcher.close()
        mute.ws.transport.abort()
    finally:
        await host.close()
        await relay.stop()


def test_saved_tokens_keep_the_proof_key_the_resumption_key_and_the_ticket(
    private_dirs: Path,
) -> None:
    saved = seat_tokens.Saved("tok", "Pia", "proof", "ab" * 32, "ticket")
    seat_tokens.save_token("K7QX9MPA", saved)
    assert seat_tokens.load_token("K7QX9MPA", "pia") == saved
    assert seat_tokens.load_token("K7QX9MPA", "Eve") is None
    path = private_dirs / "home" / "tokens.json"
    assert path.stat().st_mode & 0o777 == 0o600
    path.write_text('{"K7QX9MPA": ["tok", "Pia", "proof"]}')  # as an older version kept it
    assert seat_tokens.load_token("K7QX9MPA", "Pia") == seat_tokens.Saved("tok", "Pia", "proof")


async def test_an_old_client_is_told_to_update(relay: Relay) -> None:
    async with connect(relay.url) as ws:  # a version-1 join, seat token and all
        await ws.send(msgpack.packb({"v": 1, "t": "join", "seq": 1, "code": "K7QX9MPA",
                                     "name": "Old", "token": None, "watch": False}))
        frame = msgpack.unpackb(await ws.recv(), raw=False)
    assert frame["code"] == "version" and frame["fatal"]
    assert "version 1 is not supported" in frame["message"] and "update" in frame["message"]


async def test_a_join_while_the_host_is_away_is_answered_when_it_is_back(relay: Relay) -> None:
    from test_net_faults import crash

    host, _me, (pia, per) = await open_table(relay, seed=13)
    resumed: NetHost | None = None
    try:
        host.start()
        await pia.wait_for(lambda m: m["type"] == "sync")
        crash(host)
        await pia.wait_for(lambda m: m["type"] == "connection" and m["state"] == "host_away")
        late = RemoteLink(host.code, "Vic", server=relay.url, watch=True)
        joining = asyncio.ensure_future(late.connect())
        await asyncio.sleep(0.2)
        assert not joining.done()
        path = store.last_record()
        assert path is not None
        resumed = NetHost.resume(path, relay.url, bot_delay=0)
        await resumed.open()
        await resumed.begin_resumed()
        async with asyncio.timeout(TIMEOUT):
            await joining
        assert late.seat is None and late.table is not None
        await pia.wait_for(lambda m: m["type"] == "welcome" and m["seat"] == 1)
        await late.close()
    finally:
        await close_all(resumed or host, pia, per)
