"""Coming back without the join code: a resumption proves the earlier session instead.

The join code's secret part is short (20 bits), so every exchange keyed by it is one online
guess for whoever answers it. A peer therefore runs one only when its player typed the code.
Its first exchange leaves both sides a resumption key, bound to the room and to the seat (or
to watching), that only they hold; every reconnect, every return of an away host and every
re-key after a damaged frame proves that key instead, with fresh X25519 keys on both sides
(`cryptography`'s X25519, HKDF-SHA256 and HMAC-SHA256): a relay that does not hold the key
learns nothing from it and gains no guess at the code. docs/protocol.md ("Resumption") is the
normative description.

Tickets are the relay's share: one-time secrets a host vouches for by their hash, so the relay
can let a returning seat owner past a full room without learning anything usable (a ticket
seen once is spent).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from net.wire.channel import BINDING, TO_HOST, TO_PEER, SealedChannel
from net.wire.frames import VERSION, ProtocolError

KEY_BYTES = 32
NONCE_BYTES = 16
# What a peer reads when a table will not take its resumption: it holds no code guess, so
# the player is told plainly who could be at fault.
NOT_PROVEN = ("this table could not prove it is the one you joined (the relay, or a host that "
              "lost its record): join again with the code to take your seat back")
UNKNOWN = ("this table does not know you any more (its host started afresh): join again with "
           "the code")


def seat_key(secret: bytes, room: str, seat: int | None) -> bytes:
    """The resumption key of a first exchange's `secret` for `seat` (None: watching)."""
    place = b"watch" if seat is None else b"seat %d" % seat
    info = b"tabletop-tui v%d resume %s %s" % (VERSION, room.encode(), place)
    return HKDF(hashes.SHA256(), KEY_BYTES, None, info).derive(secret)


def key_id(key: bytes) -> str:
    """How a resumption names its key in the clear: no use to anyone without the key."""
    return hmac.new(key, b"tabletop-tui resume id", hashlib.sha256).hexdigest()[:32]


def new_ticket() -> str:
    return secrets.token_hex(16)


def ticket_id(ticket: str) -> str:
    """What the host vouches for at the relay: the hash, never the ticket."""
    return hashlib.sha256(f"tabletop-tui ticket {ticket}".encode()).hexdigest()[:32]


def _raw(public: X25519PublicKey) -> bytes:
    return public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


def _transcript(room: str, rid: str, nonce: bytes, peer_pub: bytes, host_pub: bytes) -> bytes:
    return b"tabletop-tui v%d resumption %s %s " % (VERSION, room.encode(), rid.encode()) + (
        nonce + peer_pub + host_pub)


def _channel(key: bytes, shared: bytes, transcript: bytes, host: bool) -> SealedChannel:
    okm = HKDF(hashes.SHA256(), 2 * KEY_BYTES, key, transcript).derive(shared)
    to_host, to_peer = okm[:KEY_BYTES], okm[KEY_BYTES:]
    binding = HKDF(hashes.SHA256(), KEY_BYTES, key, BINDING + b" " + transcript).derive(shared)
    if host:
        return SealedChannel(to_peer, to_host, TO_PEER, TO_HOST, binding)
    return SealedChannel(to_host, to_peer, TO_HOST, TO_PEER, binding)


def _host_proof(key: bytes, transcript: bytes) -> bytes:
    return hmac.new(key, b"host " + transcript, hashlib.sha256).digest()


def _peer_public(raw: bytes) -> X25519PublicKey:
    if not isinstance(raw, bytes) or len(raw) != KEY_BYTES:
        raise ProtocolError("bad_resume", "a resumption key share is 32 bytes")
    return X25519PublicKey.from_public_bytes(raw)


@dataclass
class Resumption:
    """The peer's side: `message` fields go out in `resume`/`rejoin`; `finish` takes the
    host's answer and yields the channel, or refuses a host that cannot prove the key."""

    room: str
    key: bytes

    def __post_init__(self) -> None:
        self._private = X25519PrivateKey.generate()
        self.rid = key_id(self.key)
        self.nonce = secrets.token_bytes(NONCE_BYTES)
        self.public = _raw(self._private.public_key())

    def fields(self) -> dict[str, object]:
        return {"rid": self.rid, "nonce": self.nonce, "epub": self.public}

    def finish(self, host_pub: bytes, proof: bytes) -> SealedChannel:
        try:
            shared = self._private.exchange(_peer_public(host_pub))
        except ValueError:
            raise ProtocolError("not_proven", NOT_PROVEN) from None
        transcript = _transcript(self.room, self.rid, self.nonce, self.public, host_pub)
        if not hmac.compare_digest(_host_proof(self.key, transcript), bytes(proof)):
            raise ProtocolError("not_proven", NOT_PROVEN)
        return _channel(self.key, shared, transcript, host=False)


def answer(room: str, key: bytes, nonce: bytes, peer_pub: bytes
           ) -> tuple[dict[str, bytes], SealedChannel]:
    """The host's side for a peer that named `key`: the fields of `resumed` and the channel.
    ProtocolError for a key share that is no X25519 point (the peer cannot be let in)."""
    if not isinstance(nonce, bytes) or len(nonce) != NONCE_BYTES:
        raise ProtocolError("bad_resume", "a resumption nonce is 16 bytes")
    private = X25519PrivateKey.generate()
    mine = _raw(private.public_key())
    try:
        shared = private.exchange(_peer_public(peer_pub))
    except ValueError:
        raise ProtocolError("bad_resume", "not a usable resumption key share") from None
    transcript = _transcript(room, key_id(key), nonce, peer_pub, mine)
    return ({"epub": mine, "proof": _host_proof(key, transcript)},
            _channel(key, shared, transcript, host=True))
