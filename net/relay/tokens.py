"""Who owns a room code, and proving it without giving secrets away.

A relay signs each room's host token with a secret kept in its data directory: the token is
an HMAC of the code, so a restarted relay still knows which token owns which code without
remembering any room, and nobody can open a known code without its token. Seat tokens never
travel to a room whose host cannot prove it holds the host token: a peer learns, with its
seat token, a proof key (an HMAC of its token under the host token), announces only a hash
of its token (the seat id) and a fresh nonce, and sends the token itself only after the host
answered with the HMAC of that nonce under the proof key. A squatter holds neither the host
token nor the seat token, so it cannot answer.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import os
import secrets
from pathlib import Path

from net.records import store

_SECRET_FILE = "relay-secret"


def relay_secret(folder: Path | None = None) -> bytes:
    """This machine's relay secret (created once, readable by this user only)."""
    path = (folder or store.data_dir()) / _SECRET_FILE
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


def _mac(key: bytes | str, text: str) -> bytes:
    raw = key.encode() if isinstance(key, str) else key
    return hmac.new(raw, text.encode(), hashlib.sha256).digest()


def host_token(secret: bytes, code: str) -> str:
    """The host token of room `code` (normal form) on the relay holding `secret`."""
    return base64.urlsafe_b64encode(_mac(secret, f"tabletop-tui host {code}")[:24]).decode()


def owns(secret: bytes, code: str, token: str | None) -> bool:
    return bool(token) and hmac.compare_digest(host_token(secret, code), str(token))


def seat_id(token: str) -> str:
    """What a peer announces instead of its seat token: the host and relay recognise it, a
    squatter learns nothing usable from it."""
    return hashlib.sha256(f"tabletop-tui seat {token}".encode()).hexdigest()[:32]


def proof_key(host_token: str, token: str) -> str:
    """Handed to a seat's person with its token; only the room's real host can compute it."""
    return _mac(host_token, f"tabletop-tui proof key {token}").hex()


def proof(key: str, nonce: str) -> str:
    """The host's answer to a peer's nonce."""
    return _mac(key, f"tabletop-tui proof {nonce}").hex()


def proves(key: str, nonce: str, answer: object) -> bool:
    return isinstance(answer, str) and hmac.compare_digest(proof(key, nonce), answer)


def log_name(code: str) -> str:
    """How logs name a room: a short hash, so a relay log leaks no live codes."""
    return hashlib.sha256(f"tabletop-tui log {code}".encode()).hexdigest()[:8]
