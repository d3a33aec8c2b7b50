"""The ladders of one data directory, in an SQLite file of the standard library: a player's
own ladder at home, or a whole table's when many SSH sessions write into one (net.players.
ladder says which).

Several processes may count games at once: the file runs in WAL mode (readers never wait for
the writer), every write is one `BEGIN IMMEDIATE` transaction (one writer at a time; the
others wait up to `BUSY_SECONDS`), and a game's ratings are read inside the transaction that
writes its result, so two sessions finishing the same game count it once and two games of the
same players never start from the same old ratings.

The SQL is kept to what PostgreSQL speaks as well (`ON CONFLICT ... DO UPDATE`, `CASE`, no
ROWID, no `INSERT OR ...`), so a server's store can run the same schema and statements with
its own placeholders and its own way of taking the write lock.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

from net.players import ratings
from net.players.counted import Outcome
from net.players.ratings import Skill
from net.players.store import (
    Change,
    Opponent,
    Played,
    Standing,
    StoreError,
    Summary,
)

BUSY_SECONDS = 30.0

# The schema, one step per version: a store at version n runs steps n+1... when opened.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (  # 1: ladders, games and their seats
        """CREATE TABLE players (
            ident TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            seen DOUBLE PRECISION NOT NULL)""",
        """CREATE TABLE ratings (
            engine TEXT NOT NULL,
            ident TEXT NOT NULL,
            mu DOUBLE PRECISION NOT NULL,
            sigma DOUBLE PRECISION NOT NULL,
            games INTEGER NOT NULL,
            PRIMARY KEY (engine, ident))""",
        """CREATE TABLE games (
            key TEXT PRIMARY KEY,
            seq INTEGER NOT NULL UNIQUE,
            engine TEXT NOT NULL,
            started DOUBLE PRECISION NOT NULL,
            counted DOUBLE PRECISION NOT NULL)""",
        """CREATE TABLE seats (
            game TEXT NOT NULL REFERENCES games (key),
            seat INTEGER NOT NULL,
            ident TEXT NOT NULL,
            name TEXT NOT NULL,
            place INTEGER NOT NULL,
            left_early INTEGER NOT NULL,
            mu_before DOUBLE PRECISION NOT NULL,
            sigma_before DOUBLE PRECISION NOT NULL,
            mu_after DOUBLE PRECISION NOT NULL,
            sigma_after DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (game, seat))""",
        "CREATE INDEX seats_by_ident ON seats (ident)",
    ),
    (  # 2: the record files a data directory's ladder has looked at, so each is read once
        """CREATE TABLE sources (
            path TEXT PRIMARY KEY,
            stamp TEXT NOT NULL,
            status TEXT NOT NULL)""",
    ),
)
VERSION = len(MIGRATIONS)

# A ladder's order: the shown rating (see net.players.ratings), then more games first.
_RATING = f"(r.mu - {ratings.CAUTION} * r.sigma)"
# Each player's best seat of each game (a bot level may hold several): one game, one line.
_BEST = ("(SELECT game, ident, MIN(place) AS place, MAX(left_early) AS left_early "
         "FROM seats GROUP BY game, ident)")


class SqliteLadders:
    """`net.players.store.Ladders` in one SQLite file (see the module docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            self.db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
            self.db.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
            self.db.execute("PRAGMA journal_mode = WAL")
            self.db.execute("PRAGMA foreign_keys = ON")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"the ladder {path} cannot be used: {exc}") from None

    # -- the schema ----------------------------------------------------------------------------
    def version(self) -> int:
        row = self.db.execute("SELECT MAX(version) FROM migrations").fetchone()
        return int(row[0] or 0)

    def _migrate(self) -> None:
        self.db.execute("""CREATE TABLE IF NOT EXISTS migrations (
            version INTEGER PRIMARY KEY,
            applied DOUBLE PRECISION NOT NULL)""")
        if self.version() == VERSION:
            return
        with self._writing():
            found = self.version()  # again, now that no other process can be migrating
            if found > VERSION:
                raise StoreError(f"the ladder {self.path} was written by a newer tabletop-tui "
                                 f"(schema {found}; this one knows up to {VERSION}): update it")
            for number in range(found + 1, VERSION + 1):
                for statement in MIGRATIONS[number - 1]:
                    self.db.execute(statement)
                self.db.execute("INSERT INTO migrations (version, applied) VALUES (?, ?)",
                                (number, time.time()))

    @contextlib.contextmanager
    def _writing(self) -> Iterator[None]:
        """One write transaction, begun with the write lock taken (one writer at a time)."""
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    # -- counting ------------------------------------------------------------------------------
    def add_game(self, outcome: Outcome) -> list[Change]:
        with self._writing():
            if self.db.execute("SELECT 1 FROM games WHERE key = ?", (outcome.key,)).fetchone():
                return self._changes(outcome.key)
            seats = outcome.seats
            before = {s.ident: self._skill(outcome.engine, s.ident) for s in seats}
            moved = ratings.rate([before[s.ident] for s in seats], [s.place for s in seats],
                                 [s.left for s in seats])
            after = {ident: _merged(skill, [m for s, m in zip(seats, moved, strict=True)
                                            if s.ident == ident])
                     for ident, skill in before.items()}
            seq = self.db.execute("SELECT COALESCE(MAX(seq), 0) + 1 FROM games").fetchone()[0]
            now = time.time()
            self.db.execute("INSERT INTO games (key, seq, engine, started, counted) "
                            "VALUES (?, ?, ?, ?, ?)",
                            (outcome.key, seq, outcome.engine, outcome.started, now))
            last = len(seats)
            for number, seat in enumerate(seats):
                old, new = before[seat.ident], after[seat.ident]
                self.db.execute(
                    "INSERT INTO seats (game, seat, ident, name, place, left_early, mu_before, "
                    "sigma_before, mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (outcome.key, number, seat.ident, seat.name, last if seat.left else seat.place,
                     int(seat.left), old.mu, old.sigma, new.mu, new.sigma))
            for ident, new in after.items():
                self.db.execute(
                    "INSERT INTO ratings (engine, ident, mu, sigma, games) VALUES (?, ?, ?, ?, 1) "
                    "ON CONFLICT (engine, ident) DO UPDATE SET mu = excluded.mu, "
                    "sigma = excluded.sigma, games = ratings.games + 1",
                    (outcome.engine, ident, new.mu, new.sigma))
                name = next(s.name for s in seats if s.ident == ident)
                self.db.execute(
                    "INSERT INTO players (ident, name, seen) VALUES (?, ?, ?) "
                    "ON CONFLICT (ident) DO UPDATE SET name = excluded.name, seen = excluded.seen "
                    "WHERE excluded.seen >= players.seen",
                    (ident, name, outcome.started))
            return self._changes(outcome.key)

    def _skill(self, engine: str, ident: str) -> Skill:
        row = self.db.execute("SELECT mu, sigma FROM ratings WHERE engine = ? AND ident = ?",
                              (engine, ident)).fetchone()
        return Skill(*row) if row else Skill()

    def changes(self, key: str) -> list[Change]:
        return self._changes(key)

    def _changes(self, key: str) -> list[Change]:
        rows = self.db.execute(
            "SELECT seat, ident, name, place, left_early, mu_before, sigma_before, mu_after, "
            "sigma_after FROM seats WHERE game = ? ORDER BY seat", (key,)).fetchall()
        return [Change(seat, ident, name, place, bool(left), Skill(mb, sb), Skill(ma, sa))
                for seat, ident, name, place, left, mb, sb, ma, sa in rows]

    # -- reading -------------------------------------------------------------------------------
    def ladder(self, engine: str, limit: int | None = None) -> list[Standing]:
        query = (f"SELECT r.ident, p.name, r.mu, r.sigma, r.games FROM ratings r "
                 f"JOIN players p ON p.ident = r.ident WHERE r.engine = ? "
                 f"ORDER BY {_RATING} DESC, r.games DESC, r.ident")
        if limit is None:
            rows = self.db.execute(query, (engine,)).fetchall()
        else:
            rows = self.db.execute(query + " LIMIT ?", (engine, limit)).fetchall()
        return [Standing(place, ident, name, Skill(mu, sigma), games)
                for place, (ident, name, mu, sigma, games) in enumerate(rows, 1)]

    def standing(self, engine: str, ident: str) -> tuple[Standing, int] | None:
        row = self.db.execute(
            "SELECT p.name, r.mu, r.sigma, r.games FROM ratings r JOIN players p "
            "ON p.ident = r.ident WHERE r.engine = ? AND r.ident = ?", (engine, ident)).fetchone()
        if row is None:
            return None
        name, mu, sigma, games = row
        skill = Skill(mu, sigma)
        ahead, total = self.db.execute(
            f"SELECT SUM(CASE WHEN {_RATING} > ? OR ({_RATING} = ? AND (r.games > ? OR "
            f"(r.games = ? AND r.ident < ?))) THEN 1 ELSE 0 END), COUNT(*) FROM ratings r "
            f"WHERE r.engine = ?",
            (skill.rating, skill.rating, games, games, ident, engine)).fetchone()
        return Standing(int(ahead or 0) + 1, ident, name, skill, games), int(total)

    def summary(self, ident: str) -> list[Summary]:
        rows = self.db.execute(
            f"SELECT g.engine, COUNT(*), "
            f"SUM(CASE WHEN s.place = 1 AND s.left_early = 0 THEN 1 ELSE 0 END), AVG(s.place), "
            f"SUM(CASE WHEN s.left_early = 0 THEN 1 ELSE 0 END), r.mu, r.sigma "
            f"FROM {_BEST} s JOIN games g ON g.key = s.game "
            f"JOIN ratings r ON r.engine = g.engine AND r.ident = s.ident "
            f"WHERE s.ident = ? GROUP BY g.engine, r.mu, r.sigma ORDER BY g.engine",
            (ident,)).fetchall()
        return [Summary(engine, Skill(mu, sigma), games, int(wins), float(mean), int(finished))
                for engine, games, wins, mean, finished, mu, sigma in rows]

    def history(self, ident: str, engine: str) -> list[Played]:
        rows = self.db.execute(
            "SELECT g.key, g.started, (SELECT COUNT(*) FROM seats a WHERE a.game = g.key), "
            "MIN(s.place), MAX(s.left_early), MAX(s.mu_after), MAX(s.sigma_after) "
            "FROM seats s JOIN games g ON g.key = s.game WHERE s.ident = ? AND g.engine = ? "
            "GROUP BY g.key, g.seq, g.started ORDER BY g.seq", (ident, engine)).fetchall()
        return [Played(key, started, seats, place, bool(left), Skill(mu, sigma))
                for key, started, seats, place, left, mu, sigma in rows]

    def opponents(self, ident: str, engine: str, limit: int = 5) -> list[Opponent]:
        rows = self.db.execute(
            f"SELECT o.ident, p.name, COUNT(*), "
            f"SUM(CASE WHEN s.place < o.place THEN 1 ELSE 0 END) "
            f"FROM {_BEST} s JOIN {_BEST} o ON o.game = s.game AND o.ident <> s.ident "
            f"JOIN games g ON g.key = s.game JOIN players p ON p.ident = o.ident "
            f"WHERE s.ident = ? AND g.engine = ? GROUP BY o.ident, p.name "
            f"ORDER BY COUNT(*) DESC, o.ident LIMIT ?",
            (ident, engine, limit)).fetchall()
        return [Opponent(other, name, games, int(ahead or 0))
                for other, name, games, ahead in rows]

    def name(self, ident: str) -> str | None:
        row = self.db.execute("SELECT name FROM players WHERE ident = ?", (ident,)).fetchone()
        return str(row[0]) if row else None

    # -- the records looked at -----------------------------------------------------------------
    def seen(self, source: str, stamp: str) -> bool:
        row = self.db.execute("SELECT stamp FROM sources WHERE path = ?", (source,)).fetchone()
        return bool(row) and row[0] == stamp

    def note(self, source: str, stamp: str, status: str) -> None:
        with self._writing():
            self.db.execute(
                "INSERT INTO sources (path, stamp, status) VALUES (?, ?, ?) ON CONFLICT (path) "
                "DO UPDATE SET stamp = excluded.stamp, status = excluded.status",
                (source, stamp, status))

    def close(self) -> None:
        self.db.close()


def _merged(before: Skill, moved: list[Skill]) -> Skill:
    """A player's rating after a game in which they held every seat in `moved` (a bot level
    may fill several seats): each seat's move from the same rating, averaged, so one game
    moves a rating once."""
    if len(moved) == 1:
        return moved[0]
    mu = before.mu + sum(m.mu - before.mu for m in moved) / len(moved)
    return Skill(mu, sum(m.sigma for m in moved) / len(moved))
