"""Test players for networked tables: they listen to any TableLink, keep every message, and
play random legal moves when it is their turn (like a person who always answers at once)."""

from __future__ import annotations

import asyncio
import os
import random
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect

from net import records
from net.host.authority import NetHost
from net.peer.remote import RemoteLink
from net.players.counted import Outcome, SeatOutcome
from net.players.identity import Ed25519PrivateKey, Identity
from net.players.store import Ladders
from net.relay import addresses
from net.relay.conns import Conn
from net.relay.peers import PeerDesk
from net.relay.server import Relay
from net.table.link import Message, TableLink
from net.table.session import HostSession, SeatInfo
from net.wire.channel import CRYPTO, Channel
from net.wire.frames import encode

TIMEOUT = 20.0

# This process's connections from 127.0.0.1 as a relay on this machine counts them: with the
# owner of their sockets where /proc tells it (net.relay.addresses.local_user).
ME = "127.0.0.1" + (f"{addresses.USER_MARK}{os.getuid()}"
                    if os.path.exists(addresses.TCP_TABLES[0]) else "")


class Player:
    """Plays the seats of `link` with random legal moves; `messages` keeps everything heard."""

    def __init__(self, link: TableLink, seed: int = 0, play: bool = True) -> None:
        self.link = link
        self.rng = random.Random(seed)
        self.play = play
        self.messages: list[Message] = []
        self.result: dict[str, Any] | None = None
        self.done = asyncio.Event()
        self.moved = 0
        self._changed = asyncio.Event()
        link.set_listener(self.hear)

    def hear(self, message: Message) -> None:
        self.messages.append(message)
        self._changed.set()
        kind = message["type"]
        if kind in ("sync", "update"):
            if message["result"] is not None:
                self.result = message["result"]
                self.done.set()
            elif self.play and message["seat"] in self.link.seats and message["legal"]:
                asyncio.get_running_loop().create_task(self._move(message))

    async def _move(self, message: Message) -> None:
        move = self.rng.choice(message["legal"])
        self.moved += 1
        await self.link.send_move(message["seat"], move, message["state_no"])

    def of(self, kind: str) -> list[Message]:
        return [m for m in self.messages if m["type"] == kind]

    def last_table(self) -> Message:
        return [m for m in self.messages if m["type"] in ("sync", "update")][-1]

    async def wait_for(self, predicate: Any, timeout: float = TIMEOUT) -> Message:
        """The first message (already heard or still to come) that satisfies `predicate`."""
        async with asyncio.timeout(timeout):
            seen = 0
            while True:
                for message in self.messages[seen:]:
                    if predicate(message):
                        return message
                seen = len(self.messages)
                self._changed.clear()
                await self._changed.wait()


def capture(link: RemoteLink) -> list[bytes]:
    """Every frame the host sealed for `link`, opened, in order (re-encoded as a plain frame):
    what a peer was sent, to hold against the engine."""
    kept: list[bytes] = []
    opened = link.open_sealed

    def keep(frame: dict[str, Any]) -> dict[str, Any]:
        payload = opened(frame)
        kept.append(encode(**payload))
        return payload

    link.open_sealed = keep  # type: ignore[method-assign]
    return kept


async def play_recorded(
    host: NetHost, players: Sequence[Player], timeout: float
) -> tuple[HostSession, dict[int, Any]]:
    """Deal `host`'s game (a fixed seed: no contributions to wait for), wait until every player
    has seen its end, then close the links and the room. Returns the session and every state
    by number, so each frame a peer got can be checked against the engine's view of it."""
    states: dict[int, Any] = {}
    try:
        host.start()
        session = host.session
        assert session is not None
        states[session.state_no] = session.state
        session.subscribe(lambda *_: states.__setitem__(session.state_no, session.state))
        async with asyncio.timeout(timeout):
            await asyncio.gather(*(p.done.wait() for p in players))
    finally:
        await asyncio.gather(
            *(p.link.close() for p in players if isinstance(p.link, RemoteLink))
        )
        await host.close()
    return session, states


def someone() -> Identity:
    """A fresh player's identity, as another installation would make it."""
    return Identity(Ed25519PrivateKey.generate())


def played(store: Ladders, who: Identity, finished: int, left: int) -> None:
    """`who` played `finished + left` counted games of Schöne against a bot, leaving `left`."""
    for n in range(finished + left):
        gone = n >= finished
        seats = (SeatOutcome(who.fingerprint, "P", 1 + gone, gone),
                 SeatOutcome("bot:strong", "bot:strong", 2 - gone, False))
        store.add_game(Outcome(f"{who.fingerprint}-{n}", "schoene", float(n), seats))


