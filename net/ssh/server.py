"""The built-in SSH server: `ssh -p 2222 HOST` opens the full app in the player's own terminal,
with nothing installed on their side and no account on ours.

Every session runs the ordinary command-line app (`tui.cli`) as a child process on a
pseudo-terminal of its own (net.ssh.pty), never inside this process: Textual apps share
process-wide state, and one busy table would stall the others. The children are forked by the
table's fork server (net.ssh.forks), which has the app imported once for all of them. This
process only moves bytes between each SSH channel and its child, so it also runs the relay that
the children host and join on: rooms opened over SSH are ordinary rooms, shared with local and
LAN players.

What a player may ask for is the menu (no command), `join CODE` or `watch CODE`; anything
else, a session without a terminal, or a limit reached gets one clear line and the door
(net.ssh.session). The table counts connections and sessions per address (net.ssh.limits)
and logs what an operator needs (net.ssh.logs). Each player (a key, or a name when there is
no key; see net.ssh.access) has a data directory of their own under ours, holding their
settings and seat tokens, so a player whose connection dropped reconnects with the same key
and is back in their seat.

A table too big for one machine runs several of these as SSH nodes behind a load balancer in
TCP mode (README.md, "Running a table on several machines"): they share the host key
(`--ssh-host-key`), the relays (`--relay URL`: then none runs here), the database that keeps
the ladder and the players' seat tokens (`--db`, net.peer.tokens) and the secret a player's
rating identity is derived from (net.players.identity), so a player who comes back through
another node is the same player in the same seat. The balancer names each client's address in
a PROXY protocol header, which only a trusted balancer may send (net.ssh.proxied).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import random
import re
import signal
import socket
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import asyncssh

import net
from net.days import notices
from net.host.hosting import TABLE_RELAY_ENV, TABLE_SSH_ENV, HostPlan, start_relay
from net.peer import tokens
from net.players import identity, ladder, reputation
from net.players.store import shown
from net.relay import addresses
from net.ssh import logs, words
from net.ssh.access import Access, Visitor
from net.ssh.door import TableDoor
from net.ssh.flood import INPUT_WINDOW
from net.ssh.forks import Forks
from net.ssh.keys import fingerprint, give_identity, host_key, player_dir
from net.ssh.limits import AddressRate, Guesses, SshLimits, raise_file_limit
from net.ssh.penalties import Penalties
from net.ssh.proxied import Origin, ProxiedListener
from net.ssh.session import DEFAULT_TERM, TableSession
from net.ssh.words import Line
from net.wire import codes
from net.words import counted

log = logging.getLogger("tabletop.sshd")
T = TypeVar("T")

# What a client may tell the child about its terminal and language (anything else is ignored).
_PASSED_ENV = {"COLORTERM": r"[a-z0-9]{1,16}", "LANG": r"[A-Za-z0-9_.@-]{1,40}",
               "LC_ALL": r"[A-Za-z0-9_.@-]{1,40}", "LC_MESSAGES": r"[A-Za-z0-9_.@-]{1,40}"}
_TERM = re.compile(r"[A-Za-z0-9._+-]{1,64}")
# The module the fork server warms and each session's child runs (see net.ssh.forkserver).
APP = "tui.preload"
MIB = 1 << 20


@dataclass
class SshConfig:
    """What `--ssh` and its options asked for."""

    port: int
    bind: str = ""  # every address, IPv4 and IPv6
    access: Access = field(default_factory=Access)
    limits: SshLimits = field(default_factory=SshLimits)
    name: str | None = None  # the host name players reach the table by, for the lobby's line
    # One of several SSH nodes of a table (see README): the host key they share, the secret
    # its players' identities are derived from, the balancers that name each client's address.
    host_key: Path | None = None
    secret: bytes | None = None
    trusted: tuple[addresses.Network, ...] = ()
    players: Path | None = None  # the players' folders (default: the data directory's)

    @property
    def where(self) -> str:
        host = f"[{self.bind}]" if ":" in self.bind else self.bind or "*"
        return f"{host}:{self.port}"


@dataclass
class Place:
    """A session's place at the table: since when, and the connection it came on."""

    since: float
    door: TableDoor | None


