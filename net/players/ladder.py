"""Where a player's ladder lives, and how finished games reach it.

At home, the ladder is the data directory's own (`ladder.sqlite` beside the records): each
player's own records make their own ladder. A public table (`tabletop-tui serve --ssh`) keeps
one for everyone who plays there: the SSH server names its own store in `TABLE_ENV` for every
session it starts (its own SQLite file, or the PostgreSQL database of `serve --db URL` or
`DB_ENV` that all the machines of one table share), and each session's app counts the games
it finished (as local player, host or guest) into that one store; a game both a host and a
guest of the table finished counts once (net.players.counted keys it).

A game is counted when its results screen opens (from the record this terminal just wrote),
and every record of the data directory not yet looked at is counted when the app starts
(`catch_up`), so a game whose screen never opened (a crash, a headless guest) counts too.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path

from net import home, records
from net.players.counted import Unrated, duplicate_round, outcome
from net.players.sqlite import SqliteLadders
from net.players.store import Change, Ladders, StoreError
from net.players.tournaments import Tournaments
from net.records import store as record_files

STORE_FILE = "ladder.sqlite"
# Set by an SSH table for its sessions: the table's one store (a file's path or a database URL).
TABLE_ENV = "TABLETOP_TUI_LADDER"
# A PostgreSQL URL (postgresql://...): the store of this machine's table and `players` command.
DB_ENV = "TABLETOP_TUI_DB"
DB_SCHEMES = ("postgresql://", "postgres://")
COUNTED = "counted"  # what `note` keeps for a record that counted (else the Unrated code)


def store_path() -> Path:
    """This data directory's own store."""
    return home.data_dir() / STORE_FILE


def store_location() -> str:
    """The store games are counted into here: the table's, else the database `DB_ENV` names,
    else this data directory's."""
    return os.environ.get(TABLE_ENV) or os.environ.get(DB_ENV) or str(store_path())


def is_database(where: str) -> bool:
    """Whether `where` names a PostgreSQL database rather than an SQLite file."""
    return where.startswith(DB_SCHEMES)


def open_store(where: str | Path | None = None) -> Ladders:
    """The ladders at `where` (a file, or a PostgreSQL URL; by default `store_location()`),
    opened and migrated for one piece of work: close them after it."""
    where = str(where or store_location())
    if is_database(where):
        from net.players.postgres import PostgresLadders  # psycopg only for a server's store

        return PostgresLadders(where)
    return SqliteLadders(Path(where))


@dataclass
class Counted:
    """What became of one record: its game's rating changes, or why it does not count."""

    changes: list[Change] = field(default_factory=list)
    refused: Unrated | None = None
    engine: str = ""  # the game's engine, once counted
    # Each player's counted games of that game by now (`count_file` alone asks): whether a
    # rating shown beside its change is still provisional.
    games: dict[str, int] = field(default_factory=dict)


def _stamp(path: Path) -> str:
    """What changes when a record does (a game finished after it was first looked at)."""
    info = path.stat()
    return f"{info.st_size}:{info.st_mtime_ns}"


def source_of(path: Path) -> str:
    """How a store names a record file it looked at: a hash of its whole path, unique to
    the file and no path itself (a table's store is shared by its machines, and holds
    nothing of one machine's folders)."""
    return hashlib.sha256(f"tabletop-tui record {path.resolve()}".encode()).hexdigest()


def count(store: Ladders, path: Path) -> Counted:
    """Count the game recorded at `path` (once: a game counted before keeps its changes)."""
    source = source_of(path)
    try:
        stamp = _stamp(path)
        record = records.load(path)
        found = outcome(record)
        _published(store, record)
    except OSError as exc:
        return Counted(refused=Unrated("damaged", error=exc.strerror or str(exc)))
    except records.RecordError as exc:
        refused = Unrated("damaged", error=str(exc))
        store.note(source, stamp, refused.code)
        return Counted(refused=refused)
    except Unrated as exc:
        if exc.code != "pending":  # a game that may still be taken up is looked at again
            store.note(source, stamp, exc.code)
        return Counted(refused=exc)
    changes = store.add_game(found)
    store.note(source, stamp, COUNTED)
    return Counted(changes, engine=found.engine)


def _published(store: Ladders, record: records.Record) -> None:
    """A duplicate table's game counts only where its round's commitment was published
    before it began: on the table whose store ran the tournament (Unrated otherwise)."""
    found = duplicate_round(record)
    if found is None:
        return
    try:
        rows = Tournaments(store)
    except StoreError:
        raise Unrated("unpublished") from None
    if not rows.published(*found, before=record.started):
        raise Unrated("unpublished")


def _games(store: Ladders, engine: str, changes: list[Change]) -> dict[str, int]:
    """How many counted games of `engine` each player of `changes` has by now."""
    games = {}
    for change in changes:
        found = store.standing(engine, change.ident)
        games[change.ident] = found[0].games if found is not None else 0
    return games


def count_file(path: Path) -> Counted:
    """`count` into this terminal's store, opened for it, with each player's games by now."""
    store = open_store()
    try:
        found = count(store, path)
        found.games = _games(store, found.engine, found.changes)
        return found
    finally:
        store.close()


def has_records() -> bool:
    """Whether this data directory holds any game record: without one (a new player's),
    `catch_up_here` has nothing to do, and an SSH session's app need not spend a tenth of its
    memory on a thread and a store to find that out."""
    return any(record_files.records_dir().glob("*.jsonl"))


def catch_up_here() -> int | None:
    """`catch_up` with this data directory's records, into the store games are counted into
    here; None if that store cannot be used now (it is no reason to stop the app)."""
    try:
        store = open_store()
        try:
            return catch_up(store)
        finally:
            store.close()
    except (StoreError, OSError, sqlite3.Error):
        return None


def catch_up(store: Ladders, folder: Path | None = None) -> int:
    """Count every record in `folder` (the data directory's) not looked at as it is now, in
    the order they were begun (their names start with the time); how many of them count."""
    folder = folder or record_files.records_dir()
    counted = 0
    for path in sorted(folder.glob("*.jsonl")):
        try:
            if store.seen(source_of(path), _stamp(path)):
                continue
        except OSError:
            continue
        counted += bool(count(store, path).changes)
    return counted
