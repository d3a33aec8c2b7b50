"""Running a tournament at a table: the organiser's director and each player's side of it.

The director pairs a round (net.tournament), opens a hosted room per table on the table's
relay (the same `NetHost` a player hosts with), reserves each seat for its player with a seat
token of its own (handed to that player alone through the tournament's store), fills the seats
of the bots, starts every table of the round at once when everybody sat down or the time to
show up ran out (a seat nobody took is played by the strong bot, and its player forfeits the
round), waits for every table to end (the tables have clocks, and a bot takes over the seat
of a player who dropped out and did not come back), writes down each table's places, counts
each record for the ratings and closes the round. A duplicate round deals every table from
the seed the round committed to with its pairings and reveals that seed when it closes.

A player's side (`Entry.play_round`) waits for its seat, joins the room with that seat's
token, plays (a bot decides from the view, as `join --bot` does), and after the round checks
a duplicate deal: the revealed round seed matches the commitment it read before it sat down,
and its table's seed is the one that round seed gives.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from engines import get_engine
from net.headless import PeerBot
from net.host.authority import NetHost
from net.host.seats import Seat, bot_seat, new_token
from net.peer.remote import JoinError, RemoteLink
from net.peer.tokens import OWNER_ENV
from net.players import identity, ladder
from net.players.tournaments import OPEN, OVER, RUNNING, Event, TableRow, Tournaments
from net.table import clocks
from net.tournament import duplicate
from net.tournament.arena import Arena
from net.tournament.plan import next_round
from net.tournament.roundrobin import rounds_for
from net.tournament.swiss import Table
from net.wire import proofs

T = TypeVar("T")

SHOW_UP = 120.0  # seconds a player has to take their seat before the round starts without them
POLL = 0.1  # seconds between looks at the store while waiting for it
FILLER = "strong"  # the bot that fills an odd seat
# Seconds a player who dropped out of a game under way has to come back before a bot plays
# their seat to the end (they count as having left it): no round waits for one table forever.
TAKEOVER = 60.0
CLOCK = "normal"  # the tables' clocks (net.table.clocks.PRESETS), out of time the bot moves


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
class Played:
    """How one table of a round went, as the director saw it."""

    row: TableRow
    counted: str  # "counted", or why the record does not count for ratings


@dataclass
class Director:
    """Runs tournament `tid` of an opened store on the relay at `relay_url`."""

    store: Tournaments
    tid: str
    relay_url: str
    show_up: float = SHOW_UP
    clock: str = CLOCK
    takeover: float = TAKEOVER
    ladders: Any = None  # the store games are counted into (None: not counted)
    played: list[Played] = field(default_factory=list)

    def event(self) -> Event:
        event = self.store.event(self.tid)
        if event is None:
            raise ValueError(f"there is no tournament {self.tid}")
        return event

    async def run(self) -> None:
        """Wait for the start, play every round, and close the event."""
        event = self.event()
        await asyncio.sleep(max(0.0, event.starts - time.time()))
        if event.kind == "arena":
            await self.run_arena(event)
            return
        if event.status == OPEN:
            self._rank(event)
        players = [e.player for e in self.store.entrants(self.tid)]
        rounds = event.rounds
        if event.kind == "roundrobin":
            rounds = rounds_for(len(players)) if event.size == 2 else len(players)
        self.store.set_status(self.tid, RUNNING, rounds)
        for number in range(len(self.store.rounds(self.tid)) + 1, rounds + 1):
            await self.run_round(number)
        self.store.set_status(self.tid, OVER)

    def _rank(self, event: Event) -> None:
        """The starting ranks, as the Dutch system wants them: by rating at this game on the
        table's ladder (the unrated after the rated), then in order of entry."""
        if self.ladders is None:
            return
        entrants = self.store.entrants(self.tid)

        def rating(player: str, bot: str | None) -> float:
            found = self.ladders.standing(event.engine, identity.bot(bot) if bot else player)
            return found[0].skill.rating if found is not None else float("-inf")

        order = sorted(entrants, key=lambda e: (-rating(e.player, e.bot), e.entry))
        self.store.rank(self.tid, [e.player for e in order])

    async def run_arena(self, event: Event) -> None:
        """An arena: for `event.length` seconds, whoever is free sits down at a new table at once
        (each table is a "round" of its own in the store); a player who did not come to their
        table is paused, as Lichess pauses one who left, until they enter again."""
        self.store.set_status(self.tid, RUNNING)
        ends = event.starts + event.length
        field = Arena(event.size, ends)
        known: set[str] = set()
        games: set[asyncio.Task[None]] = set()
        number = len(self.store.rounds(self.tid))
        while time.time() < ends or games:
            for entrant in self.store.entrants(self.tid):
                if entrant.player not in known:  # entries stay open while it runs
                    known.add(entrant.player)
                    field.free(entrant.player)
            for table in field.pair(time.time()):
                number += 1
                self.store.open_round(self.tid, number, [table])
                task = asyncio.get_running_loop().create_task(
                    self._arena_table(event, field, number, table))
                games.add(task)
                task.add_done_callback(games.discard)
            await asyncio.sleep(POLL)
        self.store.set_status(self.tid, OVER)

    async def _arena_table(self, event: Event, field: Arena, number: int,
                           table: Table) -> None:
        entrants = {e.player: e for e in self.store.entrants(self.tid)}
        host = await self._open(event, number, 0, table, entrants, None)
        (missing,) = await self._seated([host])
        for seat in missing:
            host.seats[seat] = bot_seat(seat, FILLER)
        host.start()
        try:
            await host.finished.wait()
            row = self._finish(number, 0, host, table, missing)
        finally:
            await host.close("the game is over")
        self.store.close_round(self.tid, number)
        outcome = row.outcome()
        assert outcome is not None
        field.finish(outcome)
        for player in outcome.players():
            if player not in outcome.absent:
                field.free(player)

    def table_seed(self, board: int, deal: int | None) -> int | None:
        """The seed table `board` is dealt from: the round's deal in a duplicate round, else
        None (the table's players make it together, net.table.fairness)."""
        return deal

    async def run_round(self, number: int) -> list[TableRow]:
        event = self.event()
        entrants = {e.player: e for e in self.store.entrants(self.tid)}
        tables = next_round(event.kind, event.size, list(entrants),
                            self.store.outcomes(self.tid))
        seed = commitment = deal = None
        if event.duplicate:
            seed = duplicate.new_round_seed()
            commitment = duplicate.commit(seed)
            deal = duplicate.deal_seed(seed, duplicate.label(self.tid, number))
        self.store.open_round(self.tid, number, tables, commitment, deal)
        hosts = [await self._open(event, number, board, table, entrants, deal)
                 for board, table in enumerate(tables)]
        if seed is not None:
            for host in hosts:  # the host's record alone (the table's disk) holds the seed
                host.duplicate = {"tournament": self.tid, "round": number,
                                  "commitment": commitment, "round_seed": seed}
        absent = await self._seated(hosts)
        for host, missing in zip(hosts, absent, strict=True):
            for seat in missing:
                host.seats[seat] = bot_seat(seat, FILLER)
            host.start()
        try:
            await asyncio.gather(*(h.finished.wait() for h in hosts))
            for board, (host, table, missing) in enumerate(zip(hosts, tables, absent,
                                                               strict=True)):
                self._finish(number, board, host, table, missing)
        finally:
            for host in hosts:
                await host.close("the round is over")
        self.store.close_round(self.tid, number, seed)
        return self.store.tables(self.tid, number)

    async def _open(self, event: Event, number: int, board: int, table: Table,
                    entrants: dict[str, Any], deal: int | None) -> NetHost:
        host = NetHost(event.engine, len(table), relay_url=self.relay_url, level=FILLER,
                       seed=self.table_seed(board, deal), bot_delay=0.0, takeover=self.takeover,
                       clock=clocks.preset(event.engine, self.clock, len(table)))
        await host.open()
        for seat, player in enumerate(table):
            entrant = entrants.get(player) if player is not None else None
            if entrant is None or entrant.bot is not None:
                host.add_bot(seat, entrant.bot if entrant is not None else FILLER)
                continue
            token = new_token()
            host.seats[seat] = Seat(name=entrant.name, token=token)
            self.store.give_seat(self.tid, number, entrant.player, host.code, token,
                                 proofs.proof_key(host.uplink.host_token or "", token))
        return host

    async def _seated(self, hosts: list[NetHost]) -> list[list[int]]:
        """Wait until every reserved seat is taken or the time to show up is over; the seats
        still empty then, per table."""
        deadline = time.monotonic() + self.show_up

        def missing() -> list[list[int]]:
            return [[i for i, s in enumerate(h.seats) if s.bot is None and s.cid is None]
                    for h in hosts]

        while any(missing()) and time.monotonic() < deadline:
            await asyncio.sleep(POLL)
        return missing()

    def _finish(self, number: int, board: int, host: NetHost, table: Table,
                missing: list[int]) -> TableRow:
        session = host.session
        if session is None or not session.over:
            raise RuntimeError(f"table {board + 1} of round {number} did not end")
        places = get_engine(session.engine.id).places(session.result())
        absent = [str(table[s]) for s in missing]
        self.store.table_done(self.tid, number, board, places, absent, host.commitment)
        counted = "not counted here"
        if self.ladders is not None and host.record_path is not None:
            outcome = ladder.count(self.ladders, host.record_path)
            counted = "counted" if outcome.refused is None else str(outcome.refused)
        row = self.store.tables(self.tid, number)[board]
        self.played.append(Played(row, counted))
        return row