class SshTable:
    """The SSH server. `start()` listens, `stop()` hangs up every session and stops."""

    def __init__(self, config: SshConfig, relay_url: str, app: str = APP) -> None:
        self.config = config
        self.limits = config.limits
        self.relay_url = relay_url
        self.key = host_key(config.host_key)
        self.rate = AddressRate(self.limits.per_minute)
        self.guesses = Guesses(self.limits.password_delay)
        self.pause = asyncio.sleep  # how a password's answer waits (a test records the waits)
        self.group = addresses.group  # how connections are counted by address
        self.penalties = Penalties(self.limits.penalty_after, self.limits.penalty_most)
        self.draw = random.random  # the dice of the turn-away at random (a test loads them)
        self.doors: set[TableDoor] = set()  # the connections counted at the table
        self.sessions: dict[TableSession, Place] = {}  # those holding a place at the table
        self.port = 0
        self._acceptor: asyncssh.SSHAcceptor | None = None
        self._proxied: ProxiedListener | None = None
        self.forks = Forks(app, base_env(), self.limits.session_memory * MIB,
                           self.limits.session_nice)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.key)

    async def start(self) -> int:
        """Listen on the configured address and port (0: any free one) and start the fork
        server; returns the port once sessions can start. OSError if either cannot be."""
        raise_file_limit(self.limits)
        if self.config.trusted:  # behind a balancer: its PROXY headers first (net.ssh.proxied)
            self._proxied = ProxiedListener(self.config.trusted, self._proxied_connection)
            self.port = await self._proxied.start(self.config.bind, self.config.port)
        else:
            self._acceptor = await asyncssh.listen(
                self.config.bind, self.config.port, server_factory=lambda: TableDoor(self),
                reuse_address=True, **self._ssh_options())
            self.port = self._acceptor.get_port()
        self.forks.start()
        try:
            await self.forks.ready()
        except BaseException:
            await self.stop()
            raise
        return self.port

    def _ssh_options(self) -> dict[str, Any]:
        return dict(server_host_keys=[self.key], authorized_client_keys=None, encoding=None,
                    line_editor=False, agent_forwarding=False, x11_forwarding=False,
                    login_timeout=self.limits.login_timeout, window=INPUT_WINDOW,
                    keepalive_interval=self.limits.keepalive, keepalive_count_max=3)

    async def _proxied_connection(self, sock: socket.socket, origin: Origin) -> None:
        """A connection that came through a balancer, from the client its header names."""
        await asyncssh.run_server(sock, server_factory=lambda: TableDoor(self, origin),
                                  **self._ssh_options())

    async def stop(self) -> None:
        if self._proxied is not None:
            await self._proxied.close()
            self._proxied = None
        if self._acceptor is not None:
            self._acceptor.close()
            await self._acceptor.wait_closed()
            self._acceptor = None
        await asyncio.gather(*(s.hang_up() for s in list(self.sessions)),
                             return_exceptions=True)
        await self.forks.stop()

    def banner(self) -> str:
        where = (f"{self.config.bind}:{self.port}" if self.config.bind
                 else f"port {self.port} of every address, IPv4 and IPv6")
        return (f"SSH table on {where} ({self.config.access.describe()}); "
                f"host key {self.fingerprint}; players' store "
                f"{shown(ladder.store_location())}")

    # -- connections -------------------------------------------------------------------------
    def arrive(self, door: TableDoor) -> str | None:
        """Count a new connection: None if it may go on and log in, else why not."""
        limits = self.limits
        door.group = self.group(door.visitor.addr)
        mine = [d for d in self.doors if d.group == door.group]
        startups = sum(not d.logged_in for d in self.doors)
        if penalty := self.penalties.refused(door.group):
            why = (f"too many logins from {addresses.describe(door.group)} stalled or failed: "
                   f"it is refused for another {span(penalty)}; try again later")
        elif len(mine) >= limits.per_address_connections:
            why = (f"too many connections from {addresses.describe(door.group)}: at most "
                   f"{limits.per_address_connections} at once; try again later")
        elif sum(not d.logged_in for d in mine) >= limits.per_address_startups:
            why = (f"too many logins in progress from {addresses.describe(door.group)}: at "
                   f"most {limits.per_address_startups} at once; try again in a moment")
        elif len(self.doors) >= limits.max_connections:
            why = "the table has too many connections; try again later"
        elif startups >= limits.max_startups:
            why = "the table has too many logins in progress; try again in a moment"
        elif (chance := limits.turn_away_chance(startups)) and self.draw() < chance:
            why = "the table has many logins in progress; try again in a moment"
        else:
            self.doors.add(door)
            return None
        log.info("ssh connection from %s refused: %s", door.visitor.addr, why)
        return why

    def leave(self, door: TableDoor) -> None:
        self.doors.discard(door)

    def charge(self, door: TableDoor, seconds: float, how: str) -> None:
        """Charge a connection's address for a login that stalled or failed (`how`, for the
        log), unless it is a balancer the table trusts (net.ssh.penalties)."""
        if addresses.trusted(door.visitor.addr, self.config.trusted):
            return
        if refused := self.penalties.charge(door.group, seconds):
            log.info("ssh address %s refused for %s: its logins stall or fail (the last %s)",
                     addresses.describe(door.group), span(refused), how)

    # -- sessions ----------------------------------------------------------------------------
    def knock(self, addr: str) -> Line | None:
        """Count a new session from `addr`, whatever it asks for: None if it may go on, else
        why not (net.ssh.words)."""
        group = self.group(addr)
        if self.rate.allow(group):
            return None
        return lambda lang: words.said("rate", lang, where=words.where(group, lang),
                                       count=self.limits.per_minute)

    def admit(self, session: TableSession) -> Line | None:
        """Take a place for a session's app: None if there is one, else why not."""
        limits = self.limits
        visitor = session.visitor
        group = self.group(visitor.addr)
        each = limits.per_address
        key = ("address" if sum(self.group(s.visitor.addr) == group for s in self.sessions) >= each
               else "player" if sum(s.visitor.identity == visitor.identity
                                    for s in self.sessions) >= each
               else "full" if len(self.sessions) >= limits.max_sessions else None)
        if key is not None:
            most = limits.max_sessions if key == "full" else each
            return lambda lang: words.said(key, lang, where=words.where(group, lang),
                                           sessions=words.counted(most, "session", lang))
        conn = session.chan.get_connection() if session.chan is not None else None
        door = next((d for d in self.doors if d.conn is conn), None)
        self.sessions[session] = Place(time.monotonic(), door)
        if door is not None:
            door.occupied()
        command = (session.command or "").split()[:1]
        log.info("ssh session from %s as %r (%s): %s (%s)", visitor.addr, visitor.name,
                 visitor.key.get_fingerprint() if visitor.key else "no key",
                 command[0] if command else "menu", counted(len(self.sessions), "live session"),
                 extra=logs.EVERY)
        return None

    def release(self, session: TableSession) -> None:
        """A session's app has ended: its place is free."""
        place = self.sessions.pop(session, None)
        if place is None:
            return
        if place.door is not None:
            place.door.vacated()
        log.info("ssh session from %s as %r ended after %s: %s (%s)", session.visitor.addr,
                 session.visitor.name, lasted(time.monotonic() - place.since),
                 ended_why(session), counted(len(self.sessions), "live session"),
                 extra=logs.EVERY)

    def child_argv(self, args: list[str]) -> list[str]:
        """The child app's command line. `join CODE` loses its code, which every user of this
        machine could read in the process list: it goes in the child's environment."""
        if args[:1] == ["join"]:
            return ["join", *args[2:], "--server", self.relay_url]
        return args

    def child_env(self, visitor: Visitor, term: str, client_env: dict[str, str],
                  code: str | None = None) -> dict[str, str]:
        """A clean environment: the client's terminal and language, the player's own data
        and settings directories, the table's relay and ladder, the join code if there is
        one; nothing else of ours or theirs."""
        home = player_dir(visitor.identity, self.config.players)
        if visitor.key is not None and self.config.secret is not None:
            give_identity(self.config.secret, visitor.key, home / "data")
        env = player_env(base_env(), home, visitor.identity, visitor.name,
                         self.relay_url, rated=visitor.key is not None, code=code)
        env["TERM"] = term if _TERM.fullmatch(term) else DEFAULT_TERM
        env[TABLE_SSH_ENV] = self.invitation(visitor)
        for name, pattern in _PASSED_ENV.items():
            value = client_env.get(name, "")
            if re.fullmatch(pattern, value):
                env[name] = value
        return env

    def invitation(self, visitor: Visitor) -> str:
        """The command that brings a friend of `visitor` to this table: by the name the
        operator gave (`--ssh-name`), else by the address the visitor came in on."""
        host = self.config.name or visitor.reached.removeprefix("::ffff:") or "HOST"
        reached = visitor.port or self.port
        port = "" if reached == 22 else f" -p {reached}"
        return f"ssh -t{port} {host}"


