"""What a public room says of itself to its relay, checkably. A host lists a room as open to
anyone (the relay shows it to every passer-by); its name beside the room comes with its
identity key and a signature over the room code, the name and the key, so a relay can put a
rating or a finished share beside it knowing the key's holder listed it, and nobody lists a
room under someone else's identity. The same fingerprint names a key everywhere (records,
ladders, lobbies): it lives here, at the bottom, because the relay needs it too.
"""

from __future__ import annotations

import base64
import hashlib

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey


def fingerprint(public: bytes) -> str:
    """How people and ladders name a key: `id:` and 16 base32 symbols of its SHA-256."""
    digest = base64.b32encode(hashlib.sha256(public).digest()).decode()[:16]
    return "id:" + "-".join(digest[i:i + 4] for i in range(0, 16, 4))


def statement(room: str, name: str, public: bytes) -> bytes:
    """What a host signs to list room `room` (normal form) under `name` and its key."""
    return b"tabletop-tui v1 public %s %s " % (room.encode(), name.encode()) + public


def proven(room: str, name: str, public: bytes, signature: bytes) -> str | None:
    """The fingerprint of `public` if `signature` lists `room` under `name` with it."""
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature,
                                                          statement(room, name, public))
    except (ValueError, InvalidSignature):
        return None
    return fingerprint(public)