@dataclass
class Desk:
    """The table's tournament desk: directs every open tournament of the store once its start
    time comes, several at once, until stopped (`tournament desk`, beside `serve`)."""

    store: Tournaments
    relay_url: str
    every: float = 5.0  # seconds between looks at the store
    director: dict[str, Any] = field(default_factory=dict)  # Director's other settings
    running: dict[str, asyncio.Task[None]] = field(default_factory=dict)

    def due(self, now: float) -> list[Event]:
        return [e for e in self.store.events()
                if e.status == OPEN and e.starts <= now and e.id not in self.running]

    async def run(self, rounds: int | None = None) -> None:
        """Look `rounds` times (None: for ever), starting what is due."""
        looked = 0
        while rounds is None or looked < rounds:
            for event in self.due(time.time()):
                director = Director(self.store, event.id, self.relay_url, **self.director)
                self.running[event.id] = asyncio.get_running_loop().create_task(director.run())
            looked += 1
            await asyncio.sleep(self.every)

    async def finish(self) -> None:
        """Wait for the tournaments under way."""
        await asyncio.gather(*self.running.values())


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
        """Sit at this player's table of round `number`, play it out, check its deal."""
        seat = await self.seat(number)
        if seat is None:
            return Verdict(False, f"no seat for {self.name} in round {number}")
        promise = next((r.commitment for r in self.store.rounds(self.tid) if r.round == number),
                       None)
        code, token, proof_key = seat
        link = RemoteLink(code, self.name, server=self.server, token=token,
                          proof_key=proof_key, remember=False)
        if self.key is not None:
            link.deal.identity = self.key
        bot = PeerBot(link, self.level, seed=random.randrange(2**32))
        link.set_listener(bot.hear)
        try:
            await link.connect()
            await bot.done.wait()
        except JoinError as exc:
            return Verdict(False, f"cannot join round {number}: {exc.message}")
        finally:
            await link.close()
        if bot.result is None:
            return Verdict(False, f"the table of round {number} closed: {link.close_reason}")
        result = bot.result["result"]
        if promise is None:
            return Verdict(bool(result.get("verified")), str(result.get("verify_note")))
        return await self._check_duplicate(number, promise, result)

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
