"""SPAKE2 over Ed25519, message for message and key for key the `spake2` package's (0.9,
`SPAKE2_A`/`SPAKE2_B`, as magic-wormhole uses it), with libsodium doing every curve operation.

Why our own: the package multiplies points in pure Python, bit by bit, so its time depends on
the password scalar; libsodium's operations (through PyNaCl) take the same time for every
scalar and are fast. The protocol is the package's, unchanged, so either side may be the
package: tests/net/test_pake.py runs each of ours against the package's other side and holds
both to known answers. docs/protocol.md ("End-to-end encryption") says what is computed.
"""

from __future__ import annotations

import os
from hashlib import sha256

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from nacl.bindings import (
    crypto_core_ed25519_add,
    crypto_core_ed25519_is_valid_point,
    crypto_core_ed25519_scalar_reduce,
    crypto_core_ed25519_sub,
    crypto_scalarmult_ed25519_base_noclamp,
    crypto_scalarmult_ed25519_noclamp,
)
from nacl.exceptions import RuntimeError as SodiumError

SIDE_A, SIDE_B = b"A", b"B"
# The package's fixed points (ParamsEd25519.M and .N: the seeds b"M" and b"N" hashed onto the
# prime-order subgroup, so nobody knows their logarithms), in the standard encoding.
M = bytes.fromhex("15cfd18e385952982b6a8f8c7854963b58e34388c8e6dae891db756481a02312")
N = bytes.fromhex("f04f2e7eb734b2a8f8b472eaf9c3c632576ac64aea650b496a8a20ff00e583c3")
MESSAGE_BYTES = 33  # the side byte and a point


class BadMessage(ValueError):
    """What came from the other side is no SPAKE2 message this side can take."""


def password_scalar(password: bytes) -> bytes:
    """w: 48 bytes of HKDF-SHA256 (no salt, info "SPAKE2 pw") as a big-endian number, modulo
    the group order; a scalar is 32 bytes little-endian, as libsodium takes it."""
    wide = HKDF(hashes.SHA256(), 48, b"", b"SPAKE2 pw").derive(password)
    return crypto_core_ed25519_scalar_reduce(wide[::-1] + bytes(16))


def random_scalar() -> bytes:
    """A secret scalar as good as uniform below the group order (64 random bytes reduced)."""
    return crypto_core_ed25519_scalar_reduce(os.urandom(64))


class Spake2:
    """One side (SIDE_A or SIDE_B) of one exchange: `message` goes to the other side, whose
    message `finish` turns into the 32-byte key. `secret` (32 bytes, little-endian, below the
    group order) fixes the secret scalar for known-answer tests; by default it is random."""

    def __init__(self, side: bytes, password: bytes, id_a: bytes, id_b: bytes,
                 secret: bytes | None = None) -> None:
        if side not in (SIDE_A, SIDE_B):
            raise ValueError("a side is b'A' or b'B'")
        self.side = side
        w = password_scalar(password)
        blinding, unblinding = (M, N) if side == SIDE_A else (N, M)
        self._secret: bytes | None = random_scalar() if secret is None else secret
        element = crypto_core_ed25519_add(crypto_scalarmult_ed25519_base_noclamp(self._secret),
                                          crypto_scalarmult_ed25519_noclamp(w, blinding))
        self.message = side + element
        # Worked out now: it depends on nothing the other side sends.
        self._unblinding = crypto_scalarmult_ed25519_noclamp(w, unblinding)
        self._head = sha256(password).digest() + sha256(id_a).digest() + sha256(id_b).digest()

    def finish(self, theirs: bytes) -> bytes:
        """The key; BadMessage if `theirs` is not the other side's SPAKE2 message. Once only:
        the secret scalar is gone after the first call."""
        secret, self._secret = self._secret, None
        if secret is None:
            raise BadMessage("this exchange is already finished")
        if len(theirs) != MESSAGE_BYTES or theirs[:1] not in (SIDE_A, SIDE_B):
            raise BadMessage(f"a message is a side byte and a point, {MESSAGE_BYTES} bytes")
        if theirs[:1] == self.side:
            raise BadMessage("the message comes from this side, not the other one")
        element, mine = theirs[1:], self.message[1:]
        # Canonical, on the curve, in the prime-order subgroup, not of small order.
        if not crypto_core_ed25519_is_valid_point(element):
            raise BadMessage("the message holds no point of the prime-order group")
        if element == mine:
            raise BadMessage("the message is this side's own, sent back")
        try:  # fails for the identity: a message of exactly w·N (w·M) gives no key
            shared = crypto_scalarmult_ed25519_noclamp(
                secret, crypto_core_ed25519_sub(element, self._unblinding))
        except SodiumError:
            raise BadMessage("the message leaves nothing once the password is taken out") from None
        x_msg, y_msg = (mine, element) if self.side == SIDE_A else (element, mine)
        return sha256(self._head + x_msg + y_msg + shared).digest()
