"""One SSH connection at the table's door: who it is (see net.ssh.access), how it logs in, and
the sessions it asks for."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import asyncssh

from net.ssh.access import Visitor
from net.ssh.session import TableSession

if TYPE_CHECKING:
    from net.ssh.server import SshTable


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
