"""The ladders in a PostgreSQL server's database (psycopg 3), for a table that runs on several
machines: every SSH node's sessions count into the one database `serve --db URL` names
(net.players.ladder), with the schema, migrations and statements SQLite's file runs
(net.players.sql).

Writers on many machines at once keep to the store's rules (net.players.store): every write
transaction first takes one transaction-scoped advisory lock of the database, PostgreSQL's
`BEGIN IMMEDIATE`, so one writer at a time reads a game's old ratings and writes its result,
and a game two nodes record at once is counted by the first and found by the second (its key
is the games table's primary key besides). Readers take no lock and never wait for a writer.
Every error of the server or the connection reaches the caller as a StoreError with a
sentence saying what happened, the URL shown without its password.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import psycopg

from net.players.sql import Params, SqlLadders
from net.players.store import StoreError, shown

# The advisory lock every write takes ("tabletop" in ASCII): one per database.
WRITE_LOCK = 0x7461626C65746F70
CONNECT_SECONDS = 10


def _said(exc: BaseException) -> str:
    """What psycopg or the server said, on one line."""
    return " ".join(str(exc).split()) or type(exc).__name__


class PostgresLadders(SqlLadders):
    """`net.players.store.Ladders` in a PostgreSQL database (see the module docstring)."""

    TABLE_EXISTS = ("SELECT 1 FROM pg_catalog.pg_tables WHERE tablename = ? "
                    "AND schemaname = current_schema()")

    def __init__(self, url: str) -> None:
        self.where = shown(url)
        extra: dict[str, Any] = {"application_name": "tabletop-tui"}
        if "connect_timeout" not in url:
            extra["connect_timeout"] = CONNECT_SECONDS
        try:
            self.db = psycopg.connect(url, autocommit=True, **extra)
        except psycopg.Error as exc:
            said = _said(exc).replace(url, self.where)  # a malformed URL is quoted back
            raise StoreError(f"cannot reach the database {self.where}: {said}") from None
        try:
            self._migrate()
        except BaseException:
            self.db.close()
            raise

    @contextlib.contextmanager
    def _failing(self) -> Iterator[None]:
        try:
            yield
        except psycopg.Error as exc:
            raise StoreError(f"the database {self.where} failed: {_said(exc)}") from None

    def rows(self, sql: str, params: Params = ()) -> list[tuple[Any, ...]]:
        with self._failing():
            cursor = self.db.execute(sql.replace("?", "%s"), params)  # type: ignore[arg-type]
            return cursor.fetchall() if cursor.description is not None else []

    @contextlib.contextmanager
    def writing(self) -> Iterator[None]:
        with self._failing(), self.db.transaction():
            self.db.execute("SELECT pg_advisory_xact_lock(%s)", (WRITE_LOCK,))
            yield

    def close(self) -> None:
        self.db.close()
