"""The ladders of one data directory, in an SQLite file of the standard library: a player's
own ladder at home, or a whole table's when many SSH sessions of one machine write into one
(net.players.ladder says which; a table on several machines shares net.players.postgres).

Several processes may count games at once: the file runs in WAL mode (readers never wait for
the writer), every write is one `BEGIN IMMEDIATE` transaction (one writer at a time; the
others wait up to `BUSY_SECONDS`), and a game's ratings are read inside the transaction that
writes its result (net.players.sql), so two sessions finishing the same game count it once and
two games of the same players never start from the same old ratings.
"""

from __future__ import annotations

import contextlib
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from net.players.sql import Params, SqlLadders
from net.players.store import StoreError

BUSY_SECONDS = 30.0
MEMORY = ":memory:"  # SQLite's name for a store that lives and dies with its connection
WAL_RETRY = 0.01  # seconds between tries to switch a busy new file to WAL mode


class SqliteLadders(SqlLadders):
    """`net.players.store.Ladders` in one SQLite file (see the module docstring)."""

    TABLE_EXISTS = "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?"

    def __init__(self, path: Path) -> None:
        self.path = path
        self.where = str(path)
        try:
            self.db = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
            self.db.execute(f"PRAGMA busy_timeout = {int(BUSY_SECONDS * 1000)}")
            self._wal()
            self.db.execute("PRAGMA foreign_keys = ON")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"the ladder {path} cannot be used: {exc}") from None

    def _wal(self) -> None:
        """Put the file in WAL mode. Switching takes the file for itself and does not wait
        for a busy file as other statements do: a new file that several sessions open at once
        is tried again until it is free, BUSY_SECONDS at most. An in-memory store (the
        benches') has no file to share and keeps its `memory` journal."""
        deadline = time.monotonic() + BUSY_SECONDS
        while True:
            try:
                mode = self.db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
                if mode == "wal" or (mode == "memory" and str(self.path) == MEMORY):
                    return
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) and "busy" not in str(exc):
                    raise
            if time.monotonic() >= deadline:
                raise sqlite3.OperationalError("database is locked")
            time.sleep(WAL_RETRY)

    def rows(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        return self.db.execute(sql, params).fetchall()

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        self.db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")

    def close(self) -> None:
        self.db.close()
