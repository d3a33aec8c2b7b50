"""The built-in SSH server: `ssh -p 2222 HOST` opens the full app in the player's own terminal,
with nothing installed on their side and no account on ours.

Every session runs the ordinary command-line app (`python -m tui.cli`) as a child process on a
pseudo-terminal of its own (net.ssh.pty), never inside this process: Textual apps share
process-wide state, and one busy table would stall the others. This process only moves bytes
between each SSH channel and its child, so it also runs the relay that the children host and
join on: rooms opened over SSH are ordinary rooms, shared with local and LAN players.

What a player may ask for is the menu (no command), `join CODE` or `watch CODE`; anything
else, a session without a terminal, or a limit reached gets one clear line and the door.
Each player (a key, or a name when there is no key; see net.ssh.access) has a data
directory of their own under ours, holding their settings and seat tokens, so a player whose
connection dropped reconnects with the same key and is back in their seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import shlex
import signal
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import asyncssh

import net
from net import home
from net.host.hosting import TABLE_RELAY_ENV, HostPlan, start_relay
from net.ssh.access import Access, identity, player_name
from net.ssh.limits import AddressRate, SshLimits
from net.ssh.pty import TERMINAL_RESET, PtyChild
from net.wire import codes

log = logging.getLogger("tabletop.sshd")
T = TypeVar("T")

HOST_KEY = "ssh_host_ed25519_key"
COMMANDS = "no command for the menu, `join CODE` to take a seat, `watch CODE` to watch"
# What a client may tell the child about its terminal and language (anything else is ignored).
_PASSED_ENV = {"COLORTERM": r"[a-z0-9]{1,16}", "LANG": r"[A-Za-z0-9_.@-]{1,40}",
               "LC_ALL": r"[A-Za-z0-9_.@-]{1,40}", "LC_MESSAGES": r"[A-Za-z0-9_.@-]{1,40}"}
_TERM = re.compile(r"[A-Za-z0-9._+-]{1,64}")
DEFAULT_TERM = "xterm-256color"


def counted(number: float, word: str) -> str:
    return f"{number:.0f} {word}" + ("" if round(number) == 1 else "s")


# -- the host key -------------------------------------------------------------------------------
def host_key() -> asyncssh.SSHKey:
    """The table's host key, made on first start and kept (private) in the data directory."""
    path = ssh_dir() / HOST_KEY
    try:
        return asyncssh.read_private_key(str(path))
    except FileNotFoundError:
        pass
    except (OSError, asyncssh.KeyImportError) as exc:
        raise ValueError(f"cannot read the SSH host key {path} ({exc}); move it away and a new "
                         "one is made, which players' clients will warn about") from None
    key = asyncssh.generate_private_key("ssh-ed25519", comment="tabletop-tui")
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(key.export_private_key())
    os.replace(tmp, path)
    return key


def ssh_dir() -> Path:
    path = home.data_dir() / "ssh"
    path.mkdir(mode=0o700, exist_ok=True)
    return path


def fingerprint(key: asyncssh.SSHKey) -> str:
    """As `ssh-keygen -lf` and OpenSSH's first-connection question show it."""
    return f"{key.get_fingerprint('sha256')} (ED25519)"


# -- what a player may ask for ------------------------------------------------------------------
def command_args(command: str) -> list[str]:
    """The app's arguments for an SSH command; ValueError with the line to show otherwise."""
    try:
        words = shlex.split(command)
    except ValueError:
        words = [command]
    if not words:
        return []
    if words[0] in ("join", "watch") and len(words) == 2:
        try:
            code = codes.normalise_join(words[1])
        except codes.BadCode as exc:
            raise ValueError(f"{words[1]!r} is not a join code: {exc}") from None
        return ["join", codes.display(code)] + (["--watch"] if words[0] == "watch" else [])
    shown = command if len(command) <= 40 else command[:40] + "…"
    raise ValueError(f"{shown!r} is not something this table does; allowed: {COMMANDS}")


