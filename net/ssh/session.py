"""One SSH session: what it asked for (the menu, `join CODE`, `watch CODE` or `resume`), the
checks it must pass, then its child app on a pseudo-terminal (net.ssh.pty) until either side
ends.

What the client types reaches the app as valid UTF-8 whatever it sent: a Latin-1 "ä", xterm's
8-bit Alt or PuTTY set to the wrong character set would otherwise end the app (Textual decodes
its input strictly). The decoding is incremental, so a character split across two packets
survives, and a byte that is no UTF-8 becomes U+FFFD. How much it may type and how often its
window size is passed on are kept in bounds by net.ssh.flood, and so is what waits of it.

The app learns the table's port, whether the player has a key, and where to put a crash's
traceback from its environment (net.ssh.inside). A crash costs the player one line and a
non-zero exit status. The traceback cannot travel on the app's stderr, which is its terminal
(Textual draws there): the app writes it to a file in the player's own directory, which this
session reads into the table's log (the server's stderr) and deletes once the app ended.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import logging
import secrets
import shlex
import time
from pathlib import Path
from typing import TYPE_CHECKING

import asyncssh

from net import words
from net.ssh import inside
from net.ssh.access import Visitor
from net.ssh.flood import Inflow, Spaced
from net.ssh.pty import TERMINAL_RESET, PtyChild
from net.ssh.words import Line, said, saying, took
from net.wire import codes

if TYPE_CHECKING:
    from net.ssh.server import SshTable

log = logging.getLogger("tabletop.sshd")

DEFAULT_TERM = "xterm-256color"
# The most of a crashed app's traceback the log takes.
MAX_REPORT = 64 * 1024


class NotTaken(ValueError):
    """An SSH command the table does not take; `line` says why in a language (the error's
    text is the English line)."""

    def __init__(self, line: Line) -> None:
        super().__init__(line("en"))
        self.line = line


def command_args(command: str) -> list[str]:
    """The app's arguments for an SSH command; NotTaken with the line to show otherwise."""
    try:
        parts = shlex.split(command)
    except ValueError:
        parts = [command]
    if not parts:
        return []
    if parts == ["resume"]:
        return ["back"]
    if parts[0] in ("join", "watch") and len(parts) == 2:
        try:
            code = codes.normalise_join(parts[1])
        except codes.BadCode as exc:
            raise NotTaken(saying("code", code=repr(parts[1]), why=str(exc))) from None
        return ["join", codes.display(code)] + (["--watch"] if parts[0] == "watch" else [])
    shown = command if len(command) <= 40 else command[:40] + "…"
    raise NotTaken(saying("command", command=repr(shown)))


def take_report(report: Path) -> str | None:
    """The traceback a crashed app left in `report` (net.ssh.inside), which is then deleted;
    None if it left none."""
    try:
        with report.open("rb") as handle:
            text = handle.read(MAX_REPORT).decode(errors="replace")
    except OSError:
        return None
    with contextlib.suppress(OSError):
        report.unlink()
    return text


