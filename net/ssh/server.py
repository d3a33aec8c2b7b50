"""The built-in SSH server: `ssh -p 2222 HOST` opens the full app in the player's own terminal,
with nothing installed on their side and no account on ours.

Every session runs the ordinary command-line app (`python -m tui.cli`) as a child process on a
pseudo-terminal of its own (net.ssh.pty), never inside this process: Textual apps share
process-wide state, and one busy table would stall the others. This process only moves bytes
between each SSH channel and its child, so it also runs the relay that the children host and
join on: rooms opened over SSH are ordinary rooms, shared with local and LAN players.

What a player may ask for is the menu (no command), `join CODE` or `watch CODE`; anything
else, a session without a terminal, or a limit reached gets one clear line and the door
(net.ssh.session). Each player (a key, or a name when there is no key; see net.ssh.access)
has a data directory of their own under ours, holding their settings and seat tokens, so a
player whose connection dropped reconnects with the same key and is back in their seat.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import signal
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

import asyncssh

import net
from net.host.hosting import TABLE_RELAY_ENV, HostPlan, start_relay
from net.players import identity, ladder
from net.ssh.access import Access, Visitor
from net.ssh.door import TableDoor
from net.ssh.keys import fingerprint, host_key, player_dir
from net.ssh.limits import AddressRate, SshLimits, counted
from net.ssh.session import DEFAULT_TERM, TableSession
from net.wire import codes

log = logging.getLogger("tabletop.sshd")
T = TypeVar("T")

# What a client may tell the child about its terminal and language (anything else is ignored).
_PASSED_ENV = {"COLORTERM": r"[a-z0-9]{1,16}", "LANG": r"[A-Za-z0-9_.@-]{1,40}",
               "LC_ALL": r"[A-Za-z0-9_.@-]{1,40}", "LC_MESSAGES": r"[A-Za-z0-9_.@-]{1,40}"}
_TERM = re.compile(r"[A-Za-z0-9._+-]{1,64}")


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
        """The child's command line. `join CODE` loses its code, which every user of this
        machine could read in the process list: it goes in the child's environment."""
        if args[:1] == ["join"]:
            return [sys.executable, "-m", "tui.cli", "join", *args[2:], "--server", self.relay_url]
        return [sys.executable, "-m", "tui.cli", *args]

    def child_env(self, visitor: Visitor, term: str, client_env: dict[str, str],
                  code: str | None = None) -> dict[str, str]:
        """A clean environment: the client's terminal and language, the player's own data
        and settings directories, the table's relay and ladder, the join code if there is
        one; nothing else of ours or theirs."""
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
        if code is not None:
            env[codes.CODE_ENV] = code
        if visitor.key is None:  # a name is no identity: this player plays unrated
            env[identity.UNRATED_ENV] = "1"
        # One ladder for everyone who plays here: the table's (our own file, or the database
        # every machine of the table shares).
        env[ladder.TABLE_ENV] = ladder.store_location()
        for name, pattern in _PASSED_ENV.items():
            value = client_env.get(name, "")
            if re.fullmatch(pattern, value):
                env[name] = value
        return env


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
