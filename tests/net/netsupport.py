"""Test players for networked tables: they listen to any TableLink, keep every message, and
play random legal moves when it is their turn (like a person who always answers at once)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from typing import Any

from net.client import RemoteLink
from net.host import NetHost
from net.link import Message, TableLink
from net.session import HostSession

TIMEOUT = 20.0


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
    """Every raw frame `link` receives, in order, before it handles it: what a peer was sent,
    to hold against the engine."""
    kept: list[bytes] = []
    handle = link._frame

    def keep(raw: bytes | str) -> None:
        assert isinstance(raw, bytes)
        kept.append(raw)
        handle(raw)

    link._frame = keep  # type: ignore[method-assign]
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
