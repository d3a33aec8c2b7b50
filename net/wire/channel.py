"""End-to-end encryption between the host and each peer: the relay carries, never reads.

The join code's last four symbols (`codes.split`) never reach the relay. Host and peer run
SPAKE2 keyed by the whole code (`spake2`, as magic-wormhole does) through the relay, so
each side learns a shared secret only if both typed the same code, and a relay that guesses
gets one online try per exchange and nothing to test guesses against offline. From that
secret HKDF-SHA256 derives one key per direction; every payload after it travels sealed with
ChaCha20-Poly1305 under a counter nonce, and the receiver takes only the next counter, so a
frame the relay tampered with, replayed or moved ahead is refused and changes nothing.

`Crypto` is the whole cryptographic surface the host and client use (exchange plus
channel), so a benchmark can swap in a null one and measure what encryption costs.
docs/protocol.md ("End-to-end encryption") is the normative description.
"""

from __future__ import annotations

from typing import Any, ClassVar, Protocol

import msgpack
from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from spake2 import SPAKE2_A, SPAKE2_B
from spake2.spake2 import (
    DefaultParams,
    OnlyCallFinishOnce,
    OnlyCallStartOnce,
    ReflectionThwarted,
)

from net.wire import edwards
from net.wire.frames import VERSION, ProtocolError, unpack

ID_PEER, ID_HOST = b"tabletop-tui peer", b"tabletop-tui host"
TO_PEER, TO_HOST = b"host to peer", b"peer to host"  # the two directions, in KDF and AAD
WRONG_CODE = "wrong join code: check the last four symbols"
NONCE_BYTES = 12
TAG_BYTES = 16  # what sealing adds to every payload


class Refused(ProtocolError):
    """A sealed frame this side will not take (`code`: tampered, replayed or reordered).
    Nothing changed: the counter still waits for the frame it expected."""


def password(room: str, secret: str) -> bytes:
    """The SPAKE2 password: the whole code, bound to this protocol version."""
    return f"tabletop-tui v{VERSION} {room}{secret}".encode()


def derive(shared: bytes, room: str, direction: bytes) -> bytes:
    """One direction's 32-byte key from the SPAKE2 result; the room code is the salt."""
    info = b"tabletop-tui v%d " % VERSION + direction
    return HKDF(hashes.SHA256(), 32, room.encode(), info).derive(shared)


def aad(direction: bytes, n: int) -> bytes:
    """What each seal binds besides its payload: version, frame type, direction, counter."""
    return b"tabletop-tui v%d sealed " % VERSION + direction + b" " + n.to_bytes(8, "big")


class Channel(Protocol):
    """A sealed two-way channel: `seal` what this side sends, `open` what it receives;
    `expected` is the counter of the next frame it will open (0: it has opened none);
    `secret` what it leaves for resumption keys (empty for a resumed channel)."""

    expected: int
    secret: bytes

    def seal(self, payload: dict[str, Any]) -> tuple[int, bytes]: ...

    def open(self, n: int, data: bytes) -> dict[str, Any]: ...


class Exchange(Protocol):
    """One side of a key exchange: `message` goes to the other side, `finish` (with its
    message) yields the channel."""

    message: bytes

    def finish(self, theirs: bytes) -> Channel: ...


class SealedChannel:
    """ChaCha20-Poly1305 with a counter per direction, from 0; nonce = counter, big-endian.
    `secret` is what a first exchange leaves for the resumption keys (net.wire.resume)."""

    def __init__(self, send_key: bytes, recv_key: bytes, send_dir: bytes, recv_dir: bytes,
                 secret: bytes = b"") -> None:
        self.secret = secret
        self._send, self._recv = ChaCha20Poly1305(send_key), ChaCha20Poly1305(recv_key)
        self._send_dir, self._recv_dir = send_dir, recv_dir
        self.sent = 0  # the counter of the next frame sealed
        self.expected = 0  # the counter of the next frame accepted

    def seal(self, payload: dict[str, Any]) -> tuple[int, bytes]:
        n = self.sent
        plain = msgpack.packb(payload, use_bin_type=True)
        data = self._send.encrypt(n.to_bytes(NONCE_BYTES, "big"), plain, aad(self._send_dir, n))
        self.sent += 1
        return n, data

    def open(self, n: int, data: bytes) -> dict[str, Any]:
        if n < self.expected:
            raise Refused("replayed", f"sealed frame {n} came again (the next is "
                                      f"{self.expected}): refused as a replay")
        if n > self.expected:
            raise Refused("reordered", f"sealed frame {n} came before frame {self.expected}: "
                                       "refused as out of order")
        try:
            plain = self._recv.decrypt(n.to_bytes(NONCE_BYTES, "big"), data,
                                       aad(self._recv_dir, n))
        except InvalidTag:
            raise Refused("tampered", f"sealed frame {n} does not open with this room's key: "
                                      "refused as forged or damaged") from None
        # Authentic: the counter moves on even if the sender's payload is no good (that is
        # the sender's fault, not the relay's, and a stuck counter would refuse all that comes).
        self.expected += 1
        payload = unpack(plain)
        if not isinstance(payload, dict) or not isinstance(payload.get("t"), str):
            raise ProtocolError("malformed", "a sealed payload must be a map with a string 't'")
        return payload


