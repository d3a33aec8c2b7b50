"""Who owns a room code: a relay signs each room's host token with a secret kept in its data
directory (or shared by every relay of one table: `SECRET_ENV`, a file). The token is the
time the room was first opened and an HMAC of the code and that time, so any relay holding
the secret (this one restarted, or another after this one died) knows a room's owner without
remembering any room. A host draws its own room code (so a load balancer can route by it
before the room exists), and somebody who opens the same code anew while its room moves from
a dead relay to another gets a later time: the older token always wins the code back.
(What a host proves to its peers with that token is net.wire.proofs.) The same secret names
a joiner's address group to a room's host without telling it the address (`source_name`).
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import os
import secrets
import time
from pathlib import Path

from net import home
from net.wire import proofs

_SECRET_FILE = "relay-secret"
# The secret the relays of one table share (else each relay keeps its own): as hex, or a file
# holding it (hex, or raw bytes).
SECRET_ENV = "TABLETOP_TUI_RELAY_SECRET"
SECRET_FILE_ENV = "TABLETOP_TUI_RELAY_SECRET_FILE"


def shared_secret() -> bytes | None:
    """The table's shared relay secret, from `SECRET_FILE_ENV` or `SECRET_ENV`; None if
    neither is set. ValueError (OSError for a file) for one that cannot be used."""
    if path := os.environ.get(SECRET_FILE_ENV):
        raw = Path(path).read_bytes().strip()
        with contextlib.suppress(ValueError, UnicodeDecodeError):
            raw = bytes.fromhex(raw.decode())
    elif text := os.environ.get(SECRET_ENV):
        raw = bytes.fromhex(text.strip())
    else:
        return None
    if len(raw) < 32:
        raise ValueError("a relay secret needs at least 32 bytes (64 hex digits)")
    return raw


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


def host_token(secret: bytes, code: str, opened: int | None = None) -> str:
    """The host token of room `code` (normal form), first opened at Unix time `opened`
    (None: now), signed with `secret`: `opened.mac`."""
    when = int(time.time()) if opened is None else opened
    mac = proofs.mac(secret, f"tabletop-tui host {code} {when}")[:18]
    return f"{when}.{base64.urlsafe_b64encode(mac).decode()}"


def owns(secret: bytes, code: str, token: str | None) -> int | None:
    """When `token` says room `code` was first opened, if it is that room's token; else None."""
    when, _, mac = str(token or "").partition(".")
    if not (when.isdigit() and mac):
        return None
    if not hmac.compare_digest(host_token(secret, code, int(when)), str(token)):
        return None
    return int(when)


def source_name(secret: bytes, code: str, group: str) -> str:
    """How a room's host hears of the address group (net.relay.addresses) a join came from,
    to slow down a guesser's own joins and nobody else's: a name keyed with `secret` and
    the room, so the host learns no address (IPv4 is too small a space for a plain hash)
    and cannot follow one joiner from room to room. The relays of one table, sharing the
    secret, name a group alike."""
    return proofs.mac(secret, f"tabletop-tui source {code} {group}")[:12].hex()


def log_name(code: str) -> str:
    """How logs name a room: a short hash, so a relay log leaks no live codes."""
    return hashlib.sha256(f"tabletop-tui log {code}".encode()).hexdigest()[:8]
