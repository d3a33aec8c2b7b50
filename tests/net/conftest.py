"""Fixtures for the network tests: private data and rooms directories, a live relay on a
random free port of 127.0.0.1, SSH tables for it, and the players' store in each backend
(SQLite's file and a real PostgreSQL server's database), and a public table's ladder with
players of known reputation."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from netsupport import played, someone
from pg_server import NoServer, Server
from ssh_support import OpenTable
from web_support import OpenWeb

from net.players import ladder
from net.players.identity import Identity
from net.players.sqlite import SqliteLadders
from net.relay import addresses
from net.relay.server import Limits, Relay
from net.ssh.access import Access
from net.ssh.limits import SshLimits
from net.ssh.server import APP, SshConfig, SshTable
from net.web.limits import WebLimits
from net.web.server import WebConfig, WebTable


@pytest.fixture(autouse=True)
def private_dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test gets its own data directory (records, tokens) and rooms directory."""
    monkeypatch.setenv("TABLETOP_TUI_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("TABLETOP_TUI_ROOMS", str(tmp_path / "rooms"))
    return tmp_path


@pytest.fixture(scope="session")
def postgres() -> Iterator[Server]:
    """One PostgreSQL server for the whole test session (tests.net.pg_server)."""
    try:
        server = Server()
        server.start()
    except NoServer as exc:
        pytest.fail(f"no PostgreSQL server for the store's tests: {exc}", pytrace=False)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def store_at(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Where the players' store of this test lives, once per backend: this data directory's
    SQLite file, or a fresh PostgreSQL database named in $TABLETOP_TUI_DB (so that
    `ladder.open_store()` opens it, as on a table's machines)."""
    from net.players import ladder

    if request.param == "sqlite":
        return ladder.store_location()
    url = request.getfixturevalue("postgres").database()
    monkeypatch.setenv(ladder.DB_ENV, url)
    return url


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Identity]:
    """A public table's ladder, named as a table names it for its sessions: Bea finished 23
    of her 25 games there, Lou 16 of 25; Neu has none yet."""
    people = {"Bea": someone(), "Lou": someone(), "Neu": someone()}
    store = SqliteLadders(tmp_path / "table.sqlite")
    try:
        played(store, people["Bea"], 23, 2)
        played(store, people["Lou"], 16, 9)
    finally:
        store.close()
    monkeypatch.setenv(ladder.TABLE_ENV, str(tmp_path / "table.sqlite"))
    return people


@pytest.fixture
async def relay() -> AsyncIterator[Relay]:
    server = Relay(Limits(sweep_every=0.5))
    await server.start("127.0.0.1", 0)
    try:
        yield server
    finally:
        await server.stop()


@pytest.fixture
async def open_table(relay: Relay) -> AsyncIterator[OpenTable]:
    """Opens SSH tables (net.ssh.server) on 127.0.0.1, any free port, for the test's relay,
    running `app` in their sessions (the real one unless told), `starts` of them starting at
    once (0: the table's own choice); all are stopped, their children hung up, when the test
    ends."""
    tables: list[SshTable] = []

    async def opening(access: Access | None = None, app: str = APP, starts: int = 0,
                      **limits: Any) -> SshTable:
        config = SshConfig(0, "127.0.0.1", access or Access(), SshLimits(**limits))
        table = SshTable(config, relay.url, app)
        table.forks.starts = starts
        await table.start()
        tables.append(table)
        return table

    yield opening
    for table in tables:
        await table.stop()


@pytest.fixture
async def open_web(relay: Relay) -> AsyncIterator[OpenWeb]:
    """Opens web tables (net.web.server) on 127.0.0.1, any free port, for the test's relay;
    all are stopped, their tabs' apps hung up, when the test ends."""
    tables: list[WebTable] = []

    async def opening(password: str | None = None, forks: Any = None, trusted: str = "",
                      **limits: Any) -> WebTable:
        config = WebConfig(0, "127.0.0.1", password=password, limits=WebLimits(**limits),
                           trusted=addresses.networks(trusted))
        table = WebTable(config, relay.url, forks)
        await table.start()
        tables.append(table)
        return table

    yield opening
    for table in tables:
        await table.stop()
