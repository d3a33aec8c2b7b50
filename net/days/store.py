"""Games over days in the table's store: the rows of `days_games`, `days_seats`,
`days_moves`, `days_players` and `days_notices` (schema steps 9 and 10 of net.players.sql), read and
written through the ladder store's own backends, so SQLite's file and a PostgreSQL database
(a table on several machines) hold them alike.

Nothing here decides a rule: `net.days.table` loads a game, replays it with the engine and
hands back what to write; every write happens inside `writing()`, the store's one write lock,
and a move is appended only if the game is still at the state it was made on (`save`), so two
nodes can never both apply a move on the same state.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from net.days.clock import Away
from net.players.sql import SqlLadders
from net.players.store import StoreError

# Statuses of a game: waiting for its seats, being played, finished.
OPEN, PLAYING, OVER = "open", "playing", "over"


class Conflict(StoreError):
    """Another node changed the game first: nothing was written."""


@dataclass
class Seat:
    seat: int
    name: str
    ident: str | None = None  # the person's fingerprint once seated; None for bots and free
    bot: str | None = None
    invited: str | None = None  # a name or fingerprint the seat waits for; None: anyone
    key: str | None = None  # the seat's identity proof (net.players.identity)
    sig: str | None = None
    bank: float = 0.0
    timed_out: int | None = None  # the state from which the strong bot plays it
    orders: dict[str, str] = field(default_factory=dict)  # standing orders (net.days.orders)

    @property
    def free(self) -> bool:
        return self.ident is None and self.bot is None


@dataclass
class Game:
    id: str
    engine: str
    options: dict[str, Any]
    secret: int
    salt: str
    days: int
    creator: str
    listed: bool
    status: str
    state_no: int
    to_act: list[int]
    turn_since: float
    created: float
    seats: list[Seat]
    moves: list[tuple[int, dict[str, Any], str]] = field(default_factory=list)  # seat, move, by
    result: dict[str, Any] | None = None
    record: str | None = None

    def seat_of(self, ident: str) -> list[int]:
        return [s.seat for s in self.seats if s.ident == ident]


@dataclass(frozen=True)
class Listing:
    """One line of a player's list of games (or of the open games)."""

    id: str
    engine: str
    days: int
    status: str
    state_no: int
    to_act: list[int]
    turn_since: float
    seats: list[tuple[str, str | None, str | None]]  # name, ident, bot per seat
    mine: list[int]

    @property
    def my_turn(self) -> bool:
        return self.status == PLAYING and any(s in self.to_act for s in self.mine)


@dataclass
class Player:
    ident: str
    name: str
    finished: int = 0
    away: Away = field(default_factory=Away)
    vacation_year: int = 0
    vacation_used: float = 0.0
    webhook: str | None = None
    email: str | None = None
    digest_sent: float = 0.0
    lang: str = "en"  # the language the table's notices speak to them (net.days.words)


_GAME_COLUMNS = ("id, engine, options, secret, salt, days, creator, listed, status, state_no, "
                 "to_act, turn_since, created, result, record")
_PLAYER_COLUMNS = ("ident, name, finished, away_from, away_until, vacation_year, vacation_used, "
                   "webhook, email, digest_sent, lang")


