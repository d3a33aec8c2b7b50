"""Proving a seat without giving it away. Seat tokens never travel to a room whose host cannot
prove it holds the room's host token (net.relay.tokens): a peer learns, with its seat token, a
proof key (an HMAC of its token under the host token), announces only a hash of its token (the
seat id) and a fresh nonce, and sends the token itself only after the host answered with the
HMAC of that nonce under the proof key. A squatter holds neither the host token nor the seat
token, so it cannot answer."""

from __future__ import annotations

import hashlib
import hmac


def mac(key: bytes | str, text: str) -> bytes:
    """HMAC-SHA256 of `text` under `key`."""
    raw = key.encode() if isinstance(key, str) else key
    return hmac.new(raw, text.encode(), hashlib.sha256).digest()


def seat_id(token: str) -> str:
    """What a peer announces instead of its seat token: the host and relay recognise it, a
    squatter learns nothing usable from it."""
    return hashlib.sha256(f"tabletop-tui seat {token}".encode()).hexdigest()[:32]


def proof_key(host_token: str, token: str) -> str:
    """Handed to a seat's person with its token; only the room's real host can compute it."""
    return mac(host_token, f"tabletop-tui proof key {token}").hex()


def proof(key: str, nonce: str) -> str:
    """The host's answer to a peer's nonce."""
    return mac(key, f"tabletop-tui proof {nonce}").hex()


def proves(key: str, nonce: str, answer: object) -> bool:
    return isinstance(answer, str) and hmac.compare_digest(proof(key, nonce), answer)
