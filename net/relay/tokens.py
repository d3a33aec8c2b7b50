"""Who owns a room code: a relay signs each room's host token with a secret kept in its data
directory. The token is an HMAC of the code, so a restarted relay still knows which token owns
which code without remembering any room, and nobody can open a known code without its token.
(What a host proves to its peers with that token is net.wire.proofs.)
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from net import home
from net.wire import proofs

_SECRET_FILE = "relay-secret"


def relay_secret(folder: Path | None = None) -> bytes:
    """This machine's relay secret (created once, readable by this user only)."""
    path = (folder or home.data_dir()) / _SECRET_FILE
    with contextlib.suppress(FileNotFoundError):
        data = path.read_bytes()
        if len(data) >= 32:
            return data
    fresh = secrets.token_bytes(32)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:  # another relay of this user won the race (or a torn file)
        data = path.read_bytes()
        if len(data) >= 32:
            return data
        fd = os.open(path, os.O_WRONLY | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as handle:
        handle.write(fresh)
    return fresh


def host_token(secret: bytes, code: str) -> str:
    """The host token of room `code` (normal form) on the relay holding `secret`."""
    return base64.urlsafe_b64encode(proofs.mac(secret, f"tabletop-tui host {code}")[:24]).decode()


def owns(secret: bytes, code: str, token: str | None) -> bool:
    return bool(token) and hmac.compare_digest(host_token(secret, code), str(token))


def log_name(code: str) -> str:
    """How logs name a room: a short hash, so a relay log leaks no live codes."""
    return hashlib.sha256(f"tabletop-tui log {code}".encode()).hexdigest()[:8]