class _Fast:
    """The `spake2` package's SPAKE2 (its parameters, password scalar, messages, transcript and
    key) with net.wire.edwards doing the arithmetic, about five times faster. Two choices beyond the
    package's: the secret scalar is clamped like an X25519 key, a multiple of 8, so the shared
    point is K = x·(Y - w·N) with the cofactor cleared as RFC 9382 does, in place of the
    package's slower check that Y lies in the prime-order subgroup (a small-order part of Y
    then changes nothing; a Y of small order fails); and the password's unblinding point is
    worked out in `start`, since it depends on nothing the other side sends. Keys agree with
    the package's own side: tests/net/test_e2e_channel.py holds them to it."""

    blinding: ClassVar[edwards.FixedBase]  # my_blinding() as a table: M for A, N for B
    unblinding: ClassVar[edwards.FixedBase]

    def start(self) -> bytes:
        side: Any = self
        if side._started:
            raise OnlyCallStartOnce("start() can only be called once")
        side._started = True
        self._x = edwards.clamp(side.entropy_f(32))
        mine = self.blinding.add_multiple(edwards.times_clamped(self._x, _BASE), side.pw_scalar)
        side.outbound_message = edwards.encode(mine)
        self._unblinding = self.unblinding.add_multiple(edwards.IDENTITY,
                                                        -side.pw_scalar % edwards.L)
        message: bytes = side.side + side.outbound_message
        return message

    def finish(self, inbound_side_and_message: bytes) -> bytes:
        side: Any = self
        if side._finished:
            raise OnlyCallFinishOnce("finish() can only be called once")
        side._finished = True
        side.inbound_message = side._extract_message(inbound_side_and_message)
        inbound = edwards.decode(side.inbound_message)
        if edwards.encode(inbound) == side.outbound_message:
            raise ReflectionThwarted
        shared = edwards.times_clamped(self._x, edwards.add(inbound, self._unblinding))
        key: bytes = side._finalize(edwards.encode(shared))
        return key


_BASE = DefaultParams.group.Base.XYTZ
_M, _N = edwards.FixedBase(DefaultParams.M.XYTZ), edwards.FixedBase(DefaultParams.N.XYTZ)


class Spake2Peer(_Fast, SPAKE2_A):
    """SPAKE2 side A."""

    blinding, unblinding = _M, _N


class Spake2Host(_Fast, SPAKE2_B):
    """SPAKE2 side B."""

    blinding, unblinding = _N, _M


class _Spake2Exchange:
    def __init__(self, side: Any, room: str, mine: bytes, theirs: bytes) -> None:
        self._side, self._room, self._mine, self._theirs = side, room, mine, theirs
        self.message: bytes = side.start()

    def finish(self, theirs: bytes) -> Channel:
        try:
            shared = self._side.finish(theirs)
        except Exception as exc:  # spake2 raises several types for a message that is no point
            raise ProtocolError("bad_pake", f"not a valid key-exchange message ({exc})") from None
        return SealedChannel(derive(shared, self._room, self._mine),
                             derive(shared, self._room, self._theirs), self._mine, self._theirs,
                             derive(shared, self._room, b"resumption secret"))


class Crypto(Protocol):
    """Where exchanges come from: the whole cryptographic surface of host and client."""

    def peer_exchange(self, room: str, secret: str) -> Exchange: ...

    def host_exchange(self, room: str, secret: str) -> Exchange: ...


class Spake2Crypto:
    """SPAKE2 (peer = side A, host = side B) plus ChaCha20-Poly1305: what the product uses."""

    def peer_exchange(self, room: str, secret: str) -> Exchange:
        side = Spake2Peer(password(room, secret), idA=ID_PEER, idB=ID_HOST)
        return _Spake2Exchange(side, room, TO_HOST, TO_PEER)

    def host_exchange(self, room: str, secret: str) -> Exchange:
        side = Spake2Host(password(room, secret), idA=ID_PEER, idB=ID_HOST)
        return _Spake2Exchange(side, room, TO_PEER, TO_HOST)


CRYPTO: Crypto = Spake2Crypto()
