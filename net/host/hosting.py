"""Hosting a room from this machine: the relay (started here unless `--server` names one),
the `NetHost`, and what makes the room findable by its code (rooms file, mDNS). Shared by the
headless host and the host's screens, so both open rooms the same way."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from net import discovery
from net.host import resume
from net.host.authority import NetHost
from net.records import store
from net.relay.server import Relay
from net.table import clocks

log = logging.getLogger("tabletop.hosting")

# The relay a table's own players use unless they name another: set by the SSH server
# (net.ssh.server) for its sessions, so rooms opened over SSH live on the relay it runs.
TABLE_RELAY_ENV = "TABLETOP_TUI_SERVER"


# How friends reach that SSH table ("ssh -t -p 2222 HOST"): the lobby shows it with the code.
TABLE_SSH_ENV = "TABLETOP_TUI_SSH"
# The web table's page a browser tab's app was opened from ("https://HOST/"): a friend with
# only a browser opens it and joins there, and the lobby says so with the code.
TABLE_PAGE_ENV = "TABLETOP_TUI_PAGE"


def table_relay() -> str | None:
    return os.environ.get(TABLE_RELAY_ENV) or None


def table_ssh() -> str | None:
    return os.environ.get(TABLE_SSH_ENV) or None


def table_page() -> str | None:
    return os.environ.get(TABLE_PAGE_ENV) or None


@dataclass
class HostPlan:
    """What `tabletop-tui host` was asked for."""

    game: str | None
    seats: int
    options: dict[str, Any] = field(default_factory=dict)
    server: str | None = field(default_factory=table_relay)
    lan: bool = False
    port: int = discovery.DEFAULT_PORT
    resume: bool = False
    record: Path | None = None  # the record to resume (None: the game hosted last)
    host_name: str | None = None  # None: the host does not play (headless)
    level: str = "strong"
    seed: int | None = None
    bot_delay: float = 0.5
    clock: str | None = None  # a clock preset (net.table.clocks.PRESETS); None: the screen's
    out_of_time: str = "bot"  # choice (the saved one), no clock without a screen
    public: bool = False  # listed among the relay's open tables (net.host.billboard)
    fill_after: float | None = None  # ... and bots fill it after this many seconds
    min_finished: float | None = None  # the finished share (0..1) a free seat asks of people


async def start_relay(plan: HostPlan, say: Callable[[str], None]) -> tuple[Relay | None, str]:
    """The relay a host uses: `server`, else one started here (127.0.0.1, or every interface
    with `lan`). If the port is taken, assume a relay already runs there and use it.
    A session of an SSH table (net.ssh.server) never starts one: a stranger at the table must not
    open ports or advertise rooms on the server's network, so an empty relay field means the
    table's relay."""
    if plan.server:
        return None, discovery.server_url(plan.server)
    if (table := table_relay()) is not None:
        return None, discovery.server_url(table)
    relay = Relay()
    bind = "0.0.0.0" if plan.lan else "127.0.0.1"
    try:
        port = await relay.start(bind, plan.port)
    except OSError:
        say(f"port {plan.port} is in use; using the relay already running there")
        return None, f"ws://127.0.0.1:{plan.port}"
    return relay, f"ws://127.0.0.1:{port}"


class Room:
    """A hosted room plus what makes it findable; `close()` undoes all of it."""

    def __init__(self, host: NetHost, relay: Relay | None, url: str) -> None:
        self.host, self.relay, self.url = host, relay, url
        self._advertiser: discovery.Advertiser | None = None

    async def announce(self, lan: bool, say: Callable[[str], None]) -> None:
        discovery.publish(self.host.code, self.url)
        self._clean_up_on_signals()
        if lan and self.relay is not None:
            self._advertiser = discovery.Advertiser()
            try:
                await self._advertiser.start(self.host.code, self.relay.port)
            except Exception as exc:  # mDNS is a convenience: --server always works
                say(f"cannot advertise on the LAN ({exc}); peers can use --server")
                self._advertiser = None

    def _clean_up_on_signals(self) -> None:
        """SIGTERM or SIGHUP (a closed terminal) end the host as before, but first take the
        room off the rooms directory: nobody should be sent to a relay that is gone. The game
        record stays, so `host --resume` still works."""
        loop = asyncio.get_running_loop()

        def ended(sig: signal.Signals) -> None:
            discovery.unpublish(self.host.code)
            signal.signal(sig, signal.SIG_DFL)
            os.kill(os.getpid(), sig)

        for sig in (signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.add_signal_handler(sig, ended, sig)

    async def close(self, crashed: bool = False) -> None:
        """End the room for everyone; `crashed`: the app died, so the room is left for
        `host --resume` instead (see NetHost.crash)."""
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGHUP):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(sig)
        discovery.unpublish(self.host.code)
        if self._advertiser is not None:
            await self._advertiser.stop()
        await (self.host.crash() if crashed else self.host.close())
        if self.relay is not None:
            await self.relay.stop()


def resumable(record: Path | None = None) -> Path:
    """The record a resume takes up (`record`, else the game hosted last); ValueError if
    there is none, it is over or unreadable, or its room is open on this machine right now
    (hosted in another window or SSH session: two hosts would take the room from each other
    and write one record at once)."""
    path = record or store.last_record()
    if path is None:
        raise ValueError("there is no hosted game to resume")
    try:
        _, _, net = resume.load(path)
    except OSError as exc:
        raise ValueError(f"cannot read the record {path.name}: {exc.strerror or exc}") from None
    code = f"{net.get('code') or ''}{net.get('join_secret') or ''}"
    if code and discovery.lookup_local(code) is not None:
        raise ValueError("this game's room is open right now: it is hosted in another window "
                         "or session")
    return path


async def open_room(plan: HostPlan, say: Callable[[str], None] = log.warning) -> Room:
    """Start (or reuse) a relay and open the room, fresh or resumed from the last record.
    OSError if no relay can be reached, ValueError if there is nothing to resume."""
    relay, url = await start_relay(plan, say)
    try:
        if plan.resume:
            host = NetHost.resume(resumable(plan.record), url, bot_delay=plan.bot_delay)
        else:
            assert plan.game is not None
            clock = clocks.preset(plan.game, plan.clock or "none", plan.seats,
                                  plan.out_of_time)
            host = NetHost(plan.game, plan.seats, plan.options, relay_url=url,
                           host_name=plan.host_name, level=plan.level, seed=plan.seed,
                           bot_delay=plan.bot_delay, clock=clock)
        host.set_min_finished(plan.min_finished)
        await host.open()
    except BaseException:
        if relay is not None:
            await relay.stop()
        raise
    room = Room(host, relay, url)
    await room.announce(plan.lan, say)
    if plan.public and not host.started:
        host.billboard.set(True, plan.fill_after)
    if plan.resume:
        await host.begin_resumed()
    return room