@dataclass
class Visitor:
    """Who is on the other end of one SSH connection."""

    addr: str
    username: str = ""
    key: asyncssh.SSHKey | None = None

    @property
    def name(self) -> str:
        return player_name(self.username)

    @property
    def identity(self) -> str:
        return identity(self.key, self.username)


@dataclass
class SshConfig:
    """What `--ssh` and its options asked for."""

    port: int
    bind: str = "0.0.0.0"
    access: Access = field(default_factory=Access)
    limits: SshLimits = field(default_factory=SshLimits)


class SshTable:
    """The SSH server. `start()` listens, `stop()` hangs up every session and stops."""

    def __init__(self, config: SshConfig, relay_url: str) -> None:
        self.config = config
        self.limits = config.limits
        self.relay_url = relay_url
        self.key = host_key()
        self.rate = AddressRate(self.limits.per_minute)
        self.sessions: set[TableSession] = set()
        self.port = 0
        self._acceptor: asyncssh.SSHAcceptor | None = None

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)

    async def start(self) -> int:
        """Listen on the configured address and port (0: any free one); returns the port."""
        self._acceptor = await asyncssh.listen(
            self.config.bind, self.config.port,
            server_factory=lambda: TableDoor(self),
            server_host_keys=[self.key], authorized_client_keys=None,
            encoding=None, line_editor=False, agent_forwarding=False, x11_forwarding=False,
            login_timeout=self.limits.login_timeout,
            keepalive_interval=self.limits.keepalive, keepalive_count_max=3,
            reuse_address=True,
        )
        self.port = self._acceptor.get_port()
        return self.port

    async def stop(self) -> None:
        if self._acceptor is not None:
            self._acceptor.close()
            await self._acceptor.wait_closed()
            self._acceptor = None
        await asyncio.gather(*(s.hang_up() for s in list(self.sessions)),
                             return_exceptions=True)

    def banner(self) -> str:
        return (f"SSH table on {self.config.bind}:{self.port} "
                f"({self.config.access.describe()}); host key {self.fingerprint}")

    # -- sessions ----------------------------------------------------------------------------
    def knock(self, addr: str) -> str | None:
        """Count a new session from `addr`, whatever it asks for: None if it may go on, else
        why not."""
        if self.rate.allow(addr):
            return None
        return (f"too many new sessions from {addr}: at most {self.limits.per_minute} a "
                "minute; wait a minute and try again")

    def admit(self, session: TableSession) -> str | None:
        """Take a place for a session's app: None if there is one, else why not."""
        most = self.limits.max_sessions
        if len(self.sessions) >= most:
            return f"this table is full ({counted(most, 'session')} at once); try again later"
        self.sessions.add(session)
        return None

    def child_argv(self, args: list[str]) -> list[str]:
        server = ["--server", self.relay_url] if args[:1] == ["join"] else []
        return [sys.executable, "-m", "tui.cli", *args, *server]

    def child_env(self, visitor: Visitor, term: str, client_env: dict[str, str]) -> dict[str, str]:
        """A clean environment: the client's terminal and language, the player's own data
        and settings directories, the table's relay; nothing else of ours or theirs."""
        home = player_dir(visitor.identity)
        root = str(Path(net.__file__).resolve().parent.parent)
        python_path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
        env = {
            "PATH": os.environ.get("PATH", os.defpath),
            "HOME": os.environ.get("HOME", str(home)),
            "TERM": term if _TERM.fullmatch(term) else DEFAULT_TERM,
            "USER": visitor.name,
            "LOGNAME": visitor.name,
            "PYTHONPATH": python_path,
            "PYTHONUTF8": "1",
            "TABLETOP_TUI_HOME": str(home / "data"),
            "TABLETOP_TUI_CONFIG": str(home / "config"),
            TABLE_RELAY_ENV: self.relay_url,
        }
        if rooms := os.environ.get("TABLETOP_TUI_ROOMS"):
            env["TABLETOP_TUI_ROOMS"] = rooms
        for name, pattern in _PASSED_ENV.items():
            value = client_env.get(name, "")
            if re.fullmatch(pattern, value):
                env[name] = value
        return env


def player_dir(ident: str) -> Path:
    path = ssh_dir() / "players" / ident
    for folder in (path.parent, path, path / "data", path / "config"):
        folder.mkdir(mode=0o700, exist_ok=True)
    return path


