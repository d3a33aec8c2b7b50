"""A player's side of a tournament at a table: who may organise one, who enters from here,
and `Entry`, which plays a player's rounds headless (`tournament join --bot`; the app seats a
person through the same store).

`Entry.play_round` waits for its seat, joins the room with that seat's token, plays (a bot
decides from the view, as `join --bot` does), and after the round checks a duplicate deal: the
revealed round seed matches the commitment it read before it sat down, and its table's seed is
the one that round seed gives. A seat that moves (a director that took over a dead one's round
opened the table again, net.director) is followed to its new room, and a room whose director
is away is tried again until it is back.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from net.headless import PeerBot
from net.peer.remote import JoinError, RemoteLink
from net.peer.tokens import OWNER_ENV
from net.players import identity, ladder
from net.players.tournaments import OPEN, OVER, Tournaments
from net.tournament import duplicate

T = TypeVar("T")

SHOW_UP = 120.0  # seconds a player has to take their seat before the round starts without them
POLL = 0.1  # seconds between looks at the store while waiting for it


# At a public table, who may create tournaments from the app: their identities (fingerprints),
# separated by commas, as the operator names them. At home anybody may (the store is theirs).
ORGANISERS_ENV = "TABLETOP_TUI_ORGANISERS"


def may_organise(player: str) -> bool:
    """Whether `player` may create tournaments here."""
    if not os.environ.get(ladder.TABLE_ENV):
        return True
    trusted = {p.strip() for p in os.environ.get(ORGANISERS_ENV, "").split(",")}
    return player in trusted - {""}


def player_key(name: str) -> str:
    """Who enters from here: this installation's identity, or the SSH table's owner of the
    session, or (keyless and alone) the name."""
    mine = identity.mine()
    if mine is not None:
        return mine.fingerprint
    return os.environ.get(OWNER_ENV) or f"name:{name}"


@dataclass
class Verdict:
    """A player's check of one round's table: `ok`, and a sentence."""

    ok: bool
    text: str


@dataclass
class Entry:
    """One player's side of tournament `tid`: `player` as entered, played by a bot of `level`
    (a person plays through the app instead)."""

    store: Tournaments
    tid: str
    player: str
    name: str
    level: str = "random"
    server: str | None = None
    wait: float = SHOW_UP
    key: identity.Identity | None = None  # proves its seats (None: this installation's key)

    async def seat(self, number: int) -> tuple[str, str, str] | None:
        """This player's way into round `number` once the pairings give it (None: the
        round came and went without a seat for them, or the event is over)."""
        return await self._watch(lambda: self.store.seat_of(self.tid, number, self.player),
                                 self.wait)

    async def _watch(self, find: Callable[[], T | None], wait: float | None) -> T | None:
        """What `find` gives once it gives something; None once the event is over or `wait`
        seconds passed (None: no limit)."""
        deadline = None if wait is None else time.monotonic() + wait
        while deadline is None or time.monotonic() < deadline:
            found = find()
            if found is not None:
                return found
            event = self.store.event(self.tid)
            if event is None or event.status == OVER:
                return None
            await asyncio.sleep(POLL)
        return None

    async def play_event(self) -> list[Verdict]:
        """Play every round (or arena table) this player is given until the event is over;
        a verdict for each game."""
        event = self.store.event(self.tid)
        if event is not None and event.kind == "arena":
            return await self.play_arena()
        verdicts: list[Verdict] = []
        number = 1
        while (event := self.store.event(self.tid)) is not None:
            if event.status != OPEN and event.rounds and number > event.rounds:
                break
            if await self.seat(number) is None:
                break
            verdicts.append(await self.play_round(number))
            number += 1
        return verdicts

    async def play_arena(self) -> list[Verdict]:
        """Play every arena table this player is given until the arena is over."""
        verdicts: list[Verdict] = []
        number = 0
        while True:
            found = await self._next_table(number)
            if found is None:
                return verdicts
            number = found
            verdicts.append(await self.play_round(number))

    async def _next_table(self, after: int) -> int | None:
        """The number of this player's next arena table after `after` (None: it is over)."""
        return await self._watch(lambda: self.store.next_seat(self.tid, self.player, after),
                                 None)

    async def play_round(self, number: int) -> Verdict:
        """Sit at this player's table of round `number`, play it out, check its deal. A seat
        that moves meanwhile (a director that took over opened the table again) is followed,
        and a room whose director is away is tried again until it is back or `wait` ends."""
        deadline = time.monotonic() + self.wait
        while True:
            seat = await self.seat(number)
            if seat is None:
                return Verdict(False, f"no seat for {self.name} in round {number}")
            promise = next((r.commitment for r in self.store.rounds(self.tid)
                            if r.round == number), None)
            code, token, proof_key = seat
            link = RemoteLink(code, self.name, server=self.server, token=token,
                              proof_key=proof_key, remember=False)
            if self.key is not None:
                link.deal.identity = self.key
            bot = PeerBot(link, self.level, seed=random.randrange(2**32))
            link.set_listener(bot.hear)
            try:
                await link.connect()
                moved = await self._played_or_moved(bot, number, code)
                if not moved and bot.result is None:  # closed before its end: it may move
                    moved = await self._moves_before(number, code, deadline)
            except JoinError as exc:
                away = exc.code == "host_away" and time.monotonic() < deadline
                if not away and not self._moved(number, code):
                    return Verdict(False, f"cannot join round {number}: {exc.message}")
                await asyncio.sleep(POLL * 10)
                moved = True  # look for the seat again
            finally:
                await link.close()
            if not moved:
                break
        if bot.result is None:
            return Verdict(False, f"the table of round {number} closed: {link.close_reason}")
        result = bot.result["result"]
        if promise is None:
            return Verdict(bool(result.get("verified")), str(result.get("verify_note")))
        return await self._check_duplicate(number, promise, result)

    def _moved(self, number: int, code: str) -> bool:
        """Whether this player's seat of round `number` is no longer at the room `code`."""
        seat = self.store.seat_of(self.tid, number, self.player)
        return seat is None or seat[0] != code

    async def _moves_before(self, number: int, code: str, deadline: float) -> bool:
        """Whether this player's seat moves from the room `code` before `deadline`."""
        while time.monotonic() < deadline:
            if self._moved(number, code):
                return True
            await asyncio.sleep(POLL * 10)
        return False

    async def _played_or_moved(self, bot: PeerBot, number: int, code: str) -> bool:
        """Wait for the game at `code` to end (False) or this player's seat to move (True)."""
        ended = asyncio.ensure_future(bot.done.wait())
        try:
            while not ended.done():
                if self._moved(number, code):
                    return True
                await asyncio.wait({ended}, timeout=POLL * 10)
            return False
        finally:
            ended.cancel()

    async def _check_duplicate(self, number: int, promise: str,
                               result: dict[str, Any]) -> Verdict:
        """After the round: its seed, revealed, against the commitment read before sitting
        down, and this table's seed against the one the round seed gives
        (`duplicate.table_check`, the app's check too)."""
        deadline = time.monotonic() + self.wait
        what = duplicate.label(self.tid, number)
        while time.monotonic() < deadline:
            row = next((r for r in self.store.rounds(self.tid) if r.round == number), None)
            revealed = row.seed if row is not None and row.finished is not None else None
            wrong = duplicate.table_check(result, promise, revealed, what)
            if wrong is None:
                return Verdict(True, "the round's deal, verified")
            if wrong == "replay":
                return Verdict(False, str(result.get("verify_note")))
            if wrong != duplicate.PENDING:
                return Verdict(False, f"NOT the round's deal: {duplicate.REASONS[wrong]}")
            await asyncio.sleep(POLL)
        return Verdict(False, "the round's seed was never revealed")
