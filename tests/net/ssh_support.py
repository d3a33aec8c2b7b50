"""A player at an SSH table, for tests: asyncssh's client on 127.0.0.1 feeding a `pyte` terminal
emulator, so a test reads the screen the player would see (not the escape codes) and types
keys the way a terminal sends them."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable
from typing import Any

import asyncssh
from watched import TIMEOUT, WatchedScreen

from net.ssh.server import SshTable

OpenTable = Callable[..., Awaitable[SshTable]]  # the `open_table` fixture (conftest.py)

# What a terminal sends for the keys the tests press.
KEYS = {
    "enter": b"\r", "tab": b"\t", "escape": b"\x1b", "space": b" ",
    "up": b"\x1b[A", "down": b"\x1b[B", "right": b"\x1b[C", "left": b"\x1b[D",
    "f4": b"\x1bOS", "f5": b"\x1b[15~", "ctrl+q": b"\x11", "ctrl+z": b"\x1a",
}


class Player(WatchedScreen, asyncssh.SSHClientSession[bytes]):
    """One SSH session: what it drew (`screen`), what it said on stderr, how it ended."""

    def __init__(self, cols: int, rows: int, input_ends: bool = False) -> None:
        super().__init__(cols, rows)
        self.raw = bytearray()
        self.stderr = b""
        self.status: int | None = None
        self.closed = asyncio.Event()
        self.conn: asyncssh.SSHClientConnection | None = None
        self.chan: asyncssh.SSHClientChannel[bytes] | None = None
        self.input_ends = input_ends

    # -- asyncssh callbacks --------------------------------------------------------------------
    def connection_made(self, chan: asyncssh.SSHClientChannel[bytes]) -> None:  # type: ignore[override]
        """With `input_ends`, the input ends before the shell or command is even asked for,
        as OpenSSH does with `< /dev/null`."""
        if self.input_ends:
            chan.write_eof()

    def data_received(self, data: bytes, datatype: asyncssh.DataType) -> None:
        if datatype == asyncssh.EXTENDED_DATA_STDERR:
            self.stderr += data
        else:
            self.raw += data
            self.stream.feed(data)
        self._changed.set()

    def exit_status_received(self, status: int) -> None:
        self.status = status

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed.set()
        self._changed.set()

    # -- reading the screen --------------------------------------------------------------------
    def gone(self) -> str | None:
        return "the session closed" if self.closed.is_set() else None

    def report(self) -> str:
        return f"\nstderr: {self.stderr!r}"

    def line(self, row: int) -> str:
        return self.screen.display[row]

    def reversed_text(self) -> str:
        """The characters drawn in reverse video (Textual's focused button)."""
        screen = self.screen
        return "\n".join(
            "".join(screen.buffer[row][col].data for col in range(screen.columns)
                    if screen.buffer[row][col].reverse).strip()
            for row in range(screen.lines))

    async def wait_closed(self, timeout: float = TIMEOUT) -> None:
        await asyncio.wait_for(self.closed.wait(), timeout)

    # -- typing --------------------------------------------------------------------------------
    def press(self, *keys: str) -> None:
        assert self.chan is not None
        for key in keys:
            self.chan.write(KEYS.get(key, key.encode()))

    def resize(self, cols: int, rows: int) -> None:
        assert self.chan is not None
        self.screen.resize(rows, cols)
        self.chan.change_terminal_size(cols, rows)

    async def hang_up(self) -> None:
        """Drop the connection without a goodbye, as a lost network would."""
        assert self.conn is not None
        self.conn.abort()
        await self.wait_closed()

    async def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            await self.conn.wait_closed()


class _Answers(asyncssh.SSHClient):
    """Takes part in keyboard-interactive login as OpenSSH does (asyncssh's client only does
    so when it has a password): how a client without keys gets into an open table."""

    def kbdint_auth_requested(self) -> str:
        return ""


async def connect(port: int, username: str, *, key: asyncssh.SSHKey | None = None,
                  command: str | None = None, pty: bool = True, size: tuple[int, int] = (100, 30),
                  env: dict[str, str] | None = None, password: str | None = None,
                  input_ends: bool = False, host: str = "127.0.0.1",
                  source: str | None = None) -> Player:
    """Log in (with `key`, else keyless) to `host` (from the address `source`, e.g. another
    of 127.0.0.0/8) and open a session, with a terminal unless `pty` is False, its input ended
    at once if `input_ends` (`< /dev/null`); returns the player once the session is open."""
    conn = await asyncssh.connect(
        host, port, username=username, known_hosts=None, config=None, agent_path=None,
        client_keys=[key] if key is not None else None, password=password,
        preferred_auth="publickey,password,keyboard-interactive", client_factory=_Answers,
        local_addr=(source, 0) if source else None,
    )
    player = Player(*size, input_ends=input_ends)
    player.conn = conn
    terminal: dict[str, Any] = (
        {"term_type": "xterm-256color", "term_size": size} if pty else {})
    player.chan, _ = await conn.create_session(
        lambda: player, command, encoding=None, env=env or {}, **terminal)
    return player


def code_on(player: Player) -> str | None:
    """The join code the host's lobby shows."""
    found = re.search(r"join ([0-9A-Z]{4}-[0-9A-Z]{4}-[0-9A-Z]{4})", player.text())
    return found.group(1) if found else None


async def host_with_a_bot(player: Player, form: str = "Host a networked game") -> str:
    """From the menu: open a room of Schöne Sch#!?e on the table's relay (`form`: a text
    the host form shows), a bot in seat 2; returns the join code."""
    await player.wait_for("Host a game", "the menu")
    player.press("down", "enter")
    await player.wait_for(form, "the host form")
    player.press("f5")
    code = await player.wait_for(lambda: code_on(player), "the join code")
    player.press("tab")  # the first empty seat's "+ Bot"
    await player.wait_for(lambda: "+ Bot" in player.reversed_text(), "+ Bot focused")
    player.press("enter")
    await player.wait_for("Bot 2", "a bot in seat 2")
    return str(code)


def box_at(player: Player) -> int | None:
    """The column of the menu's title box (None while a redraw has not drawn it yet)."""
    found = player.find("╔")
    return None if found is None else found[0]


def exact(addr: str) -> str:
    """Every address counted on its own. The table counts the machine's loopback addresses as
    one (net.relay.addresses); tests that play two addresses use 127.0.0.1 and 127.0.0.2."""
    return addr


async def until(check: Callable[[], Any], what: str, timeout: float = 20.0) -> Any:
    async with asyncio.timeout(timeout):
        while not (found := check()):
            await asyncio.sleep(0.02)
    return found


async def stalled_login(port: int, source: str,
                        ) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TCP connection from `source` that reads the server's version line and says nothing:
    a login held open for as long as the server lets it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    assert (await asyncio.wait_for(reader.readline(), 10)).startswith(b"SSH-2.0-")
    return reader, writer