class TableDoor(asyncssh.SSHServer):
    """One SSH connection: who it is (see net.ssh.access) and its sessions."""

    def __init__(self, table: SshTable) -> None:
        self.table = table
        self.access = table.config.access
        self.visitor = Visitor(addr="?")
        self._conn: asyncssh.SSHServerConnection | None = None
        self._unused: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self._conn = conn
        peer = conn.get_extra_info("peername")
        self.visitor.addr = str(peer[0]) if peer else "?"

    def auth_completed(self) -> None:
        """A connection that logs in but never asks for a session is closed like one that
        never logs in: otherwise idle connections would pile up without limit."""
        self._unused = asyncio.get_running_loop().call_later(
            self.table.limits.login_timeout, self._close)

    def _close(self) -> None:
        if self._conn is not None:
            self._conn.close()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._unused is not None:
            self._unused.cancel()

    def begin_auth(self, username: str) -> bool:
        self.visitor.username = username
        return True

    def public_key_auth_supported(self) -> bool:
        return self.access.takes_keys()

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """Called for the key of every offer, the signed one last: asyncssh checks that
        signature right after this and completes the login, so the key kept here is the one
        the client proved it holds (any other way in clears it)."""
        if not self.access.key_allowed(key, self.visitor.addr, self.visitor.addr):
            return False
        self.visitor.key = key
        return True

    def password_auth_supported(self) -> bool:
        return self.access.takes_password()

    def validate_password(self, username: str, password: str) -> bool:
        if not self.access.password_ok(password):
            return False
        self.visitor.key = None
        return True

    def kbdint_auth_supported(self) -> bool:
        return self.access.open

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self.visitor.key = None
        return self.access.open

    def session_requested(self) -> TableSession:
        if self._unused is not None:
            self._unused.cancel()
            self._unused = None
        return TableSession(self.table, self.visitor)


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
        self.ending = ""  # why this side ended the session's app, to tell the player
        self.last_input = time.monotonic()
        self._task: asyncio.Task[None] | None = None
        self._hanging_up: asyncio.Task[None] | None = None

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
        if self.child is not None:
            self.child.write(data)

    def terminal_size_changed(self, width: int, height: int, pixwidth: int,
                              pixheight: int) -> None:
        self._set_size(width, height)
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
        if self.child is not None:
            self._hanging_up = asyncio.get_running_loop().create_task(self.child.hang_up())

    # -- the session -------------------------------------------------------------------------
    def _set_size(self, cols: int, rows: int) -> None:
        limits = self.table.limits
        self.size = (min(max(cols, 1), limits.max_cols) if cols else 80,
                     min(max(rows, 1), limits.max_rows) if rows else 24)

    async def _run(self) -> None:
        why = self.table.knock(self.visitor.addr)
        if why is not None:
            self._refuse(why)
            return
        try:
            args = command_args(self.command or "")
        except ValueError as exc:
            self._refuse(str(exc))
            return
        if self.term is None:
            self._refuse("the table needs a terminal: connect with `ssh -t` "
                         f"(e.g. ssh -t -p {self.table.port} HOST join CODE)")
            return
        why = self.table.admit(self)
        if why is not None:
            self._refuse(why)
            return
        visitor = self.visitor
        log.info("ssh session from %s as %r (%s): %s", visitor.addr, visitor.name,
                 visitor.key.get_fingerprint() if visitor.key else "no key",
                 " ".join(args[:1]) + (" --watch" if "--watch" in args else "") or "menu")
        try:
            await self._play(args)
        finally:
            self.table.sessions.discard(self)

    async def _play(self, args: list[str]) -> None:
        assert self.chan is not None
        env = self.table.child_env(self.visitor, self.term or DEFAULT_TERM,
                                   dict(self.chan.get_environment()))
        try:
            self.child = await PtyChild.start(self.table.child_argv(args), env, *self.size,
                                              sink=self._output)
        except OSError as exc:
            log.error("cannot start a session's app: %s", exc)
            self._refuse("the table cannot start a game right now; try again later")
            return
        if self.gone:  # hung up while the child started
            await self.child.hang_up()
            return
        idle = asyncio.get_running_loop().create_task(self._watch_idle())
        try:
            status = await self.child.wait()
        finally:
            idle.cancel()
        if self.gone:
            return
        if self.ending:  # the app was ended from here, so the terminal is put back here
            self._say(TERMINAL_RESET + self._line(self.ending))
            status = 1
        self.chan.exit(status & 0xFF)

    def _output(self, data: bytes) -> None:
        self._write(data)

    async def _watch_idle(self) -> None:
        minutes = self.table.limits.idle_minutes
        if not minutes:
            return
        while (left := self.last_input + minutes * 60 - time.monotonic()) > 0:
            await asyncio.sleep(left)
        took = counted(minutes, "minute") if minutes >= 1 else counted(minutes * 60, "second")
        await self._end(f"closed after {took} without a key pressed; connect again to go on")

    async def _end(self, why: str) -> None:
        """End the child from this side; `_play` then tells the player `why`."""
        if self.child is None:
            return
        self.ending = why
        self.child.pause_output()  # its last output must not land after the line
        await self.child.hang_up()

    async def hang_up(self) -> None:
        """The server stops: end the child, tell the player, close."""
        await self._end("the table is closing; goodbye")
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

    def _refuse(self, text: str) -> None:
        log.info("ssh session from %s refused: %s", self.visitor.addr, text)
        self._say(self._line(text))
        if self.chan is not None and not self.gone:
            self.chan.exit(1)