def base_env() -> dict[str, str]:
    """What the fork server and every child get of ours: the path, the home, the app's
    source, UTF-8 whatever the locale."""
    root = str(Path(net.__file__).resolve().parent.parent)
    python_path = os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)
    env = {"PATH": os.environ.get("PATH", os.defpath), "PYTHONPATH": python_path,
           "PYTHONUTF8": "1"}
    if home := os.environ.get("HOME"):
        env["HOME"] = home
    return env


def player_env(base: dict[str, str], home: Path, owner: str, name: str, relay_url: str,
               rated: bool, code: str | None = None) -> dict[str, str]:
    """What a session's app gets of its table, over SSH or in a browser tab (net.web): the
    player's own data and settings directories under `home`, the table's relay and ladder
    (and, where that is a database, the player as the owner of their seats), the join code if
    there is one."""
    env = {
        **base,
        "HOME": os.environ.get("HOME", str(home)),
        "USER": name,
        "LOGNAME": name,
        "TABLETOP_TUI_HOME": str(home / "data"),
        "TABLETOP_TUI_CONFIG": str(home / "config"),
        TABLE_RELAY_ENV: relay_url,
    }
    if rooms := os.environ.get("TABLETOP_TUI_ROOMS"):
        env["TABLETOP_TUI_ROOMS"] = rooms
    if notices.private_allowed():  # serve --days-private-webhooks
        env[notices.PRIVATE_ENV] = "1"
    if code is not None:
        env[codes.CODE_ENV] = code
    if not rated:  # a name is no identity: this player plays unrated
        env[identity.UNRATED_ENV] = "1"
    # One ladder for everyone who plays here: the table's (our own file, or the database
    # every machine of the table shares).
    env[ladder.TABLE_ENV] = ladder.store_location()
    if ladder.is_database(env[ladder.TABLE_ENV]):  # seats too, for a return by any node
        env[tokens.OWNER_ENV] = owner
    return env


