"""One SSH connection at the table's door: who it is (see net.ssh.access), how it logs in, and
the sessions it asks for.

A connection costs the server a file descriptor for as long as it stays open, so none stays
open for nothing: the table turns one away as it arrives when its address (or everybody) has
too many connections or logins in progress, or at random when many are (net.ssh.limits), or
when its address is serving a penalty (net.ssh.penalties); it closes a connection that has not
begun its key exchange after a few seconds, one that has not logged in after the login
timeout, and a logged-in connection that has had no session for a short grace (a session that
was refused does not count). Each that leaves without logging in, and each closed for having
no session, charges its address the seconds it held on. Wrong passwords are answered after a
wait that grows with the address's wrong guesses, and a connection gets only a few.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

import asyncssh

from net.ssh.access import Visitor
from net.ssh.penalties import FAILED_LOGIN
from net.ssh.proxied import Origin
from net.ssh.session import TableSession
from net.words import counted

if TYPE_CHECKING:
    from net.ssh.server import SshTable

log = logging.getLogger("tabletop.sshd")


class TableDoor(asyncssh.SSHServer):
    """One SSH connection: who it is (see net.ssh.access) and its sessions."""

    def __init__(self, table: SshTable, origin: Origin | None = None) -> None:
        self.table = table
        self.origin = origin  # what a trusted balancer said of the connection (net.ssh.proxied)
        self.access = table.config.access
        self.visitor = Visitor(addr="?")
        self.group = "?"  # the address as the table counts it (net.relay.addresses)
        self.conn: asyncssh.SSHServerConnection | None = None
        self.turned_away = False  # refused as it arrived: never counted at the table
        self.logged_in = False
        self.live = 0  # sessions of this connection that hold a place at the table
        self.tries = 0  # passwords tried on this connection
        self.wrong_keys = 0  # keys offered that are not on the table's list
        self._asked = False  # gave a user name: tried to log in
        self._closing = False  # out of password tries
        self._unused: asyncio.TimerHandle | None = None
        self._hello: asyncio.TimerHandle | None = None
        self._since = time.monotonic()
        self._stalled = ""  # why this side closed a login that stalled

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        peer = conn.get_extra_info("peername")
        self.visitor.addr = str(peer[0]) if peer else "?"
        local = conn.get_extra_info("sockname")
        self.visitor.reached = str(local[0]) if local else ""
        self.visitor.port = int(local[1]) if local else 0
        if self.origin is not None:
            self.visitor.addr = self.origin.client or self.visitor.addr
            self.visitor.reached = self.origin.reached or self.visitor.reached
            self.visitor.port = self.origin.port or self.visitor.port
        why = self.table.arrive(self)
        if why is not None:
            # Once the version line is out (asyncssh sends it next), and before anything the
            # client sends is read: no key exchange is spent on it. A client that reads the
            # disconnect before its own writes fail shows the reason (OpenSSH rarely does: it
            # says the connection was closed, as it does for OpenSSH's own MaxStartups).
            self.turned_away = True
            asyncio.get_running_loop().call_soon(
                conn.disconnect, asyncssh.DISC_TOO_MANY_CONNECTIONS, why)
            return
        self._hello = asyncio.get_running_loop().call_later(self.table.limits.hello_timeout,
                                                            self._check_hello)

    def _check_hello(self) -> None:
        """A client sends its version and its key exchange's first message at once (its user
        is asked nothing before): one that has not is holding a slot, not logging in."""
        self._hello = None
        if self.conn is not None and self.conn.get_extra_info("recv_cipher") is None:
            self._stalled = "no key exchange in time"
            self.conn.disconnect(asyncssh.DISC_PROTOCOL_ERROR,
                                 f"no key exchange within {self.table.limits.hello_timeout:g} s")

    def connection_lost(self, exc: Exception | None) -> None:
        for timer in (self._unused, self._hello):
            if timer is not None:
                timer.cancel()
        self._unused = self._hello = None
        if self.turned_away:
            return
        self.table.leave(self)
        if self.logged_in:
            return
        if exc is not None and "timeout" in str(exc).lower():
            self._stalled = "timed out"
        how = (self._stalled or (counted(self.tries, "wrong password") if self.tries
               else f"{counted(self.wrong_keys, 'key')} not on the list" if self.wrong_keys
               else "gave up"))
        if self._asked and not self.tries:
            log.info("ssh login failed from %s as %r: %s", self.visitor.addr, self.visitor.name,
                     how)
        failed = FAILED_LOGIN if self.tries or self.wrong_keys else 0.0
        self.table.charge(self, time.monotonic() - self._since + failed, how)

    # -- sessions ------------------------------------------------------------------------------
    def auth_completed(self) -> None:
        self.logged_in = True
        if self._hello is not None:
            self._hello.cancel()
            self._hello = None
        self._await_session()

    def _await_session(self) -> None:
        """A connection with no session at the table is closed after the grace: one that
        logged in and never asked, or asked only for what was refused, or whose last session
        ended and which did not go."""
        self._unused = asyncio.get_running_loop().call_later(self.table.limits.grace,
                                                             self._close_unused)

    def _close_unused(self) -> None:
        self._unused = None
        if not self.live and self.conn is not None:
            self.table.charge(self, self.table.limits.grace, "no session at the table")
            self.conn.disconnect(asyncssh.DISC_BY_APPLICATION, "no session at the table")

    def occupied(self) -> None:
        """One of this connection's sessions took a place at the table."""
        self.live += 1
        if self._unused is not None:
            self._unused.cancel()
            self._unused = None

    def vacated(self) -> None:
        self.live -= 1
        if not self.live and self.conn is not None and self._unused is None:
            self._await_session()

    def session_requested(self) -> TableSession | bool:
        if self.turned_away:  # closing already; never a session
            return False
        return TableSession(self.table, self.visitor)

    # -- logging in ----------------------------------------------------------------------------
    def begin_auth(self, username: str) -> bool:
        self.visitor.username = username
        self._asked = True
        return True

    def public_key_auth_supported(self) -> bool:
        return self.access.takes_keys()

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        """Called for the key of every offer, the signed one last: asyncssh checks that
        signature right after this and completes the login, so the key kept here is the one
        the client proved it holds (any other way in clears it)."""
        if not self.access.key_allowed(key, self.visitor.addr, self.visitor.addr):
            self.wrong_keys += 1
            return False
        self.visitor.key = key
        return True

    def password_auth_supported(self) -> bool:
        return self.access.takes_password()

    async def validate_password(self, username: str, password: str) -> bool:
        """Tries are counted as they come (a client may send the next before the last is
        answered); each waits out the address's delay before it is checked."""
        self.tries += 1
        most = self.table.limits.password_tries
        if self.tries > most:  # sent before the last was answered: never checked
            self._no_more_tries(most)
            return False
        guesses = self.table.guesses
        await self.table.pause(guesses.delay(self.group))
        if self.access.password_ok(password):
            self.visitor.key = None
            return True
        wrong = guesses.wrong(self.group)
        log.info("ssh login failed from %s as %r: wrong password (%d on this connection, %d "
                 "from its address in 15 minutes; the next waits %.0f s)", self.visitor.addr,
                 self.visitor.name, self.tries, wrong, guesses.delay(self.group))
        if self.tries == most:
            self._no_more_tries(most)
        return False

    def _no_more_tries(self, most: int) -> None:
        """Close the connection once the failure has gone out (so that a client shows it,
        then the reason)."""
        if self.conn is not None and not self._closing:
            self._closing = True
            asyncio.get_running_loop().call_soon(
                self.conn.disconnect, asyncssh.DISC_NO_MORE_AUTH_METHODS_AVAILABLE,
                f"{counted(most, 'wrong password')}; connect again to try again")

    def kbdint_auth_supported(self) -> bool:
        return self.access.open

    def get_kbdint_challenge(self, username: str, lang: str, submethods: str) -> bool:
        self.visitor.key = None
        return self.access.open