# -- running it ---------------------------------------------------------------------------------
async def open_table(config: SshConfig, relay_url: str,
                     say: Callable[[str], None]) -> SshTable:
    """Start the SSH server for the relay at `relay_url` and announce its host key."""
    table = SshTable(config, relay_url)
    await table.start()
    say(table.banner())
    return table


def local_url(host: str, port: int) -> str:
    """How this machine's children reach a relay bound to `host`."""
    if host in ("", "0.0.0.0", "::"):
        host = "127.0.0.1"
    return f"ws://[{host}]:{port}" if ":" in host else f"ws://{host}:{port}"


async def hosting_with_table(config: SshConfig, plan: HostPlan, say: Callable[[str], None],
                             body: Callable[[], Awaitable[T]]) -> T:
    """`tabletop-tui host ... --ssh PORT`: the relay the host's room opens on (started here
    unless `--server` names one) and the SSH server for it, for as long as `body` runs."""
    relay, url = await start_relay(plan, say)
    plan.server = plan.server or url
    try:
        table = await open_table(config, url, say)
    except BaseException:
        if relay is not None:
            await relay.stop()
        raise
    try:
        return await body()
    finally:
        await table.stop()
        if relay is not None:
            await relay.stop()


def serve_with_ssh(host: str, port: int, config: SshConfig) -> int:
    """`tabletop-tui serve --ssh PORT`: the relay and the SSH server in one process."""
    from net.relay.server import Relay

    logging.basicConfig(stream=sys.stderr, level=logging.INFO,
                        format="%(asctime)s %(name)s %(message)s")
    logging.getLogger("asyncssh").setLevel(logging.WARNING)  # a line per packet otherwise

    def say(text: str) -> None:
        print(f"tabletop-tui: {text}", flush=True)

    async def main() -> int:
        relay = Relay()
        try:
            relay_port = await relay.start(host, port)
        except OSError as exc:
            say(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
            return 1
        try:
            table = await open_table(config, local_url(host, relay_port), say)
        except OSError as exc:
            say(f"cannot listen for SSH on {config.bind}:{config.port}: {exc.strerror or exc}")
            await relay.stop()
            return 1
        say(f"relay on {host}:{relay_port}")
        stop = asyncio.Event()
        for sig in (signal.SIGTERM, signal.SIGHUP):  # systemd stops with SIGTERM: say goodbye
            asyncio.get_running_loop().add_signal_handler(sig, stop.set)
        try:
            await stop.wait()
        finally:
            await table.stop()
            await relay.stop()
        return 0

    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(main())
    return 130
