"""Tournaments in the table's store: the event, who entered, each round's tables and how they
ended, each seat's way in, and the standings and export read back from them.

It runs on whichever SQL store the table has (net.players.sql: SQLite's file or PostgreSQL),
with the same statements; the arithmetic is net.tournament's. Seat secrets (a table's join
code, a seat's token) are bearer secrets: every statement that reads one names its player.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import time
from dataclasses import asdict, dataclass, field
from typing import Any

from engines import ENGINE_IDS, get_engine
from net.players.sql import SqlLadders
from net.players.store import StoreError
from net.tournament import arena, duplicate
from net.tournament.plan import FORMATS
from net.tournament.scoring import Outcome, standings
from net.tournament.swiss import Table
from net.wire.frames import MAX_NAME
from net.wire.text import clean

# An event's life: open for entries, running its rounds, over (results final).
OPEN, RUNNING, OVER = "open", "running", "over"
ID_SHAPE = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")
TIME = re.compile(r"([01]?\d|2[0-3]):([0-5]\d)")
MONTH = re.compile(r"\d{4}-(0[1-9]|1[0-2])")
MAX_ROUNDS = 20
MAX_MINUTES = 24 * 60


@dataclass
class Event:
    id: str
    engine: str
    kind: str  # net.tournament.plan.FORMATS
    rounds: int  # Swiss: fixed in advance; round-robin: set when it starts; arena: 0
    size: int  # seats at a table
    starts: float  # epoch seconds
    length: float = 0.0  # an arena's length in seconds
    duplicate: bool = False  # every table of a round plays the round's deal
    season: str | None = None  # the season an arena counts for ("2026-12"), if any
    organiser: str = ""
    status: str = OPEN
    created: float = field(default_factory=time.time)


@dataclass
class Entrant:
    player: str  # who it is (an identity, or a name for the keyless)
    name: str
    entry: int  # the order of entry: the starting rank
    bot: str | None = None  # a bot entered by the organiser (its level)


@dataclass
class TableRow:
    round: int
    board: int
    seats: list[str | None]  # player ids in seat order; None: the strong bot fills in
    places: list[int] | None = None  # once it ended
    absent: list[str] = field(default_factory=list)  # who never came (forfeited)
    deal_seed: int | None = None  # the seed it was dealt from (a duplicate round's)
    game: str | None = None  # the record's game id (its commitment)

    def outcome(self) -> Outcome | None:
        if self.places is None:
            return None
        return Outcome(tuple(self.seats), tuple(self.places), frozenset(self.absent))


@dataclass
class RoundRow:
    round: int
    commitment: str | None  # a duplicate round's promise, published with the pairings
    seed: str | None  # revealed once the round is over
    started: float
    finished: float | None


class Tournaments:
    """Tournament rows of one opened store (close the store, not this)."""

    def __init__(self, store: Any) -> None:
        if not isinstance(store, SqlLadders):
            raise StoreError("tournaments need an SQL store")
        self.db = store

    # -- the event -------------------------------------------------------------------------
    def create(self, event: Event) -> None:
        if not ID_SHAPE.fullmatch(event.id):
            raise ValueError("a tournament's name is 1 to 40 small letters, digits and dashes")
        if event.kind not in FORMATS:
            raise ValueError(f"a tournament is one of {', '.join(FORMATS)}")
        with self.db.writing():
            if self.db.row("SELECT 1 FROM tournaments WHERE id = ?", (event.id,)):
                raise ValueError(f"there is a tournament {event.id} already")
            self.db.rows(
                "INSERT INTO tournaments (id, engine, kind, rounds, size, starts, length, "
                "duplicate, season, organiser, status, created) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (event.id, event.engine, event.kind, event.rounds, event.size, event.starts,
                 event.length, int(event.duplicate), event.season, event.organiser,
                 event.status, event.created))

    def event(self, tid: str) -> Event | None:
        row = self.db.row(f"SELECT {_EVENT} FROM tournaments WHERE id = ?", (tid,))
        return None if row is None else _event(row)

    def events(self) -> list[Event]:
        return [_event(r) for r in self.db.rows(
            f"SELECT {_EVENT} FROM tournaments ORDER BY starts, id")]

    def set_status(self, tid: str, status: str, rounds: int | None = None) -> None:
        with self.db.writing():
            self.db.rows("UPDATE tournaments SET status = ? WHERE id = ?", (status, tid))
            if rounds is not None:
                self.db.rows("UPDATE tournaments SET rounds = ? WHERE id = ?", (rounds, tid))

    # -- who directs it ---------------------------------------------------------------------
    def claim(self, tid: str, now: float, lease: float) -> bool:
        """Take the direction of `tid` (open or running, not over) unless a director said it
        directs it less than `lease` seconds ago: one director per event, also among several
        desks, and a dead one's event is taken over once it has been silent that long."""
        with self.db.writing():
            row = self.db.row("SELECT status, directed FROM tournaments WHERE id = ?", (tid,))
            if row is None or row[0] == OVER:
                return False
            if row[1] is not None and now - float(row[1]) < lease:
                return False
            self.db.rows("UPDATE tournaments SET directed = ? WHERE id = ?", (now, tid))
            return True

    def directing(self, tid: str, now: float | None) -> None:
        """The director is alive at `now` (None: it stopped; anyone may take over)."""
        with self.db.writing():
            self.db.rows("UPDATE tournaments SET directed = ? WHERE id = ?", (now, tid))

    def directed(self, tid: str) -> float | None:
        """When a director last said it directs `tid` (None: none does)."""
        row = self.db.row("SELECT directed FROM tournaments WHERE id = ?", (tid,))
        return None if row is None or row[0] is None else float(row[0])

    # -- the field -------------------------------------------------------------------------
    def enter(self, tid: str, player: str, name: str, bot: str | None = None) -> Entrant:
        """Enter `player` (once; entering again changes nothing) while entries are open;
        the name is cleaned as a name from the wire is."""
        name = clean(name, MAX_NAME) or "player"
        with self.db.writing():
            event = self.event(tid)
            if event is None:
                raise ValueError(f"there is no tournament {tid}")
            row = self.db.row("SELECT player, name, entry, bot FROM tournament_players "
                               "WHERE tournament = ? AND player = ?", (tid, player))
            if row is not None:
                return Entrant(*row)
            if event.status != OPEN and event.kind != "arena":
                raise ValueError(f"{tid} has begun: entries are closed")
            if event.status == OVER:
                raise ValueError(f"{tid} is over")
            count = self.db.row("SELECT COUNT(*) FROM tournament_players WHERE tournament = ?",
                                 (tid,))
            entry = int(count[0] if count else 0) + 1
            self.db.rows("INSERT INTO tournament_players (tournament, player, name, entry, bot) "
                          "VALUES (?, ?, ?, ?, ?)", (tid, player, name, entry, bot))
            return Entrant(player, name, entry, bot)

    def rank(self, tid: str, players: list[str]) -> None:
        """Number the entrants in the order `players` gives (the starting ranks)."""
        with self.db.writing():
            for number, player in enumerate(players, 1):
                self.db.rows("UPDATE tournament_players SET entry = ? WHERE tournament = ? "
                              "AND player = ?", (number, tid, player))

    def entrants(self, tid: str) -> list[Entrant]:
        return [Entrant(*r) for r in self.db.rows(
            "SELECT player, name, entry, bot FROM tournament_players WHERE tournament = ? "
            "ORDER BY entry", (tid,))]

    # -- rounds and tables ------------------------------------------------------------------
    def open_round(self, tid: str, number: int, tables: list[Table],
                   commitment: str | None = None, deal_seed: int | None = None) -> None:
        """Publish round `number`'s pairings (and a duplicate round's commitment)."""
        with self.db.writing():
            self.db.rows("INSERT INTO tournament_rounds (tournament, round, commitment, seed, "
                          "started, finished) VALUES (?, ?, ?, NULL, ?, NULL)",
                          (tid, number, commitment, time.time()))
            for board, table in enumerate(tables):
                self.db.rows(
                    "INSERT INTO tournament_tables (tournament, round, board, seats, places, "
                    "absent, deal_seed, game) VALUES (?, ?, ?, ?, NULL, NULL, ?, NULL)",
                    (tid, number, board, json.dumps(list(table)),
                     None if deal_seed is None else str(deal_seed)))

    def give_seat(self, tid: str, number: int, player: str, code: str, token: str,
                  proof_key: str) -> None:
        """How `player` reaches their table of round `number` (a table opened again in a new
        room gives its seats again)."""
        with self.db.writing():
            self.db.rows("DELETE FROM tournament_seats WHERE tournament = ? AND round = ? AND "
                          "player = ?", (tid, number, player))
            self.db.rows("INSERT INTO tournament_seats (tournament, round, player, code, token, "
                          "proof_key) VALUES (?, ?, ?, ?, ?, ?)",
                          (tid, number, player, code, token, proof_key))

    def set_room(self, tid: str, number: int, board: int, code: str) -> None:
        """The room table `board` of round `number` is played in, for the director alone:
        the one that takes over a dead director's round resumes the room's game from its
        record (`room`)."""
        with self.db.writing():
            self.db.rows("UPDATE tournament_tables SET code = ? WHERE tournament = ? AND "
                          "round = ? AND board = ?", (code, tid, number, board))

    def room(self, tid: str, number: int, board: int) -> str | None:
        row = self.db.row("SELECT code FROM tournament_tables WHERE tournament = ? AND "
                           "round = ? AND board = ?", (tid, number, board))
        return None if row is None or row[0] is None else str(row[0])

    def deal_of(self, tid: str, number: int) -> int | None:
        """A duplicate round's deal seed while it is under way, for its director alone (who
        opens a table of it again); `tables` shows it to everyone once the round closed."""
        row = self.db.row("SELECT deal_seed FROM tournament_tables WHERE tournament = ? AND "
                           "round = ? AND board = 0", (tid, number))
        return None if row is None or row[0] is None else int(row[0])

    def void_round(self, tid: str, number: int) -> None:
        """Round `number` never dealt a card (its director died while the players sat down):
        it is withdrawn, to be paired and published again."""
        with self.db.writing():
            for table in ("tournament_seats", "tournament_tables", "tournament_rounds"):
                self.db.rows(f"DELETE FROM {table} WHERE tournament = ? AND round = ?",
                             (tid, number))

    def seat_of(self, tid: str, number: int, player: str) -> tuple[str, str, str] | None:
        """(join code, seat token, proof key) of `player`'s table in round `number`."""
        row = self.db.row("SELECT code, token, proof_key FROM tournament_seats WHERE "
                           "tournament = ? AND round = ? AND player = ?", (tid, number, player))
        return None if row is None else (row[0], row[1], row[2])

    def next_seat(self, tid: str, player: str, after: int) -> int | None:
        """The first round (an arena's table) after `after` with a seat for `player`."""
        row = self.db.row("SELECT MIN(round) FROM tournament_seats WHERE tournament = ? AND "
                           "player = ? AND round > ?", (tid, player, after))
        return None if row is None or row[0] is None else int(row[0])

    def table_done(self, tid: str, number: int, board: int, places: list[int],
                   absent: list[str], game: str | None) -> None:
        with self.db.writing():
            self.db.rows("UPDATE tournament_tables SET places = ?, absent = ?, game = ? "
                          "WHERE tournament = ? AND round = ? AND board = ?",
                          (json.dumps(places), json.dumps(absent), game, tid, number, board))

    def close_round(self, tid: str, number: int, seed: str | None = None) -> None:
        """Round `number` is over; a duplicate round's seed is revealed with it."""
        with self.db.writing():
            self.db.rows("UPDATE tournament_rounds SET finished = ?, seed = ? "
                          "WHERE tournament = ? AND round = ?", (time.time(), seed, tid, number))

    def rounds(self, tid: str) -> list[RoundRow]:
        return [RoundRow(*r) for r in self.db.rows(
            "SELECT round, commitment, seed, started, finished FROM tournament_rounds "
            "WHERE tournament = ? ORDER BY round", (tid,))]

    def duplicate_round_of(self, code: str) -> tuple[str, RoundRow] | None:
        """(tournament, round) of the duplicate round whose table has join code `code`
        (None: no duplicate table of this store): how the app knows that the game it played
        was dealt from a round's seed, and which commitment to check it against."""
        row = self.db.row("SELECT tournament, round FROM tournament_seats WHERE code = ?",
                          (code,))
        if row is None:
            return None
        played = next((r for r in self.rounds(row[0]) if r.round == row[1]), None)
        if played is None or played.commitment is None:
            return None
        return str(row[0]), played

    def published(self, tid: str, number: int, commitment: str, before: float) -> bool:
        """Whether this store published `commitment` for duplicate round `number` of `tid`
        with its pairings, before the time `before` (a game's start): what a table's ladder
        asks before it counts a duplicate table's game (net.players.ladder)."""
        row = self.db.row("SELECT commitment, started FROM tournament_rounds WHERE "
                          "tournament = ? AND round = ?", (tid, number))
        return row is not None and row[0] == commitment and float(row[1]) <= before

    def tables(self, tid: str, number: int | None = None) -> list[TableRow]:
        """A round's tables (every round's: None). A duplicate table's deal seed only once
        its round closed: whoever knows the seed of a game under way knows every hand."""
        query = ("SELECT round, board, seats, places, absent, deal_seed, game FROM "
                 "tournament_tables WHERE tournament = ?")
        params: tuple[Any, ...] = (tid,)
        if number is not None:
            query, params = query + " AND round = ?", (tid, number)
        closed = {r.round for r in self.rounds(tid) if r.finished is not None}
        return [TableRow(r, b, json.loads(s), None if p is None else json.loads(p),
                         json.loads(a) if a else [],
                         None if d is None or r not in closed else int(d), g)
                for r, b, s, p, a, d, g in self.db.rows(query + " ORDER BY round, board",
                                                        params)]

    # -- what it adds up to -----------------------------------------------------------------
    def outcomes(self, tid: str) -> list[list[Outcome]]:
        """Each finished round's games (a duplicate round scored seat against seat)."""
        event = self.event(tid)
        done = {r.round: r for r in self.rounds(tid) if r.finished is not None}
        out: list[list[Outcome]] = []
        for number in sorted(done):
            games = [o for t in self.tables(tid, number) if (o := t.outcome()) is not None]
            if event is not None and event.duplicate:
                games = duplicate.rescore(games)
            out.append(games)
        return out

    def standings(self, tid: str, upto: int | None = None) -> list[dict[str, Any]]:
        """The standings as rows (rank, player, name, score and the named tie-breaks), after
        round `upto` (None: every round finished so far; an arena counts every game)."""
        event = self.event(tid)
        names = {e.player: e.name for e in self.entrants(tid)}
        if event is not None and event.kind == "arena":
            games = [o for t in self.tables(tid) if (o := t.outcome()) is not None]
            tally = arena.replay(event.size, games)
            for player in names:
                tally.runners.setdefault(player, arena.Runner(player))
            rows = []
            for rank, runner in enumerate(tally.standings(), 1):
                rows.append({"rank": rank, "player": runner.player,
                             "name": names.get(runner.player, runner.player),
                             "score": runner.points, "wins": runner.wins,
                             "games": runner.games, "on_fire": runner.on_fire})
            return rows
        lines = standings(self.outcomes(tid)[:upto], names)
        return [{**line.as_dict(), "name": names.get(line.player, line.player)}
                for line in lines]

    def season(self, engine: str, month: str) -> list[dict[str, Any]]:
        """A season's standings: the points of every arena of `engine` that counts for
        `month` (YYYY-MM) added up, then the wins; with the arenas each player played."""
        arenas = [e for e in self.events()
                  if e.kind == "arena" and e.engine == engine and e.season == month]
        total: dict[str, dict[str, Any]] = {}
        for event in arenas:
            for row in self.standings(event.id):
                if not row["games"]:
                    continue
                mine = total.setdefault(row["player"], {"player": row["player"],
                                                        "name": row["name"], "score": 0.0,
                                                        "wins": 0, "games": 0, "arenas": 0})
                mine["score"] += row["score"]
                mine["wins"] += row["wins"]
                mine["games"] += row["games"]
                mine["arenas"] += 1
        ordered = sorted(total.values(), key=lambda r: (-r["score"], -r["wins"], r["player"]))
        return [{"rank": rank, **row} for rank, row in enumerate(ordered, 1)]

    def export(self, tid: str) -> dict[str, Any]:
        """Everything a tournament's results are, as JSON-ready data."""
        event = self.event(tid)
        if event is None:
            raise ValueError(f"there is no tournament {tid}")
        return {"tournament": asdict(event),
                "entrants": [asdict(e) for e in self.entrants(tid)],
                "rounds": [asdict(r) for r in self.rounds(tid)],
                "tables": [asdict(t) for t in self.tables(tid)],
                "standings": self.standings(tid)}


