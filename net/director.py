"""Running a tournament at a table: the director of an event and the table's desk that starts
a director for each event when its time comes (a player's side: net.entrant).

The director pairs a round (net.tournament), opens a hosted room per table on the table's
relay (the same `NetHost` a player hosts with), reserves each seat for its player with a seat
token of its own (handed to that player alone through the tournament's store), fills the seats
of the bots, starts every table of the round at once when everybody sat down or the time to
show up ran out (a seat nobody took is played by the strong bot, and its player forfeits the
round), waits for every table to end (the tables have clocks, and a bot takes over the seat
of a player who dropped out and did not come back), writes down each table's places, counts
each record for the ratings and closes the round. A duplicate round deals every table from
the seed the round committed to with its pairings and reveals that seed when it closes.

One director directs an event at a time: it says so in the store every few seconds
(`Tournaments.claim`), and a desk takes over an event whose director has been silent for
`LEASE` seconds (its process was killed, its machine went down). The new director takes the
round under way up where the records on the table's disk left it: a table that ended keeps
its places, a game under way goes on from its host's record in the same room (its players
wait there for the host, as for `host --resume`), a table never dealt is opened again, and a
round none of whose tables was dealt is withdrawn and played afresh (nobody saw a card).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engines import get_engine
from net.entrant import POLL, SHOW_UP
from net.host.authority import NetHost
from net.host.seats import Seat, bot_seat, new_token
from net.players import identity, ladder
from net.players.tournaments import OPEN, OVER, RUNNING, Event, RoundRow, TableRow, Tournaments
from net.records import store as record_files
from net.table import clocks
from net.table.session import HostSession
from net.tournament import duplicate
from net.tournament.arena import Arena
from net.tournament.plan import next_round
from net.tournament.roundrobin import rounds_for
from net.tournament.swiss import Table
from net.wire import proofs

FILLER = "strong"  # the bot that fills an odd seat
# Seconds a player who dropped out of a game under way has to come back before a bot plays
# their seat to the end (they count as having left it): no round waits for one table forever.
TAKEOVER = 60.0
CLOCK = "normal"  # the tables' clocks (net.table.clocks.PRESETS), out of time the bot moves
# Seconds a director may be silent in the store before a desk takes its event over; it says
# it is alive every third of that.
LEASE = 30.0


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
    lease: float = LEASE
    claimed: bool = False  # the desk that made it claimed the event for it already
    played: list[Played] = field(default_factory=list)

    def event(self) -> Event:
        event = self.store.event(self.tid)
        if event is None:
            raise ValueError(f"there is no tournament {self.tid}")
        return event

    async def run(self) -> None:
        """Wait for the start, play every round, and close the event; ValueError if another
        director directs it. A round a director that died left under way is taken up first."""
        event = self.event()
        if event.status == OVER:
            return
        now = time.time()
        if not self.claimed and not self.store.claim(self.tid, now, self.lease):
            said = self.store.directed(self.tid)
            left = self.lease - (now - said) if said is not None else 0.0
            raise ValueError(f"{self.tid} is directed elsewhere; if that director stopped, "
                             f"it can be taken over in {max(left, 1):.0f} s")
        beat = asyncio.get_running_loop().create_task(self._beat())
        try:
            await self._direct(event)
        finally:
            beat.cancel()
            self.store.directing(self.tid, None)

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.lease / 3)
            self.store.directing(self.tid, time.time())

    async def _direct(self, event: Event) -> None:
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
        begun = self.store.rounds(self.tid)
        if begun and begun[-1].finished is None:
            await self.resume_round(begun[-1])
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
        for task in await self._arena_taken_up(event, field, known):
            games.add(task)
            task.add_done_callback(games.discard)
        number = len(self.store.rounds(self.tid))
        try:
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
        except asyncio.CancelledError:  # stopped: its tables wait for the next director
            for task in list(games):
                task.cancel()
            await asyncio.gather(*games, return_exceptions=True)
            raise
        self.store.set_status(self.tid, OVER)

    async def _arena_table(self, event: Event, field: Arena, number: int,
                           table: Table) -> None:
        entrants = {e.player: e for e in self.store.entrants(self.tid)}
        host = await self._open(event, number, 0, table, entrants, None)
        (missing,) = await self._seated([host])
        for seat in missing:
            host.seats[seat] = bot_seat(seat, FILLER)
        host.start()
        await self._arena_end(field, number, host, table, missing)

    async def _arena_end(self, field: Arena, number: int, host: NetHost, table: Table,
                         missing: list[int]) -> None:
        await _until_ended([host])
        try:
            row = self._finish(number, 0, host, table, missing)
        finally:
            await host.close("the game is over")
        self.store.close_round(self.tid, number)
        self._arena_counts(field, row)

    def _arena_counts(self, field: Arena, row: TableRow) -> None:
        """A finished arena table on the tally; its players who came wait for the next."""
        outcome = row.outcome()
        assert outcome is not None
        field.finish(outcome)
        for player in outcome.players():
            if player not in outcome.absent:
                field.free(player)

    async def _arena_taken_up(self, event: Event, field: Arena,
                              known: set[str]) -> list[asyncio.Task[None]]:
        """An arena a director that died left running: the tally of its finished tables, each
        table under way taken up (a task that ends it), and those not at one waiting again
        (but for one who did not come to their last table: still paused)."""
        entrants = {e.player: e for e in self.store.entrants(self.tid)}
        tasks: list[asyncio.Task[None]] = []
        busy: set[str] = set()
        last_absent: dict[str, bool] = {}
        for begun in self.store.rounds(self.tid):
            (row,) = self.store.tables(self.tid, begun.round)
            players = {p for p in row.seats if p is not None}
            known |= players
            if row.places is not None:
                outcome = row.outcome()
                assert outcome is not None
                field.finish(outcome)
                for player in players:
                    last_absent[player] = player in outcome.absent
                continue
            busy |= players
            tasks.append(asyncio.get_running_loop().create_task(
                self._arena_resumed(event, field, begun, row, entrants)))
        for player in sorted(known - busy):
            if not last_absent.get(player, False):
                field.free(player)
        return tasks

    async def _arena_resumed(self, event: Event, field: Arena, begun: RoundRow, row: TableRow,
                             entrants: dict[str, Any]) -> None:
        taken = await self._take_up(event, begun, row, entrants, None)
        table = tuple(row.seats)
        if taken is None:  # never dealt: sat down again
            await self._arena_table(event, field, begun.round, table)
        elif isinstance(taken, TableRow):  # it had ended
            self.store.close_round(self.tid, begun.round)
            self._arena_counts(field, taken)
        else:
            host, missing = taken
            await self._arena_end(field, begun.round, host, table, missing)

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
        opened = [(board, await self._open(event, number, board, table, entrants, deal), table)
                  for board, table in enumerate(tables)]
        playing = await self._sit_down(number, opened, commitment, seed)
        await self._play_out(number, playing)
        self.store.close_round(self.tid, number, seed)
        return self.store.tables(self.tid, number)

    async def _sit_down(self, number: int, opened: list[tuple[int, NetHost, Table]],
                        commitment: str | None,
                        seed: str | None) -> list[tuple[int, NetHost, Table, list[int]]]:
        """Start freshly opened tables (board, host, table) once seated, or once the time to
        show up ran out: each (board, host, table, the seats nobody came to)."""
        hosts = [host for _, host, _ in opened]
        if seed is not None:
            for host in hosts:  # the host's record alone (the table's disk) holds the seed
                host.duplicate = {"tournament": self.tid, "round": number,
                                  "commitment": commitment, "round_seed": seed}
        absent = await self._seated(hosts)
        for host, missing in zip(hosts, absent, strict=True):
            for seat in missing:
                host.seats[seat] = bot_seat(seat, FILLER)
            host.start()
        return [(board, host, table, missing)
                for (board, host, table), missing in zip(opened, absent, strict=True)]

    async def _play_out(self, number: int,
                        playing: list[tuple[int, NetHost, Table, list[int]]]) -> None:
        """Wait for every table under way to end, write down how each went, close them."""
        await _until_ended([host for _, host, _, _ in playing])
        try:
            for board, host, table, missing in playing:
                self._finish(number, board, host, table, missing)
        finally:
            for _, host, _, _ in playing:
                await host.close("the round is over")

    async def resume_round(self, begun: RoundRow) -> list[TableRow]:
        """Take up a round a director that died left under way: a table that ended keeps its
        places (written down from its record if the director died first), a game under way
        goes on from its host's record, a table never dealt is opened again; a round none of
        whose tables was dealt is withdrawn and played afresh."""
        number, event = begun.round, self.event()
        entrants = {e.player: e for e in self.store.entrants(self.tid)}
        rows = self.store.tables(self.tid, number)
        found = [self._record(number, row.board, begun.started) for row in rows]
        if not any(found) and all(row.places is None for row in rows):
            self.store.void_round(self.tid, number)
            return await self.run_round(number)
        seed = next((s for path in found if path is not None
                     and (s := _round_seed(path)) is not None), None)
        playing: list[tuple[int, NetHost, Table, list[int]]] = []
        fresh: list[tuple[int, NetHost, Table]] = []
        for row in rows:
            if row.places is not None:
                continue
            table = tuple(row.seats)
            taken = await self._take_up(event, begun, row, entrants, seed)
            if taken is None:
                deal = self.store.deal_of(self.tid, number) if event.duplicate else None
                host = await self._open(event, number, row.board, table, entrants, deal)
                fresh.append((row.board, host, table))
            elif not isinstance(taken, TableRow):
                playing.append((row.board, taken[0], table, taken[1]))
        if fresh:
            playing += await self._sit_down(number, fresh, begun.commitment, seed)
        await self._play_out(number, playing)
        self.store.close_round(self.tid, number, seed)
        return self.store.tables(self.tid, number)

    def _record(self, number: int, board: int, since: float) -> Path | None:
        """The record of the game at table `board` of round `number`, written since `since`
        (the round's start); None: it was never dealt."""
        room = self.store.room(self.tid, number, board)
        if room is None:
            return None
        found = [p for p in record_files.records_dir().glob(f"*-{room}.jsonl")
                 if p.stat().st_mtime >= since - 1]
        return max(found, default=None)  # a record's name starts with its time

    async def _take_up(self, event: Event, begun: RoundRow, row: TableRow,
                       entrants: dict[str, Any],
                       seed: str | None) -> TableRow | tuple[NetHost, list[int]] | None:
        """A table of a round a director that died left under way: None if it was never
        dealt; its row once written down if its game had ended; else its host, resumed from
        its record in the same room, with the seats nobody came to."""
        path = self._record(begun.round, row.board, begun.started)
        if path is None:
            return None
        head, moves, over = record_files.read_record(path)
        people = [entrants[p].bot is None if p in entrants else False for p in row.seats]
        if over:
            bots = [p.get("bot") is not None for p in head["players"]]
            missing = [i for i, (bot, person) in enumerate(zip(bots, people, strict=True))
                       if bot and person]
            session = HostSession.from_record({**head, "moves": moves})
            commitment = (head.get("net") or {}).get("commitment")
            return self._written_down(begun.round, row.board, tuple(row.seats), session,
                                      missing, commitment, path)
        host = NetHost.resume(path, self.relay_url, bot_delay=0.0)
        await host.open()
        await host.begin_resumed()
        missing = [i for i, (seat, person) in enumerate(zip(host.seats, people, strict=True))
                   if seat.bot is not None and person]
        return host, missing

    async def _open(self, event: Event, number: int, board: int, table: Table,
                    entrants: dict[str, Any], deal: int | None) -> NetHost:
        host = NetHost(event.engine, len(table), relay_url=self.relay_url, level=FILLER,
                       seed=self.table_seed(board, deal), bot_delay=0.0, takeover=self.takeover,
                       clock=clocks.preset(event.engine, self.clock, len(table)))
        await host.open()
        self.store.set_room(self.tid, number, board, host.room)
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
        return self._written_down(number, board, table, session, missing, host.commitment,
                                  host.record_path)

    def _written_down(self, number: int, board: int, table: Table, session: HostSession,
                      missing: list[int], commitment: str | None,
                      record: Path | None) -> TableRow:
        """An ended table's places in the store, and its record counted for the ratings."""
        places = get_engine(session.engine.id).places(session.result())
        absent = [str(table[s]) for s in missing]
        self.store.table_done(self.tid, number, board, places, absent, commitment)
        counted = "not counted here"
        if self.ladders is not None and record is not None:
            outcome = ladder.count(self.ladders, record)
            counted = "counted" if outcome.refused is None else str(outcome.refused)
        row = self.store.tables(self.tid, number)[board]
        self.played.append(Played(row, counted))
        return row


async def _until_ended(hosts: list[NetHost]) -> None:
    """Wait for every game of `hosts` to end. A director stopped meanwhile (a desk shut down
    with ^C) stops directing, not the games: their rooms stay open as after a crash, and
    their players wait there for the director that takes over (a closed room could only
    end them unfinished)."""
    try:
        await asyncio.gather(*(host.finished.wait() for host in hosts))
    except asyncio.CancelledError:
        for host in hosts:
            await host.crash()
        raise


def _round_seed(path: Path) -> str | None:
    """The duplicate round's seed a table's record keeps (None: not a duplicate table)."""
    head, _, _ = record_files.read_record(path)
    duplicate = (head.get("net") or {}).get("duplicate")
    seed = duplicate.get("round_seed") if isinstance(duplicate, dict) else None
    return seed if isinstance(seed, str) else None


@dataclass
class Desk:
    """The table's tournament desk: directs every open tournament of the store once its start
    time comes, several at once, until stopped (`tournament desk`, beside `serve`)."""

    store: Tournaments
    relay_url: str
    every: float = 5.0  # seconds between looks at the store
    lease: float = LEASE
    director: dict[str, Any] = field(default_factory=dict)  # Director's other settings
    running: dict[str, asyncio.Task[None]] = field(default_factory=dict)

    def due(self, now: float) -> list[Event]:
        """Events whose time came and that no director directs: not begun, or left running
        by a director that has been silent for the lease (it died)."""
        return [e for e in self.store.events()
                if e.status in (OPEN, RUNNING) and e.starts <= now and e.id not in self.running
                and ((said := self.store.directed(e.id)) is None or now - said >= self.lease)]

    async def run(self, rounds: int | None = None) -> None:
        """Look `rounds` times (None: for ever), starting what is due."""
        looked = 0
        while rounds is None or looked < rounds:
            now = time.time()
            for event in self.due(now):
                if not self.store.claim(event.id, now, self.lease):
                    continue  # another desk was quicker
                director = Director(self.store, event.id, self.relay_url, lease=self.lease,
                                    claimed=True, **self.director)
                self.running[event.id] = asyncio.get_running_loop().create_task(director.run())
            looked += 1
            await asyncio.sleep(self.every)

    async def finish(self) -> None:
        """Wait for the tournaments under way."""
        await asyncio.gather(*self.running.values())