class DaysStore:
    """The games over days of one store (a `SqlLadders`, already opened and migrated)."""

    def __init__(self, ladders: SqlLadders) -> None:
        self.db = ladders

    def rows(self, sql: str, params: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self.db.rows(sql, params)  # the backend's own statement runner

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        """One write transaction under the store's write lock (see the module docstring)."""
        with self.db.writing():
            yield

    def close(self) -> None:
        self.db.close()

    # -- games ---------------------------------------------------------------------------------
    def insert(self, game: Game) -> None:
        self.rows(f"INSERT INTO days_games ({_GAME_COLUMNS}) VALUES "
                  f"(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                  (game.id, game.engine, json.dumps(game.options), str(game.secret), game.salt,
                   game.days, game.creator, int(game.listed), game.status, game.state_no,
                   json.dumps(game.to_act), game.turn_since, game.created, None, None))
        for seat in game.seats:
            self.rows("INSERT INTO days_seats (game, seat, ident, name, bot, invited, proof_key, "
                      "sig, bank, timed_out, orders) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                      (game.id, seat.seat, seat.ident, seat.name, seat.bot, seat.invited,
                       seat.key, seat.sig, seat.bank, seat.timed_out, json.dumps(seat.orders)))

    def load(self, game_id: str, with_moves: bool = True) -> Game | None:
        row = self.db.row(f"SELECT {_GAME_COLUMNS} FROM days_games WHERE id = ?", (game_id,))
        if row is None:
            return None
        (gid, engine, options, secret, salt, days, creator, listed, status, state_no, to_act,
         turn_since, created, result, record) = row
        seats = [Seat(seat, name, ident, bot, invited, key, sig, float(bank), timed_out,
                      json.loads(orders))
                 for seat, ident, name, bot, invited, key, sig, bank, timed_out, orders
                 in self.rows("SELECT seat, ident, name, bot, invited, proof_key, sig, bank, "
                              "timed_out, orders FROM days_seats WHERE game = ? ORDER BY seat",
                              (game_id,))]
        moves = ([(int(seat), json.loads(move), str(by)) for seat, move, by in self.rows(
            "SELECT seat, move, by_whom FROM days_moves WHERE game = ? ORDER BY n", (game_id,))]
            if with_moves else [])
        return Game(gid, engine, json.loads(options), int(secret), salt, int(days), creator,
                    bool(listed), status, int(state_no), json.loads(to_act), float(turn_since),
                    float(created), seats, moves, json.loads(result) if result else None, record)

    def state_no(self, game_id: str) -> int | None:
        row = self.db.row("SELECT state_no FROM days_games WHERE id = ?", (game_id,))
        return None if row is None else int(row[0])

    def save(self, game: Game, was: int, new_moves: list[tuple[int, dict[str, Any], str]],
             now: float) -> None:
        """Write `game` as it is now, appending `new_moves` after state `was`: Conflict if the
        stored game is no longer at `was` (another node moved first)."""
        changed = self.rows(
            "UPDATE days_games SET status = ?, state_no = ?, to_act = ?, turn_since = ?, "
            "result = ?, record = ? WHERE id = ? AND state_no = ? RETURNING id",
            (game.status, game.state_no, json.dumps(game.to_act), game.turn_since,
             None if game.result is None else json.dumps(game.result), game.record, game.id,
             was))
        if not changed:
            raise Conflict("the game moved on meanwhile")
        self.append_moves(game.id, was, new_moves, now)
        for seat in game.seats:
            self.save_seat(game.id, seat)

    def append_moves(self, game_id: str, was: int,
                     moves: list[tuple[int, dict[str, Any], str]], now: float) -> None:
        """Moves numbered on from state `was` (the primary key refuses a number twice)."""
        for number, (seat, move, by) in enumerate(moves, was + 1):
            self.rows("INSERT INTO days_moves (game, n, seat, move, by_whom, at) "
                      "VALUES (?, ?, ?, ?, ?, ?)", (game_id, number, seat, json.dumps(move),
                                                    by, now))

    def save_seat(self, game_id: str, seat: Seat) -> None:
        self.rows("UPDATE days_seats SET ident = ?, name = ?, bot = ?, invited = ?, "
                  "proof_key = ?, sig = ?, bank = ?, timed_out = ?, orders = ? "
                  "WHERE game = ? AND seat = ?",
                  (seat.ident, seat.name, seat.bot, seat.invited, seat.key, seat.sig, seat.bank,
                   seat.timed_out, json.dumps(seat.orders), game_id, seat.seat))

    def start(self, game: Game) -> None:
        """A game whose every seat is taken begins (its seats are saved by the caller)."""
        self.rows("UPDATE days_games SET status = ?, to_act = ?, turn_since = ? WHERE id = ?",
                  (game.status, json.dumps(game.to_act), game.turn_since, game.id))

    def _listings(self, where: str, params: tuple[Any, ...], ident: str | None
                  ) -> list[Listing]:
        rows = self.rows(
            f"SELECT g.id, g.engine, g.days, g.status, g.state_no, g.to_act, g.turn_since, "
            f"s.seat, s.name, s.ident, s.bot FROM days_games g JOIN days_seats s "
            f"ON s.game = g.id WHERE g.id IN ({where}) ORDER BY g.turn_since, g.id, s.seat",
            params)
        games: dict[str, Listing] = {}
        for gid, engine, days, status, state_no, to_act, since, seat, name, who, bot in rows:
            if gid not in games:
                games[gid] = Listing(gid, engine, int(days), status, int(state_no),
                                     json.loads(to_act), float(since), [], [])
            games[gid].seats.append((name, who, bot))
            if ident is not None and who == ident:
                games[gid].mine.append(int(seat))
        return list(games.values())

    def games_of(self, ident: str, finished: bool = False) -> list[Listing]:
        """`ident`'s games in progress (and waiting for seats), the one waiting longest first;
        with `finished`, their finished ones too."""
        statuses = (OPEN, PLAYING, OVER) if finished else (OPEN, PLAYING)
        marks = ", ".join("?" for _ in statuses)
        return self._listings(
            f"SELECT game FROM days_seats s2 JOIN days_games g2 ON g2.id = s2.game "
            f"WHERE s2.ident = ? AND g2.status IN ({marks})", (ident, *statuses), ident)

    def invited(self, ident: str, name: str) -> list[Listing]:
        """Games with a free seat waiting for `ident` (by fingerprint or name)."""
        return self._listings(
            "SELECT game FROM days_seats s2 JOIN days_games g2 ON g2.id = s2.game "
            "WHERE g2.status = ? AND s2.ident IS NULL AND s2.bot IS NULL "
            "AND (s2.invited = ? OR LOWER(s2.invited) = LOWER(?))", (OPEN, ident, name), ident)

    def listed(self, limit: int = 100) -> list[Listing]:
        """Games listed for anyone that still have a free seat for anyone."""
        return self._listings(
            "SELECT g2.id FROM days_games g2 WHERE g2.status = ? AND g2.listed = 1 AND EXISTS "
            "(SELECT 1 FROM days_seats s2 WHERE s2.game = g2.id AND s2.ident IS NULL AND "
            "s2.bot IS NULL AND s2.invited IS NULL) ORDER BY g2.created LIMIT ?",
            (OPEN, limit), None)

    def active_count(self, ident: str) -> int:
        row = self.db.row(
            "SELECT COUNT(DISTINCT g.id) FROM days_games g JOIN days_seats s ON s.game = g.id "
            "WHERE s.ident = ? AND g.status IN (?, ?)", (ident, OPEN, PLAYING))
        return int(row[0]) if row else 0

    def due(self, before: float) -> list[str]:
        """Games being played whose current turn began before their own `days` per move
        reached `before` scaled: candidates for a timeout or a warning (see net.days.keeper)."""
        return [str(r[0]) for r in self.rows(
            "SELECT id FROM days_games WHERE status = ? AND turn_since + days * ? <= ?",
            (PLAYING, 86400.0, before))]

    def due_share(self, now: float, share: float) -> list[str]:
        """Games being played with at least `share` of a day-per-move's time gone."""
        return [str(r[0]) for r in self.rows(
            "SELECT id FROM days_games WHERE status = ? AND turn_since + days * ? <= ?",
            (PLAYING, 86400.0 * share, now))]

    def playing_ids(self) -> list[str]:
        return [str(r[0]) for r in self.rows("SELECT id FROM days_games WHERE status = ?",
                                             (PLAYING,))]

    # -- players -------------------------------------------------------------------------------
    def player(self, ident: str) -> Player | None:
        row = self.db.row(f"SELECT {_PLAYER_COLUMNS} FROM days_players WHERE ident = ?",
                           (ident,))
        if row is None:
            return None
        ident, name, finished, start, end, year, used, hook, email, digest, lang = row
        return Player(ident, name, int(finished), Away(start, end), int(year), float(used),
                      hook, email, float(digest), lang or "en")

    def players(self, idents: list[str]) -> dict[str, Player]:
        return {i: p for i in set(idents) if (p := self.player(i)) is not None}

    def keep_player(self, player: Player) -> None:
        self.rows(
            f"INSERT INTO days_players ({_PLAYER_COLUMNS}) "
            f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            f"ON CONFLICT (ident) DO UPDATE SET name = excluded.name, "
            f"finished = excluded.finished, away_from = excluded.away_from, "
            f"away_until = excluded.away_until, vacation_year = excluded.vacation_year, "
            f"vacation_used = excluded.vacation_used, webhook = excluded.webhook, "
            f"email = excluded.email, digest_sent = excluded.digest_sent, lang = excluded.lang",
            (player.ident, player.name, player.finished, player.away.start, player.away.end,
             player.vacation_year, player.vacation_used, player.webhook, player.email,
             player.digest_sent, player.lang))

    def all_players(self) -> list[Player]:
        return [p for (ident,) in self.rows("SELECT ident FROM days_players")
                if (p := self.player(str(ident))) is not None]

    # -- notices -------------------------------------------------------------------------------
    def claim(self, game: str, ident: str, kind: str, state_no: int, now: float) -> bool:
        """Whether this node is the first to send this notice (then it is marked sent)."""
        return bool(self.rows(
            "INSERT INTO days_notices (game, ident, kind, state_no, sent) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (game, ident, kind, state_no) DO NOTHING RETURNING game",
            (game, ident, kind, state_no, now)))