def start_time(text: str, now: float | None = None) -> float:
    """`now`, `HH:MM` (today, or tomorrow once that time is past) or an ISO date and time;
    ValueError with a sentence for anything else."""
    now = time.time() if now is None else now
    text = text.strip()
    if text == "now":
        return now
    if (clock := TIME.fullmatch(text)) is not None:
        today = dt.datetime.fromtimestamp(now).replace(hour=int(clock[1]), minute=int(clock[2]),
                                                       second=0, microsecond=0)
        at = today.timestamp()
        return at if at > now else (today + dt.timedelta(days=1)).timestamp()
    try:
        return dt.datetime.fromisoformat(text).timestamp()
    except ValueError:
        raise ValueError(f"{text!r} is no start time: write now, HH:MM or "
                         "2026-12-24T20:00") from None


def plan_event(game: str, kind: str, *, starts: float, rounds: int = 0, minutes: float = 0,
               seats: int | None = None, duplicate: bool = False, season: str | None = None,
               tid: str | None = None, organiser: str = "") -> Event:
    """The event asked for, checked: ValueError with a sentence a player reads otherwise."""
    if game not in ENGINE_IDS:
        raise ValueError(f"unknown game {game!r}; choose one of: {', '.join(ENGINE_IDS)}")
    engine = get_engine(game)
    seats = seats or max(2, engine.min_players)
    if not engine.min_players <= seats <= min(engine.max_players, 6):
        raise ValueError(f"{engine.title} is played by {engine.min_players} to "
                         f"{engine.max_players}; a tournament table seats 2 to 6")
    if kind == "swiss" and not 1 <= rounds <= MAX_ROUNDS:
        raise ValueError(f"a Swiss has 1 to {MAX_ROUNDS} rounds")
    if kind == "arena" and not 1 <= minutes <= MAX_MINUTES:
        raise ValueError(f"an arena lasts 1 to {MAX_MINUTES} minutes")
    if season and (kind != "arena" or not MONTH.fullmatch(season)):
        raise ValueError("a season names a month (YYYY-MM) and is for arenas")
    tid = tid or f"{game}-{dt.datetime.fromtimestamp(starts):%Y%m%d-%H%M}".replace("_", "-")
    return Event(tid, game, kind, rounds=rounds if kind == "swiss" else 0, size=seats,
                 starts=starts, length=minutes * 60 if kind == "arena" else 0.0,
                 duplicate=duplicate, season=season or None, organiser=organiser)


_EVENT = ("id, engine, kind, rounds, size, starts, length, duplicate, season, organiser, "
          "status, created")


def _event(row: tuple[Any, ...]) -> Event:
    tid, engine, kind, rounds, size, starts, length, dup, season, organiser, status, made = row
    return Event(tid, engine, kind, int(rounds), int(size), float(starts), float(length),
                 bool(dup), season, organiser, status, float(made))