class Places(PeerDesk):
    """A relay's peer desk that counts each join under the address the test names in `at`,
    as if it came from there (`Places.on(relay)` puts one in)."""

    def __init__(self, relay: Relay) -> None:
        super().__init__(relay)
        self.at = "127.0.0.1"

    @classmethod
    def on(cls, relay: Relay) -> Places:
        relay.peers = desk = cls(relay)
        return desk

    async def serve(self, conn: Conn, frame: dict[str, Any], raw: bytes) -> None:
        conn.addr = self.at
        await super().serve(conn, frame, raw)


class Raw:
    """A hand-driven peer that can send anything at all: in the clear (`send_clear`, or bytes
    on `ws`), or sealed with the keys of a real exchange (`send`, `send_payload`). It answers
    the host's half of the exchange by itself, inside `recv`, with a hello; `recv` returns the
    relay's frames as they are and the host's sealed ones opened."""

    def __init__(self, ws: ClientConnection, room: str, secret: str, name: str,
                 watch: bool, identity: Callable[[Channel], dict[str, Any]] | None = None
                 ) -> None:
        self.ws, self.room, self.secret = ws, room, secret
        self.name, self.watch = name, watch
        self.identity = identity  # the identity fields its hello says, given its channel
        self.seq = 0
        self.exchange = CRYPTO.peer_exchange(room, secret)
        self.channel: Channel | None = None

    @classmethod
    async def join(cls, relay: Relay, code: str, name: str = "Mal", watch: bool = False,
                   identity: Callable[[Channel], dict[str, Any]] | None = None) -> Raw:
        symbols = code.replace("-", "").upper()
        ws = await connect(relay.url, max_size=None, max_queue=None, compression=None)
        raw = cls(ws, symbols[:8], symbols[8:], name, watch, identity)
        await raw.send_clear("join", code=raw.room, watch=watch, pake=raw.exchange.message)
        return raw

    async def send_clear(self, t: str, **fields: Any) -> None:
        self.seq += 1
        await self.ws.send(encode(t, seq=fields.pop("seq", self.seq), **fields))

    async def send(self, t: str, **fields: Any) -> None:
        seq = fields.pop("seq", None)
        await self.send_payload({"t": t, **fields}, seq=seq)

    async def send_payload(self, payload: dict[str, Any], seq: int | None = None) -> int:
        """Seal any map at all and send it; returns its counter."""
        assert self.channel is not None
        n, data = self.channel.seal(payload)
        await self.send_clear("sealed", n=n, data=data, **({} if seq is None else {"seq": seq}))
        return n

    async def recv(self, t: str | None = None) -> dict[str, Any]:
        async with asyncio.timeout(TIMEOUT):
            while True:
                frame = msgpack.unpackb(await self.ws.recv(), raw=False, timestamp=0)
                if frame["t"] == "pake":
                    self.channel = self.exchange.finish(frame["msg"])
                    said = {} if self.identity is None else self.identity(self.channel)
                    await self.send("hello", name=self.name, watch=self.watch, seat_id=None,
                                    nonce=None, **said)
                    continue
                if frame["t"] == "sealed":
                    assert self.channel is not None
                    frame = self.channel.open(frame["n"], frame["data"])
                if t is None or frame["t"] == t:
                    return frame

    async def error(self) -> dict[str, Any]:
        return await self.recv("error")


def local_game(game: str, seed: int, me: Identity, *, drawn: bool = True,
               bots: tuple[str, ...] = ("strong", "random")) -> Path:
    """A local game as the app plays it (one person at the keys, "Ada", proven; the record
    written as it goes), the person choosing at random, the bots of `bots` beside them."""
    seats = [SeatInfo("Ada"), *(SeatInfo(f"Bot {i + 2}", level) for i, level in enumerate(bots))]
    session = HostSession(game, seats, seed)
    session.seats[0] = replace(session.seats[0], **me.prove(session.game_id, 0, "Ada"))
    recorder = records.LocalRecorder(session, [0], fixed_seed=not drawn)
    rng = random.Random(seed)
    while not session.over:
        seat = session.engine.to_act(session.state)[0]
        level = session.seats[seat].bot
        move = (session.choose_for(seat, level) if level
                else rng.choice(session.engine.legal_moves(session.state, seat)))
        session.submit(seat, move)
    assert recorder.path is not None
    return recorder.path
