"""Who may sit down at an SSH table, and who they are once seated.

A table is open unless told otherwise: any key, or no key at all, gets in (an SSH client
without keys is let in through keyboard-interactive with no questions asked, because OpenSSH
never offers the `none` method twice). `--ssh-keys FILE` closes it to the keys in an
authorized_keys file; `--ssh-password` asks everyone for one shared secret (and, together with
`--ssh-keys`, lets in either).

A player's identity is the key they proved they hold, else the name they gave. It names their
own data directory under the server's, so a reconnect from the same key finds the same saved
seat tokens and settings. With no key, a name is all there is: whoever types that name is that
player, which is the honest limit of an open table.
"""

from __future__ import annotations

import hashlib
import hmac
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import asyncssh

from net.wire.text import clean

# Longest player name taken from an SSH user name (the app's own limit for typed names).
MAX_NAME = 32
FALLBACK_NAME = "player"


class Access:
    """The table's door policy; `ValueError` from `load` names what is wrong with the options."""

    def __init__(self, keys: asyncssh.SSHAuthorizedKeys | None = None,
                 password: str | None = None) -> None:
        self.keys = keys
        self.password = password

    @classmethod
    def load(cls, keys_file: str | None, password: str | None) -> Access:
        keys = None
        if keys_file is not None:
            try:
                text = Path(keys_file).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise ValueError(f"cannot read the SSH keys file {keys_file}: {exc}") from None
            try:
                keys = asyncssh.import_authorized_keys(text)
            except (ValueError, asyncssh.KeyImportError) as exc:
                raise ValueError(f"{keys_file} is not in authorized_keys format: {exc}") from None
        if password is not None and not password:
            raise ValueError("--ssh-password needs a non-empty password")
        return cls(keys, password)

    @property
    def open(self) -> bool:
        return self.keys is None and self.password is None

    def describe(self) -> str:
        if self.open:
            return "open to anyone"
        ways = (["keys in the keys file"] if self.keys is not None else []) + (
            ["the shared password"] if self.password is not None else [])
        return "closed: " + " or ".join(ways)

    def takes_keys(self) -> bool:
        return self.open or self.keys is not None

    def key_allowed(self, key: asyncssh.SSHKey, host: str, addr: str) -> bool:
        if self.keys is None:
            return self.open
        return self.keys.validate(key, host, addr) is not None

    def takes_password(self) -> bool:
        return self.password is not None

    def password_ok(self, given: str) -> bool:
        if self.password is None:
            return False
        return hmac.compare_digest(given.encode(), self.password.encode())


def identity(key: asyncssh.SSHKey | None, username: str) -> str:
    """A directory name for a player: their key's hash, else their (case-folded) name's."""
    if key is not None:
        return "key-" + hashlib.sha256(key.public_data).hexdigest()[:32]
    return "name-" + hashlib.sha256(_folder_name(username).casefold().encode()).hexdigest()[:32]


def _folder_name(username: str) -> str:
    """The name a name-derived folder is the hash of. It is a key, not what is drawn: it
    stays as it always was (letters, marks, symbols and spaces kept), or players who logged
    in by name would lose their folders."""
    kept = "".join(ch for ch in username if unicodedata.category(ch)[0] not in "CZ" or ch == " ")
    return " ".join(kept.split())[:MAX_NAME] or FALLBACK_NAME


def player_name(username: str) -> str:
    """The SSH user name as a name at the table: one clean line (net.wire.text), trimmed."""
    return " ".join(clean(username).split())[:MAX_NAME] or FALLBACK_NAME


@dataclass
class Visitor:
    """Who is on the other end of one SSH connection."""

    addr: str
    username: str = ""
    key: asyncssh.SSHKey | None = None
    reached: str = ""  # the table's address the connection came in on
    port: int = 0  # and its port (behind a balancer: the balancer's, which players type)

    @property
    def name(self) -> str:
        return player_name(self.username)

    @property
    def identity(self) -> str:
        return identity(self.key, self.username)
