"""The table's own keys and folders: its SSH host key, made once and kept private (a new one
makes every player's client warn), and a data directory per player under it."""

from __future__ import annotations

import os
from pathlib import Path

import asyncssh

from net import home

HOST_KEY = "ssh_host_ed25519_key"


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


def player_dir(ident: str) -> Path:
    path = ssh_dir() / "players" / ident
    for folder in (path.parent, path, path / "data", path / "config"):
        folder.mkdir(mode=0o700, exist_ok=True)
    return path
