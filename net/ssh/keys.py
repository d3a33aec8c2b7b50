"""The table's own keys and folders: its SSH host key, made once and kept private (a new one
makes every player's client warn), or one file every SSH node of a table shares
(`serve --ssh-host-key FILE`: players reach whichever node the balancer picks, and their
clients must see one key), and a data directory per player under it."""

from __future__ import annotations

import logging
import os
from pathlib import Path

import asyncssh

from net import home
from net.players import identity

log = logging.getLogger("tabletop.sshd")
HOST_KEY = "ssh_host_ed25519_key"


def host_key(shared: Path | None = None) -> asyncssh.SSHKey:
    """The table's host key: the file `shared` names (never made here: every node of the table
    must read the same one), else made on first start and kept (private) in the data
    directory."""
    if shared is not None:
        try:
            return asyncssh.read_private_key(str(shared))
        except (OSError, asyncssh.KeyImportError) as exc:
            raise ValueError(f"cannot read the SSH host key {shared} ({exc}); make one with "
                             "ssh-keygen -t ed25519 -N '' -f FILE") from None
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


def player_dir(ident: str, root: Path | None = None) -> Path:
    """A player's own folder under `root` (default: this data directory's `ssh/players`)."""
    path = (root or ssh_dir() / "players") / ident
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    for folder in (path, path / "data", path / "config"):
        folder.mkdir(mode=0o700, exist_ok=True)
    return path


def give_identity(secret: bytes, key: asyncssh.SSHKey, data: Path) -> None:
    """A table on several machines: make the identity the shared `secret` derives for the
    holder of `key` the one of their data directory `data`, so their games are rated as the
    same player whichever machine they came in on (net.players.identity says what this trusts
    the table with). Best effort: without it the player's app makes one of its own."""
    try:
        identity.keep(identity.derived(secret, key.public_data), data)
    except OSError as exc:
        log.error("cannot write a player's identity into %s: %s", data, exc)