def ended_why(session: TableSession) -> str:
    """Why a session ended, for the log."""
    if session.ending is not None:
        return session.ending("en").split(";")[0]
    if session.gone:
        return "the connection closed"
    if session.status is None:
        return "the app did not start"
    return "the player quit" if session.status == 0 else f"the app ended with {session.status}"


def span(seconds: float) -> str:
    """A wait, as a refusal says it: whole seconds, rounded up."""
    return counted(math.ceil(seconds), "second")


def lasted(seconds: float) -> str:
    minutes, secs = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}h{minutes:02d}m" if hours else f"{minutes}m{secs:02d}s" if minutes \
        else f"{secs}s"


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


# A table beside the SSH one (the web table, net.web): started with the relay's URL and the
# SSH table's fork server (None without one), it returns what stops it; OSError if it cannot.
Beside = Callable[[str, Forks | None], Awaitable[Callable[[], Awaitable[None]]]]


async def hosting_with_table(config: SshConfig | None, plan: HostPlan,
                             say: Callable[[str], None], body: Callable[[], Awaitable[T]],
                             beside: Beside | None = None) -> T:
    """`tabletop-tui host ... --ssh PORT` (and `--web PORT`): the relay the host's room opens
    on (started here unless `--server` names one) and the SSH server for it (and the table
    beside it), for as long as `body` runs."""
    relay, url = await start_relay(plan, say)
    plan.server = plan.server or url
    table = stop_beside = None
    try:
        if config is not None:
            table = await open_table(config, url, say)
        if beside is not None:
            stop_beside = await beside(url, table.forks if table else None)
        return await body()
    finally:
        if stop_beside is not None:
            await stop_beside()
        if table is not None:
            await table.stop()
        if relay is not None:
            await relay.stop()


def serve_with_ssh(host: str, port: int, config: SshConfig | None, relay_url: str | None = None,
                   beside: Beside | None = None) -> int:
    """`tabletop-tui serve --ssh PORT`: the relay and the SSH server in one process; or, with
    `relay_url` (`--relay URL`, the relays' load balancer of a table on several machines), the
    SSH server alone, its sessions hosting and joining there. `beside` (`--web PORT`) runs
    with them, sharing the SSH table's fork server; either may run without the other."""
    from net.relay.server import Relay

    logs.setup(sys.stderr)

    def say(text: str) -> None:
        print(f"tabletop-tui: {text}", flush=True)

    stop = asyncio.Event()  # set by SIGTERM (systemd's stop) or SIGHUP: say goodbye

    async def tables(url: str, ready: str) -> int:
        """The SSH table and the one beside it, until stopped; `ready` is said once they
        listen."""
        table = None
        if config is not None:
            try:
                table = await open_table(config, url, say)
            except OSError as exc:
                say(f"cannot listen for SSH on {config.where}: {exc.strerror or exc}")
                return 1
        try:
            stop_beside = await beside(url, table.forks if table else None) if beside else None
        except OSError as exc:
            say(str(exc))
            if table is not None:
                await table.stop()
            return 1
        say(ready)
        try:
            await stop.wait()
        finally:
            if stop_beside is not None:
                await stop_beside()
            if table is not None:
                await table.stop()
        return 0

    async def main() -> int:
        # Before a line is printed: whoever starts us may stop us as soon as it reads one.
        for sig in (signal.SIGTERM, signal.SIGHUP):
            asyncio.get_running_loop().add_signal_handler(sig, stop.set)
        if relay_url is not None:
            return await tables(relay_url, f"sessions use the relays at {relay_url}")
        # The word on a host beside its open table comes from the table's own ladder.
        relay = Relay(reputation=reputation.TableWord(ladder.store_location()))
        try:
            relay_port = await relay.start(host, port)
        except OSError as exc:
            say(f"cannot listen on {host}:{port}: {exc.strerror or exc}")
            return 1
        try:
            return await tables(local_url(host, relay_port), f"relay on {host}:{relay_port}")
        finally:
            await relay.stop()

    with contextlib.suppress(KeyboardInterrupt):
        return asyncio.run(main())
    return 130
