"""A table's puzzles in its store (the ladders' database, net.players.sql: SQLite at home,
PostgreSQL for a table on several machines): the puzzles it mined from its own players'
records, every puzzle's rating as attempts move it (the shipped set's too: its file holds
only where each starts), each player's puzzle rating per game, and which puzzles each
player tried.

Only a player's first attempt at a puzzle is rated, as on Lichess: trying it again, the
player knows the answer. A puzzle is served by rating: of the puzzles this player never
tried, the one whose rating is closest to theirs; once they tried them all, the ones they
got wrong, again unrated.

The book runs its statements through the store's own hooks (`SqlLadders._rows`, `_row` and
the one-writer `_writing`), in the SQL both backends speak, so SQLite and PostgreSQL keep
puzzles alike; its tables are migration 7 of net.players.sql.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from net.players import identity, ladder
from net.players.sql import SqlLadders
from net.players.store import Ladders, StoreError
from net.puzzles import mine
from net.puzzles.puzzle import Puzzle, PuzzleError, shipped
from net.puzzles.rating import PuzzleSkill, attempt


@dataclass(frozen=True)
class Attempt:
    """What one attempt did: right or wrong, and both ratings before and after (equal when
    the attempt was not rated: not the player's first at this puzzle, or no player)."""

    solved: bool
    rated: bool
    player_before: PuzzleSkill
    player_after: PuzzleSkill
    puzzle_before: PuzzleSkill
    puzzle_after: PuzzleSkill


class PuzzleBook:
    """The puzzle tables of one open store (see the module docstring)."""

    def __init__(self, store: Ladders) -> None:
        if not isinstance(store, SqlLadders):
            raise StoreError("this store keeps no puzzles")
        self.store = store

    # -- the table's own puzzles ---------------------------------------------------------------
    def add(self, puzzles: Iterable[Puzzle]) -> int:
        """Keep `puzzles` (a table's, mined from its records); how many were new."""
        added = 0
        with self.store._writing():
            for puzzle in puzzles:
                if self.store._row("SELECT 1 FROM puzzles WHERE id = ?", (puzzle.id,)):
                    continue
                body = json.dumps(puzzle.to_json(), sort_keys=True)
                self.store._rows(
                    "INSERT INTO puzzles (id, engine, body, mu, sigma, tries, added) "
                    "VALUES (?, ?, ?, ?, ?, 0, ?)",
                    (puzzle.id, puzzle.game, body, puzzle.rating, PuzzleSkill().sigma,
                     time.time()))
                added += 1
        return added

    def own(self, game: str) -> list[Puzzle]:
        """The table's own puzzles of `game` (a damaged one is left out)."""
        found = []
        for (body,) in self.store._rows(
                "SELECT body FROM puzzles WHERE engine = ? AND body IS NOT NULL ORDER BY id",
                (game,)):
            try:
                found.append(Puzzle.from_json(json.loads(body), "the table's store"))
            except (PuzzleError, ValueError):
                continue
        return found

    # -- ratings -----------------------------------------------------------------------------
    def puzzle_rating(self, puzzle: Puzzle) -> PuzzleSkill:
        row = self.store._row("SELECT mu, sigma FROM puzzles WHERE id = ?", (puzzle.id,))
        return PuzzleSkill(*row) if row else PuzzleSkill(puzzle.rating)

    def ratings(self, puzzles: list[Puzzle]) -> dict[str, PuzzleSkill]:
        """Each puzzle's rating by its id, a query a game."""
        kept: dict[str, PuzzleSkill] = {}
        for game in sorted({p.game for p in puzzles}):
            kept.update((str(i), PuzzleSkill(mu, sigma)) for i, mu, sigma in self.store._rows(
                "SELECT id, mu, sigma FROM puzzles WHERE engine = ?", (game,)))
        return {p.id: kept.get(p.id) or PuzzleSkill(p.rating) for p in puzzles}

    def player_rating(self, game: str, ident: str) -> PuzzleSkill:
        row = self.store._row("SELECT mu, sigma FROM puzzle_players WHERE engine = ? AND "
                              "ident = ?", (game, ident))
        return PuzzleSkill(*row) if row else PuzzleSkill()

    def tried(self, game: str, ident: str) -> dict[str, bool]:
        """The puzzles of `game` `ident` tried: whether they solved it at the first try."""
        rows = self.store._rows("SELECT puzzle, solved FROM puzzle_tries WHERE ident = ?",
                                (ident,))
        return {str(puzzle): bool(solved) for puzzle, solved in rows
                if str(puzzle).startswith(f"{game}:")}

    def attempt(self, puzzle: Puzzle, ident: str | None, solved: bool) -> Attempt:
        """Rate `ident`'s attempt at `puzzle` (their first only; None: a player without an
        identity, whose attempts rate nobody)."""
        if ident is None:
            player = PuzzleSkill()
            it = self.puzzle_rating(puzzle)
            return Attempt(solved, False, player, player, it, it)
        with self.store._writing():
            player = self.player_rating(puzzle.game, ident)
            it = self.puzzle_rating(puzzle)
            if self.store._row("SELECT 1 FROM puzzle_tries WHERE puzzle = ? AND ident = ?",
                               (puzzle.id, ident)):
                return Attempt(solved, False, player, player, it, it)
            you, after = attempt(player, it, solved)
            now = time.time()
            self.store._rows(
                "INSERT INTO puzzle_tries (puzzle, ident, solved, tried) VALUES (?, ?, ?, ?)",
                (puzzle.id, ident, int(solved), now))
            self.store._rows(
                "INSERT INTO puzzle_players (engine, ident, mu, sigma, tries) "
                "VALUES (?, ?, ?, ?, 1) ON CONFLICT (engine, ident) DO UPDATE SET "
                "mu = excluded.mu, sigma = excluded.sigma, tries = puzzle_players.tries + 1",
                (puzzle.game, ident, you.mu, you.sigma))
            self.store._rows(
                "INSERT INTO puzzles (id, engine, body, mu, sigma, tries, added) "
                "VALUES (?, ?, NULL, ?, ?, 1, ?) ON CONFLICT (id) DO UPDATE SET "
                "mu = excluded.mu, sigma = excluded.sigma, tries = puzzles.tries + 1",
                (puzzle.id, puzzle.game, after.mu, after.sigma, now))
        return Attempt(solved, True, player, you, it, after)

    # -- serving -----------------------------------------------------------------------------
    def next(self, pool: list[Puzzle], ident: str | None,
             skip: Iterable[str] = ()) -> Puzzle | None:
        """The puzzle of `pool` to serve `ident` next (see the module docstring); `skip`:
        ids not to serve now unless nothing else is left (the one just shown)."""
        if not pool:
            return None
        game = pool[0].game
        tried = self.tried(game, ident) if ident is not None else {}
        rating = self.player_rating(game, ident).mu if ident is not None else PuzzleSkill().mu
        ratings = self.ratings(pool)
        skipped = set(skip)
        fresh = [p for p in pool if p.id not in tried and p.id not in skipped]
        again = [p for p in pool if tried.get(p.id) is False and p.id not in skipped]
        for choices in (fresh, again):
            if choices:
                return min(choices, key=lambda p: (abs(ratings[p.id].mu - rating), p.id))
        # Only the skipped are left: the one just missed comes again rather than none.
        return self.next(pool, ident) if skipped else None


@contextlib.contextmanager
def opened(where: str | None = None) -> Iterator[PuzzleBook]:
    """The puzzle book of the store games are counted into here (`where`: another), open
    for one piece of work."""
    store = ladder.open_store(where)
    try:
        yield PuzzleBook(store)
    finally:
        store.close()


def pool(book: PuzzleBook, game: str) -> list[Puzzle]:
    """Every puzzle of `game` this table serves: the shipped set's and its own."""
    found = {p.id: p for p in shipped(game)}
    for puzzle in book.own(game):
        found.setdefault(puzzle.id, puzzle)
    return list(found.values())


def mine_table(book: PuzzleBook, game: str, folder: Path | None = None, *,
               iterations: int | None = None) -> tuple[list[Puzzle], int]:
    """Mine the counted records of `folder` (the data directory's) for `game`'s puzzles into
    the store: (the puzzles found, how many were new). A record is looked at once (the store
    notes it, as the ladder notes the records it counted), so mining again costs only the
    games finished since."""
    found: list[Puzzle] = []
    added = 0
    for record in mine.counted_records(folder):
        if record.engine_id != game or record.path is None:
            continue
        source = f"puzzles {ladder.source_of(record.path)}"
        stamp = str(mine.record_digest(record))
        if book.store.seen(source, stamp):
            continue
        puzzles = mine.mine_records([record], game, iterations=iterations)
        added += book.add(puzzles)
        found.extend(puzzles)
        book.store.note(source, stamp, "mined")
    return found, added


def my_ident() -> str | None:
    """The puzzle player at this terminal: this installation's (or SSH player's) identity;
    None where there is none (attempts then rate nobody)."""
    me = identity.mine()
    return None if me is None else me.fingerprint
