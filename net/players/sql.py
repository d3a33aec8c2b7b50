"""The ladders' schema, migrations and queries, once for every SQL store: SQLite's file
(net.players.sqlite) and a PostgreSQL server's database (net.players.postgres) run the same
statements, and each backend adds only what its database does its own way: how it connects,
how a write takes the one-writer-at-a-time lock, its placeholders, how it finds a table.

The SQL is kept to what both speak: `ON CONFLICT ... DO UPDATE`, `CASE`, `DOUBLE PRECISION`,
no ROWID, no `INSERT OR ...`; parameters are written `?` (a backend with other placeholders
translates them, so no statement holds a literal `?` or `%`).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from typing import Any

from net.players import identity, ratings
from net.players.counted import Outcome
from net.players.ratings import Skill
from net.players.store import (
    Change,
    Opponent,
    Played,
    SeatRow,
    Standing,
    StoreError,
    Summary,
)

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
    (  # 3: the seats SSH players were given, for their return through any machine of a table
        """CREATE TABLE seat_tokens (
            owner TEXT NOT NULL,
            room TEXT NOT NULL,
            name TEXT NOT NULL,
            token TEXT NOT NULL,
            proof_key TEXT,
            resume_key TEXT,
            ticket TEXT,
            saved DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (owner, room))""",
    ),
    (  # 4: SSH players' settings (tui.prefs), the same through any machine of a table
        """CREATE TABLE player_settings (
            owner TEXT PRIMARY KEY,
            settings TEXT NOT NULL,
            saved DOUBLE PRECISION NOT NULL)""",
    ),
    (  # 5: with a seat, the deal as its player checked it, for their next process to go on
        "ALTER TABLE seat_tokens ADD COLUMN deal TEXT",
    ),
    (  # 6: where an SSH player sits (tui.comeback), for `resume` through any machine
        """CREATE TABLE player_places (
            owner TEXT PRIMARY KEY,
            place TEXT NOT NULL,
            saved DOUBLE PRECISION NOT NULL)""",
    ),
    (  # 7: puzzles (net.puzzles.book): a table's own, every puzzle's rating, players' ratings
        """CREATE TABLE puzzles (
            id TEXT PRIMARY KEY,
            engine TEXT NOT NULL,
            body TEXT,
            mu DOUBLE PRECISION NOT NULL,
            sigma DOUBLE PRECISION NOT NULL,
            tries INTEGER NOT NULL,
            added DOUBLE PRECISION NOT NULL)""",
        """CREATE TABLE puzzle_players (
            engine TEXT NOT NULL,
            ident TEXT NOT NULL,
            mu DOUBLE PRECISION NOT NULL,
            sigma DOUBLE PRECISION NOT NULL,
            tries INTEGER NOT NULL,
            PRIMARY KEY (engine, ident))""",
        """CREATE TABLE puzzle_tries (
            puzzle TEXT NOT NULL,
            ident TEXT NOT NULL,
            solved INTEGER NOT NULL,
            tried DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (puzzle, ident))""",
    ),
    (  # 8: tournaments (net.players.tournaments): the event, its field, rounds and tables
        """CREATE TABLE tournaments (
            id TEXT PRIMARY KEY,
            engine TEXT NOT NULL,
            kind TEXT NOT NULL,
            rounds INTEGER NOT NULL,
            size INTEGER NOT NULL,
            starts DOUBLE PRECISION NOT NULL,
            length DOUBLE PRECISION NOT NULL,
            duplicate INTEGER NOT NULL,
            season TEXT,
            organiser TEXT NOT NULL,
            status TEXT NOT NULL,
            created DOUBLE PRECISION NOT NULL)""",
        """CREATE TABLE tournament_players (
            tournament TEXT NOT NULL REFERENCES tournaments (id),
            player TEXT NOT NULL,
            name TEXT NOT NULL,
            entry INTEGER NOT NULL,
            bot TEXT,
            PRIMARY KEY (tournament, player))""",
        """CREATE TABLE tournament_rounds (
            tournament TEXT NOT NULL REFERENCES tournaments (id),
            round INTEGER NOT NULL,
            commitment TEXT,
            seed TEXT,
            started DOUBLE PRECISION NOT NULL,
            finished DOUBLE PRECISION,
            PRIMARY KEY (tournament, round))""",
        """CREATE TABLE tournament_tables (
            tournament TEXT NOT NULL REFERENCES tournaments (id),
            round INTEGER NOT NULL,
            board INTEGER NOT NULL,
            seats TEXT NOT NULL,
            places TEXT,
            absent TEXT,
            deal_seed TEXT,
            game TEXT,
            PRIMARY KEY (tournament, round, board))""",
        """CREATE TABLE tournament_seats (
            tournament TEXT NOT NULL REFERENCES tournaments (id),
            round INTEGER NOT NULL,
            player TEXT NOT NULL,
            code TEXT NOT NULL,
            token TEXT NOT NULL,
            proof_key TEXT NOT NULL,
            PRIMARY KEY (tournament, round, player))""",
    ),
    (  # 9: games over days the table hosts itself (net.days), their seats, moves and players
        """CREATE TABLE days_games (
            id TEXT PRIMARY KEY,
            engine TEXT NOT NULL,
            options TEXT NOT NULL,
            secret TEXT NOT NULL,
            salt TEXT NOT NULL,
            days INTEGER NOT NULL,
            creator TEXT NOT NULL,
            listed INTEGER NOT NULL,
            status TEXT NOT NULL,
            state_no INTEGER NOT NULL,
            to_act TEXT NOT NULL,
            turn_since DOUBLE PRECISION NOT NULL,
            created DOUBLE PRECISION NOT NULL,
            result TEXT,
            record TEXT)""",
        "CREATE INDEX days_games_by_status ON days_games (status, listed)",
        """CREATE TABLE days_seats (
            game TEXT NOT NULL REFERENCES days_games (id),
            seat INTEGER NOT NULL,
            ident TEXT,
            name TEXT NOT NULL,
            bot TEXT,
            invited TEXT,
            proof_key TEXT,
            sig TEXT,
            bank DOUBLE PRECISION NOT NULL,
            timed_out INTEGER,
            orders TEXT NOT NULL,
            PRIMARY KEY (game, seat))""",
        "CREATE INDEX days_seats_by_ident ON days_seats (ident)",
        """CREATE TABLE days_moves (
            game TEXT NOT NULL REFERENCES days_games (id),
            n INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            move TEXT NOT NULL,
            by_whom TEXT NOT NULL,
            at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (game, n))""",
        """CREATE TABLE days_players (
            ident TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            finished INTEGER NOT NULL,
            away_from DOUBLE PRECISION,
            away_until DOUBLE PRECISION,
            vacation_year INTEGER NOT NULL,
            vacation_used DOUBLE PRECISION NOT NULL,
            webhook TEXT,
            email TEXT,
            digest_sent DOUBLE PRECISION NOT NULL)""",
        """CREATE TABLE days_notices (
            game TEXT NOT NULL,
            ident TEXT NOT NULL,
            kind TEXT NOT NULL,
            state_no INTEGER NOT NULL,
            sent DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (game, ident, kind, state_no))""",
    ),
    (  # 10: the language a player over days is told in (net.days.words), set with the notices
        "ALTER TABLE days_players ADD COLUMN lang TEXT",
    ),
    (  # 11: when a tournament's director last said it directs it, and each table's room code,
        # so a director that died is taken over and its tables resumed (net.director)
        "ALTER TABLE tournaments ADD COLUMN directed DOUBLE PRECISION",
        "ALTER TABLE tournament_tables ADD COLUMN code TEXT",
    ),
)
# The most seats one owner keeps (rooms are short-lived): the newest are kept.
SEATS_KEPT = 50
VERSION = len(MIGRATIONS)

_MIGRATIONS_TABLE = """CREATE TABLE IF NOT EXISTS migrations (
    version INTEGER PRIMARY KEY,
    applied DOUBLE PRECISION NOT NULL)"""
# A ladder's order: the shown rating (see net.players.ratings), then more games first.
_RATING = f"(r.mu - {ratings.CAUTION} * r.sigma)"
# Each player's best seat of each game (a bot level may hold several): one game, one line.
_BEST = ("(SELECT game, ident, MIN(place) AS place, MAX(left_early) AS left_early "
         "FROM seats GROUP BY game, ident)")

Params = Sequence[Any]


class SqlLadders:
    """`net.players.store.Ladders` on an SQL database; a backend connects in its `__init__`,
    then calls `_migrate`, and supplies the hooks below."""

    # Whether a table of this name (the one parameter) exists: one row if it does.
    TABLE_EXISTS: str
    where: str  # the store as its messages name it (a path, a URL without its password)

    # -- the backend's hooks: public, for the other stores of a table (puzzles, tournaments,
    # games over days) that keep their tables in this database through this connection ----------
    def rows(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        """Run one statement; the rows it gives."""
        raise NotImplementedError

    def writing(self) -> contextlib.AbstractContextManager[None]:
        """One write transaction, begun with the store's write lock taken (one writer at a
        time across every process and machine writing to it); rolled back on an error."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    def row(self, sql: str, params: Params = ()) -> tuple[Any, ...] | None:
        """Run one statement; its first row, if any."""
        rows = self.rows(sql, params)
        return rows[0] if rows else None

    # -- the schema ----------------------------------------------------------------------------
    def version(self) -> int:
        if self.row(self.TABLE_EXISTS, ("migrations",)) is None:
            return 0
        row = self.row("SELECT MAX(version) FROM migrations")
        return int(row[0] or 0) if row else 0

    def _migrate(self) -> None:
        if self.version() == VERSION:
            return
        with self.writing():
            # Again, now that no other process can be migrating (and the table made under the
            # lock: two PostgreSQL sessions creating it at once can collide even IF NOT EXISTS).
            self.rows(_MIGRATIONS_TABLE)
            found = self.version()
            if found > VERSION:
                raise StoreError(f"the ladder {self.where} was written by a newer tabletop-tui "
                                 f"(schema {found}; this one knows up to {VERSION}): update it")
            for number in range(found + 1, VERSION + 1):
                for statement in MIGRATIONS[number - 1]:
                    self.rows(statement)
                self.rows("INSERT INTO migrations (version, applied) VALUES (?, ?)",
                           (number, time.time()))

    # -- counting ------------------------------------------------------------------------------
    def add_game(self, outcome: Outcome) -> list[Change]:
        with self.writing():
            if self.row("SELECT 1 FROM games WHERE key = ?", (outcome.key,)):
                return self._changes(outcome.key)
            seats = outcome.seats
            before = {s.ident: self._skill(outcome.engine, s.ident) for s in seats}
            moved = ratings.rate([before[s.ident] for s in seats], [s.place for s in seats],
                                 [s.left for s in seats])
            moved = self._weighed(outcome, before, moved)
            after = {ident: _merged(skill, [m for s, m in zip(seats, moved, strict=True)
                                            if s.ident == ident])
                     for ident, skill in before.items()}
            row = self.row("SELECT COALESCE(MAX(seq), 0) + 1 FROM games")
            assert row is not None
            now = time.time()
            self.rows("INSERT INTO games (key, seq, engine, started, counted) "
                       "VALUES (?, ?, ?, ?, ?)",
                       (outcome.key, int(row[0]), outcome.engine, outcome.started, now))
            last = len(seats)
            for number, seat in enumerate(seats):
                old, new = before[seat.ident], after[seat.ident]
                self.rows(
                    "INSERT INTO seats (game, seat, ident, name, place, left_early, mu_before, "
                    "sigma_before, mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (outcome.key, number, seat.ident, seat.name, last if seat.left else seat.place,
                     int(seat.left), old.mu, old.sigma, new.mu, new.sigma))
            for ident, new in after.items():
                self.rows(
                    "INSERT INTO ratings (engine, ident, mu, sigma, games) VALUES (?, ?, ?, ?, 1) "
                    "ON CONFLICT (engine, ident) DO UPDATE SET mu = excluded.mu, "
                    "sigma = excluded.sigma, games = ratings.games + 1",
                    (outcome.engine, ident, new.mu, new.sigma))
                name = next(s.name for s in seats if s.ident == ident)
                self.rows(
                    "INSERT INTO players (ident, name, seen) VALUES (?, ?, ?) "
                    "ON CONFLICT (ident) DO UPDATE SET name = excluded.name, seen = excluded.seen "
                    "WHERE excluded.seen >= players.seen",
                    (ident, name, outcome.started))
            return self._changes(outcome.key)

    def _weighed(self, outcome: Outcome, before: dict[str, Skill],
                 moved: list[Skill]) -> list[Skill]:
        """Each seat's move scaled by `ratings.weight` of its opponents (new players and
        repeated pairs count less: farming with second keys is pointless)."""
        seats = outcome.seats
        games = {s.ident: self._games(outcome.engine, s.ident) for s in seats}
        bots = {s.ident: s.ident.startswith(identity.BOT_PREFIX) for s in seats}
        out = []
        for seat, after in zip(seats, moved, strict=True):
            others = {o.ident for o in seats if o.ident != seat.ident}
            share = ratings.weight([(games[o], bots[o],
                                     self._met(outcome.engine, seat.ident, o))
                                    for o in sorted(others)])
            out.append(ratings.damped(before[seat.ident], after, share, seat.left))
        return out

    def _games(self, engine: str, ident: str) -> int:
        row = self.row("SELECT games FROM ratings WHERE engine = ? AND ident = ?",
                        (engine, ident))
        return int(row[0]) if row else 0

    def _met(self, engine: str, one: str, other: str) -> int:
        """How many counted games of `engine` `one` and `other` played together."""
        row = self.row("SELECT COUNT(DISTINCT a.game) FROM seats a JOIN seats b "
                        "ON b.game = a.game JOIN games g ON g.key = a.game "
                        "WHERE g.engine = ? AND a.ident = ? AND b.ident = ?",
                        (engine, one, other))
        return int(row[0]) if row else 0

    def _skill(self, engine: str, ident: str) -> Skill:
        row = self.row("SELECT mu, sigma FROM ratings WHERE engine = ? AND ident = ?",
                        (engine, ident))
        return Skill(*row) if row else Skill()

    def changes(self, key: str) -> list[Change]:
        return self._changes(key)

    def _changes(self, key: str) -> list[Change]:
        rows = self.rows(
            "SELECT seat, ident, name, place, left_early, mu_before, sigma_before, mu_after, "
            "sigma_after FROM seats WHERE game = ? ORDER BY seat", (key,))
        return [Change(seat, ident, name, place, bool(left), Skill(mb, sb), Skill(ma, sa))
                for seat, ident, name, place, left, mb, sb, ma, sa in rows]

    # -- reading -------------------------------------------------------------------------------
    def ladder(self, engine: str, limit: int | None = None) -> list[Standing]:
        query = (f"SELECT r.ident, p.name, r.mu, r.sigma, r.games FROM ratings r "
                 f"JOIN players p ON p.ident = r.ident WHERE r.engine = ? "
                 f"ORDER BY {_RATING} DESC, r.games DESC, r.ident")
        if limit is None:
            rows = self.rows(query, (engine,))
        else:
            rows = self.rows(query + " LIMIT ?", (engine, limit))
        return [Standing(place, ident, name, Skill(mu, sigma), games)
                for place, (ident, name, mu, sigma, games) in enumerate(rows, 1)]

    def standing(self, engine: str, ident: str) -> tuple[Standing, int] | None:
        row = self.row(
            "SELECT p.name, r.mu, r.sigma, r.games FROM ratings r JOIN players p "
            "ON p.ident = r.ident WHERE r.engine = ? AND r.ident = ?", (engine, ident))
        if row is None:
            return None
        name, mu, sigma, games = row
        skill = Skill(mu, sigma)
        counts = self.row(
            f"SELECT SUM(CASE WHEN {_RATING} > ? OR ({_RATING} = ? AND (r.games > ? OR "
            f"(r.games = ? AND r.ident < ?))) THEN 1 ELSE 0 END), COUNT(*) FROM ratings r "
            f"WHERE r.engine = ?",
            (skill.rating, skill.rating, games, games, ident, engine))
        assert counts is not None
        ahead, total = counts
        return Standing(int(ahead or 0) + 1, ident, name, skill, games), int(total)

    def summary(self, ident: str) -> list[Summary]:
        rows = self.rows(
            f"SELECT g.engine, COUNT(*), "
            f"SUM(CASE WHEN s.place = 1 AND s.left_early = 0 THEN 1 ELSE 0 END), AVG(s.place), "
            f"SUM(CASE WHEN s.left_early = 0 THEN 1 ELSE 0 END), r.mu, r.sigma "
            f"FROM {_BEST} s JOIN games g ON g.key = s.game "
            f"JOIN ratings r ON r.engine = g.engine AND r.ident = s.ident "
            f"WHERE s.ident = ? GROUP BY g.engine, r.mu, r.sigma ORDER BY g.engine",
            (ident,))
        return [Summary(engine, Skill(mu, sigma), int(games), int(wins), float(mean),
                        int(finished))
                for engine, games, wins, mean, finished, mu, sigma in rows]

    def history(self, ident: str, engine: str) -> list[Played]:
        rows = self.rows(
            "SELECT g.key, g.started, (SELECT COUNT(*) FROM seats a WHERE a.game = g.key), "
            "MIN(s.place), MAX(s.left_early), MAX(s.mu_after), MAX(s.sigma_after) "
            "FROM seats s JOIN games g ON g.key = s.game WHERE s.ident = ? AND g.engine = ? "
            "GROUP BY g.key, g.seq, g.started ORDER BY g.seq", (ident, engine))
        return [Played(key, started, int(seats), place, bool(left), Skill(mu, sigma))
                for key, started, seats, place, left, mu, sigma in rows]

    def opponents(self, ident: str, engine: str, limit: int = 5) -> list[Opponent]:
        rows = self.rows(
            f"SELECT o.ident, p.name, COUNT(*), "
            f"SUM(CASE WHEN s.place < o.place THEN 1 ELSE 0 END) "
            f"FROM {_BEST} s JOIN {_BEST} o ON o.game = s.game AND o.ident <> s.ident "
            f"JOIN games g ON g.key = s.game JOIN players p ON p.ident = o.ident "
            f"WHERE s.ident = ? AND g.engine = ? GROUP BY o.ident, p.name "
            f"ORDER BY COUNT(*) DESC, o.ident LIMIT ?",
            (ident, engine, limit))
        return [Opponent(other, name, int(games), int(ahead or 0))
                for other, name, games, ahead in rows]

    def name(self, ident: str) -> str | None:
        row = self.row("SELECT name FROM players WHERE ident = ?", (ident,))
        return str(row[0]) if row else None

    # -- the records looked at -----------------------------------------------------------------
    def seen(self, source: str, stamp: str) -> bool:
        row = self.row("SELECT stamp FROM sources WHERE path = ?", (source,))
        return bool(row) and row[0] == stamp

    def note(self, source: str, stamp: str, status: str) -> None:
        with self.writing():
            self.rows(
                "INSERT INTO sources (path, stamp, status) VALUES (?, ?, ?) ON CONFLICT (path) "
                "DO UPDATE SET stamp = excluded.stamp, status = excluded.status",
                (source, stamp, status))


    # -- SSH players' seats (net.peer.tokens) ------------------------------------------------------
    # Bearer secrets: every statement names its owner, and none lists another owner's rows.
    def seat(self, owner: str, room: str) -> SeatRow | None:
        """What `owner` keeps for the room `room` (a hash of its join code, never the code)."""
        row = self.row("SELECT name, token, proof_key, resume_key, ticket, deal FROM seat_tokens "
                        "WHERE owner = ? AND room = ?", (owner, room))
        return None if row is None else SeatRow(*row)

    def keep_seat(self, owner: str, room: str, seat: SeatRow) -> None:
        """Keep `seat` for `owner`'s return to `room`, and only their newest `SEATS_KEPT`."""
        with self.writing():
            self.rows(
                "INSERT INTO seat_tokens (owner, room, name, token, proof_key, resume_key, "
                "ticket, deal, saved) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (owner, room) "
                "DO UPDATE SET name = excluded.name, token = excluded.token, "
                "proof_key = excluded.proof_key, resume_key = excluded.resume_key, "
                "ticket = excluded.ticket, deal = excluded.deal, saved = excluded.saved",
                (owner, room, *seat, time.time()))
            self.rows(
                "DELETE FROM seat_tokens WHERE owner = ? AND room NOT IN (SELECT room FROM "
                "seat_tokens WHERE owner = ? ORDER BY saved DESC, room LIMIT ?)",
                (owner, owner, SEATS_KEPT))


    def place(self, owner: str) -> str | None:
        """Where `owner` sits (JSON text, net.peer.places); None if nowhere."""
        row = self.row("SELECT place FROM player_places WHERE owner = ?", (owner,))
        return None if row is None else str(row[0])

    def keep_place(self, owner: str, place: str | None) -> None:
        with self.writing():
            if place is None:
                self.rows("DELETE FROM player_places WHERE owner = ?", (owner,))
                return
            self.rows(
                "INSERT INTO player_places (owner, place, saved) VALUES (?, ?, ?) "
                "ON CONFLICT (owner) DO UPDATE SET place = excluded.place, "
                "saved = excluded.saved", (owner, place, time.time()))

    def settings(self, owner: str) -> str | None:
        """`owner`'s settings as they last kept them (JSON text); None if never."""
        row = self.row("SELECT settings FROM player_settings WHERE owner = ?", (owner,))
        return None if row is None else str(row[0])

    def keep_settings(self, owner: str, settings: str) -> None:
        with self.writing():
            self.rows(
                "INSERT INTO player_settings (owner, settings, saved) VALUES (?, ?, ?) "
                "ON CONFLICT (owner) DO UPDATE SET settings = excluded.settings, "
                "saved = excluded.saved", (owner, settings, time.time()))


def _merged(before: Skill, moved: list[Skill]) -> Skill:
    """A player's rating after a game in which they held every seat in `moved` (a bot level
    may fill several seats): each seat's move from the same rating, averaged, so one game
    moves a rating once."""
    if len(moved) == 1:
        return moved[0]
    mu = before.mu + sum(m.mu - before.mu for m in moved) / len(moved)
    return Skill(mu, sum(m.sigma for m in moved) / len(moved))