class TableSession(asyncssh.SSHServerSession[bytes]):
    """One session: its checks, then its child app, until either side ends."""

    def __init__(self, table: SshTable, visitor: Visitor) -> None:
        self.table = table
        self.visitor = visitor
        self.chan: asyncssh.SSHServerChannel[bytes] | None = None
        self.command: str | None = None
        self.term: str | None = None
        self.size = (80, 24)
        self.child: PtyChild | None = None
        self.gone = False
        self.lang = "en"  # the player's, as their client's locale says (net.ssh.words)
        # Why this side ended the session's app, to tell the player.
        self.ending: Line | None = None
        self.status: int | None = None  # the app's exit status, once it ended
        self.watching = False  # `watch CODE`: a game going on in front of it is no idleness
        self.last_input = time.monotonic()
        self._task: asyncio.Task[None] | None = None
        self._hanging_up: asyncio.Task[None] | None = None
        self._utf8 = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._inflow: Inflow | None = None  # once the app runs
        self._resizes = Spaced(self._pass_size)

    # -- asyncssh callbacks --------------------------------------------------------------------
    def connection_made(self, chan: asyncssh.SSHServerChannel[bytes]) -> None:  # type: ignore[override]
        self.chan = chan

    def pty_requested(self, term_type: str, term_size: tuple[int, int, int, int],
                      term_modes: object) -> bool:
        self.term = term_type
        self._set_size(term_size[0], term_size[1])
        return True

    def shell_requested(self) -> bool:
        self.command = ""
        return True

    def exec_requested(self, command: str) -> bool:
        self.command = command
        return True

    def subsystem_requested(self, subsystem: str) -> bool:
        return False

    def session_started(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    def eof_received(self) -> bool:
        """Keep sending after the client's input ends (`ssh -T HOST < /dev/null` must still
        get its line and exit status); the session ends with the app or the connection."""
        return True

    def data_received(self, data: bytes, datatype: object) -> None:
        self.last_input = time.monotonic()
        if self._inflow is not None and (text := self._utf8.decode(data)):
            self._inflow.take(text.encode())

    def _to_app(self, data: bytes) -> None:
        if self.child is not None:
            self.child.write(data)

    def _app_ready(self) -> bool:
        return self.child is not None and not self.child.input_waiting

    def _pause_reading(self) -> None:
        if self.chan is not None and not self.gone:
            self.chan.pause_reading()

    def _resume_reading(self) -> None:
        if self.chan is not None and not self.gone:
            self.chan.resume_reading()

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        self._set_size(width, height)
        self._resizes.ask()

    def _pass_size(self) -> None:
        if self.child is not None:
            self.child.resize(*self.size)

    def pause_writing(self) -> None:
        if self.child is not None:
            self.child.pause_output()

    def resume_writing(self) -> None:
        if self.child is not None:
            self.child.resume_output()

    def connection_lost(self, exc: Exception | None) -> None:
        self.gone = True
        self._resizes.cancel()
        if self._inflow is not None:
            self._inflow.close()
        if self.child is not None:
            self._hanging_up = asyncio.get_running_loop().create_task(self.child.hang_up())

    # -- the session -------------------------------------------------------------------------
    @property
    def port(self) -> int:
        """The port the player reached the table on, which advice names (behind a balancer
        its port, not this node's)."""
        return self.visitor.port or self.table.port

    def _set_size(self, cols: int, rows: int) -> None:
        limits = self.table.limits
        self.size = (min(max(cols, 1), limits.max_cols) if cols else 80,
                     min(max(rows, 1), limits.max_rows) if rows else 24)

    async def _run(self) -> None:
        if self.chan is not None:
            self.lang = words.language(self.chan.get_environment())
        why = self.table.knock(self.visitor.addr)
        if why is not None:
            self._refuse(why)
            return
        try:
            args = command_args(self.command or "")
        except NotTaken as exc:  # what was asked is not logged: it may be a mistyped code
            self._refuse(exc.line, logged="a command the table does not take")
            return
        if self.term is None:
            self._refuse(saying("terminal", port=self.port))
            return
        self.watching = "--watch" in args
        why = self._name_taken() or self.table.admit(self)
        if why is not None:
            self._refuse(why)
            return
        try:
            await self._play(args)
        finally:
            self.table.release(self)

    def _name_taken(self) -> Line | None:
        """A player without a key is only a name, and their data directory (seat tokens,
        hosted games) belongs to whoever types it: while a session of that name is at the
        table, another would take its seat from it. Someone with a key proves who they are,
        and may have several sessions (net.ssh.access)."""
        visitor = self.visitor
        if visitor.key is not None or not any(
                s.visitor.key is None and s.visitor.identity == visitor.identity
                for s in self.table.sessions):
            return None
        return saying("name", name=repr(visitor.name), port=self.port)

    async def _play(self, args: list[str]) -> None:
        assert self.chan is not None
        env = self.table.child_env(self.visitor, self.term or DEFAULT_TERM,
                                   dict(self.chan.get_environment()),
                                   code=args[1] if args[:1] == ["join"] else None)
        report = Path(env["TABLETOP_TUI_HOME"]) / f"crash-{secrets.token_hex(8)}.txt"
        env.update(inside.env_for(self.port, self.visitor.key is None, report))
        try:
            self.child = await PtyChild.start(self.table.forks, self.table.child_argv(args), env,
                                              *self.size, sink=self._output)
        except OSError as exc:
            log.error("cannot start a session's app: %s", exc)
            self._refuse(saying("cannot_start"))
            return
        if self.gone:  # hung up while the child started
            await self.child.hang_up()
            return
        self._inflow = Inflow(self._to_app, self._app_ready, self._pause_reading,
                              self._resume_reading)
        self.child.drained = self._inflow.drained
        idle = asyncio.get_running_loop().create_task(self._watch_idle())
        try:
            status = self.status = await self.child.wait()
        finally:
            idle.cancel()
        self._log_crash(report, status)
        if self.gone:
            return
        if self.ending is not None:  # ended from here: the terminal is put back here
            self._say(TERMINAL_RESET + self._line(self.ending(self.lang)))
            status = 1
        self.chan.exit(status & 0xFF)

    def _log_crash(self, report: Path, status: int) -> None:
        """The traceback a crashed app left (net.ssh.inside), into the table's log."""
        text = take_report(report)
        if text is None:
            return
        log.error("ssh session from %s as %r: the app crashed (exit status %d)\n%s",
                  self.visitor.addr, self.visitor.name, status, text.rstrip())

    def _output(self, data: bytes) -> None:
        if self.watching:  # the moves of a game being watched keep the watcher's session
            self.last_input = time.monotonic()
        self._write(data)

    async def _watch_idle(self) -> None:
        minutes = self.table.limits.idle_minutes
        if not minutes:
            return
        while (left := self.last_input + minutes * 60 - time.monotonic()) > 0:
            await asyncio.sleep(left)
        await self._end(lambda lang: said("idle", lang, took=took(minutes, lang)))

    async def _end(self, why: Line) -> None:
        """End the child from this side; `_play` then tells the player `why`."""
        if self.child is None:
            return
        self.ending = why
        self.child.pause_output()  # its last output must not land after the line
        await self.child.hang_up()

    async def hang_up(self) -> None:
        """The server stops: end the child, tell the player, close."""
        await self._end(saying("closing"))
        if self._task is not None:
            await asyncio.wait([self._task], timeout=5)

    def _line(self, text: str) -> bytes:
        end = "\r\n" if self.term is not None else "\n"
        return f"tabletop-tui: {text}{end}".encode()

    def _say(self, data: bytes) -> None:
        self._write(data, asyncssh.EXTENDED_DATA_STDERR)

    def _write(self, data: bytes, datatype: asyncssh.DataType = None) -> None:
        """Pass bytes on, unless the client has closed its end (connection_lost follows)."""
        if self.chan is not None and not self.gone:
            try:
                self.chan.write(data, datatype)
            except BrokenPipeError:
                self.gone = True
                self.chan.close()

    def _refuse(self, line: Line, logged: str | None = None) -> None:
        """Tell the player `line` in their language (the log's is English) and end."""
        log.info("ssh session from %s refused: %s", self.visitor.addr, logged or line("en"))
        self._say(self._line(line(self.lang)))
        if self.chan is not None and not self.gone:
            self.chan.exit(1)
