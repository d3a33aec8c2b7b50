"""net.wire.pake against the `spake2` package (0.9), the SPAKE2 it must stay interoperable with:
each of our sides against the package's other side for many passwords, both sides against
known answers (the package's own and ours, taken from the package's public API), the fixed
points M and N, and every kind of message that must give no key.

RFC 9382 has no vectors to use here: its test vectors are for P-256 only, and its transcript
and key schedule are not the package's (nor are its edwards25519 M and N).
"""

from __future__ import annotations

import os
from hashlib import sha512
from typing import Any

import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from nacl.bindings import crypto_core_ed25519_add, crypto_scalarmult_ed25519_noclamp
from nacl.exceptions import RuntimeError as SodiumError
from spake2 import SPAKE2_A, SPAKE2_B
from spake2.parameters.ed25519 import ParamsEd25519

from net.wire.channel import ID_HOST, ID_PEER, password
from net.wire.pake import SIDE_A, SIDE_B, BadMessage, M, N, Spake2, password_scalar

L = 2**252 + 27742317777372353535851937790883648493  # the prime subgroup's order
P = 2**255 - 19
IDENTITY = (1).to_bytes(32, "little")
ORDER_TWO = (P - 1).to_bytes(32, "little")  # (0, -1)

# From the package's own tests (spake2/test/test_compat.py): password b"password", no ids,
# the secret scalars its seeded generator drew, the messages, the key.
PACKAGE_VECTOR: dict[str, Any] = {
    "password": b"password",
    "x": 2611694063369306139794446498317402240796898290761098242657700742213257926693,
    "y": 7002393159576182977806091886122272758628412261510164356026361256515836884383,
    "w": 3515301705789368674385125653994241092664323519848410154015274772661223168839,
    "A": "416fc960df73c9cf8ed7198b0c9534e2e96a5984bfc5edc023fd24dacf371f2af9",
    "B": "42354e97b88406922b1df4bea1d7870f17aed3dba7c720b313edae315b00959309",
    "key": "a480bca13fa04464bb644f10e340125e96c9494f7399fef7c2bda67eb0fdf06d",
}
# The package's password scalars for Ed25519 (same file): password hex -> w, 32 bytes LE.
PACKAGE_SCALARS = {
    "7077": "cf090b60384cb818b12c8d972dfbaf910c0c7295c5cfe560e508f5f062f3960f",
    "0001feff": "e86622bb57ea0f6f9f963354f2973a43a9e981901a478e6478682374441b0c04",
}
# Ours, as a join uses it: this protocol's password and ids, the package's SPAKE2_A/_B fed
# entropy SHA-512(b"side A") and SHA-512(b"side B") (x, y: those 64 bytes big-endian mod L,
# written here 32 bytes little-endian); messages and key as the package gave them.
JOIN_VECTOR: dict[str, Any] = {
    "password": b'tabletop-tui v5 K7QX9MPAB3CD',
    "x": "07ce9c6a1ec97363c17fa38ce1c09c7bac5b6511da782a7159ad5294e45df802",
    "y": "f4e0c0e1e74c20df14b804a3a56e1b41c34edd8f0268a5d1c1a6db7841793109",
    "A": "41f5881dbc59e0611310858de5a253aa9f74aa6245ee75095d91da1f16f7c1d552",
    "B": "421c4b2cbebcd1623880622224e2e3664ecca227a35e80a17050a742f2136adc1e",
    "key": "4f26857cbe7d12352676a8559bb63336161e04f50d3dd2833b74d02f894d4995",
}


def le(n: int) -> bytes:
    return n.to_bytes(32, "little")


def test_each_side_agrees_with_the_package_for_any_password() -> None:
    passwords = [b"", b"pw", password("K7QX9MPA", "B3CD"), bytes(range(256)),
                 *(os.urandom(i) for i in range(1, 60))]
    for pw in passwords:
        ours, theirs = Spake2(SIDE_A, pw, ID_PEER, ID_HOST), SPAKE2_B(pw, idA=ID_PEER, idB=ID_HOST)
        to_ours = theirs.start()
        assert ours.finish(to_ours) == theirs.finish(ours.message), pw
        theirs_a, ours_b = SPAKE2_A(pw, idA=ID_PEER, idB=ID_HOST), Spake2(SIDE_B, pw, ID_PEER,
                                                                            ID_HOST)
        to_ours = theirs_a.start()
        assert ours_b.finish(to_ours) == theirs_a.finish(ours_b.message), pw
        ours_a, ours_b = Spake2(SIDE_A, pw, ID_PEER, ID_HOST), Spake2(SIDE_B, pw, ID_PEER, ID_HOST)
        assert ours_a.finish(ours_b.message) == ours_b.finish(ours_a.message)


def test_different_passwords_or_ids_give_different_keys() -> None:
    for ours, theirs in (
        (Spake2(SIDE_A, b"pw", ID_PEER, ID_HOST), SPAKE2_B(b"px", idA=ID_PEER, idB=ID_HOST)),
        (Spake2(SIDE_A, b"pw", ID_PEER, ID_HOST), SPAKE2_B(b"pw", idA=ID_HOST, idB=ID_PEER)),
    ):
        to_ours = theirs.start()
        assert ours.finish(to_ours) != theirs.finish(ours.message)


@pytest.mark.parametrize("vector", [PACKAGE_VECTOR, JOIN_VECTOR], ids=["package", "join"])
def test_known_answers(vector: dict[str, Any]) -> None:
    pw = vector["password"]
    ids = (b"", b"") if vector is PACKAGE_VECTOR else (ID_PEER, ID_HOST)
    x, y = (le(vector[k]) if isinstance(vector[k], int) else bytes.fromhex(vector[k])
            for k in ("x", "y"))
    a, b = Spake2(SIDE_A, pw, *ids, secret=x), Spake2(SIDE_B, pw, *ids, secret=y)
    assert (a.message.hex(), b.message.hex()) == (vector["A"], vector["B"])
    assert a.finish(b.message).hex() == b.finish(a.message).hex() == vector["key"]
    if "w" in vector:
        assert password_scalar(pw) == le(vector["w"])


def test_the_join_vector_is_the_packages_own_answer() -> None:
    """The vector above is what the package computes (with the entropy it names)."""
    entropy = {side: sha512(b"side " + side).digest() for side in (SIDE_A, SIDE_B)}
    pw = JOIN_VECTOR["password"]
    a = SPAKE2_A(pw, idA=ID_PEER, idB=ID_HOST, entropy_f=lambda n: entropy[SIDE_A][:n])
    b = SPAKE2_B(pw, idA=ID_PEER, idB=ID_HOST, entropy_f=lambda n: entropy[SIDE_B][:n])
    to_b, to_a = a.start(), b.start()
    assert (to_b.hex(), to_a.hex()) == (JOIN_VECTOR["A"], JOIN_VECTOR["B"])
    assert a.finish(to_a).hex() == b.finish(to_b).hex() == JOIN_VECTOR["key"]
    for side, key in ((SIDE_A, "x"), (SIDE_B, "y")):
        assert le(int.from_bytes(entropy[side], "big") % L).hex() == JOIN_VECTOR[key]


def test_password_scalars_are_the_packages() -> None:
    for pw_hex, w in PACKAGE_SCALARS.items():
        assert password_scalar(bytes.fromhex(pw_hex)).hex() == w
    for pw in (b"", password("K7QX9MPA", "B3CD"), os.urandom(33)):
        assert password_scalar(pw) == le(ParamsEd25519.group.password_to_scalar(pw))


def test_m_and_n_are_the_packages_and_made_as_the_protocol_document_says() -> None:
    """docs/protocol.md: y = 48 bytes of HKDF-SHA256(seed, no salt, info "SPAKE2 arbitrary
    element") big-endian mod p, the first of y, y + 1, ... that is the y of a point (x even),
    times 8. Done here with libsodium's addition (three doublings)."""
    assert (ParamsEd25519.M.to_bytes(), ParamsEd25519.N.to_bytes()) == (M, N)
    for seed, point in ((b"M", M), (b"N", N)):
        wide = HKDF(hashes.SHA256(), 48, b"", b"SPAKE2 arbitrary element").derive(seed)
        y = int.from_bytes(wide, "big") % P
        while True:
            try:
                q = crypto_core_ed25519_add(le(y), le(y))  # fails if y is no point's
            except SodiumError:
                y += 1
                continue
            q = crypto_core_ed25519_add(q, q)
            q = crypto_core_ed25519_add(q, q)
            if q != IDENTITY:
                break
            y += 1
        assert q == point


def test_a_message_that_is_no_spake2_message_gives_no_key() -> None:
    """Cut short, from our own side, off the curve, of small order, outside the prime-order
    subgroup, our own message sent back, or exactly w·N (nothing once the password is taken
    out: only a holder of the password can send it): BadMessage, no key."""
    pw = password("K7QX9MPA", "B3CD")
    good = Spake2(SIDE_B, pw, ID_PEER, ID_HOST).message
    w_n = crypto_scalarmult_ed25519_noclamp(password_scalar(pw), N)
    mixed = crypto_core_ed25519_add(good[1:], ORDER_TWO)  # a subgroup point plus one of order 2
    off_curve = next(le(y) for y in range(2, 100) if not on_curve(le(y)))
    cases = {
        "cut short": lambda mine: good[:-1],
        "too long": lambda mine: good + b"\0",
        "no side": lambda mine: b"C" + good[1:],
        "from side A": lambda mine: b"A" + good[1:],
        "off the curve": lambda mine: b"B" + off_curve,
        "the identity": lambda mine: b"B" + IDENTITY,
        "of order two": lambda mine: b"B" + ORDER_TWO,
        "outside the subgroup": lambda mine: b"B" + mixed,
        "not canonical": lambda mine: b"B" + le(1 + P),  # the identity's y, plus p
        "reflected": lambda mine: b"B" + mine[1:],
        "w·N": lambda mine: b"B" + w_n,
    }
    for case, message in cases.items():
        side = Spake2(SIDE_A, pw, ID_PEER, ID_HOST)
        with pytest.raises(BadMessage):
            side.finish(message(side.message))
            pytest.fail(case)
        # Nor can the same side be tried again with another message.
        with pytest.raises(BadMessage, match="already finished"):
            side.finish(good)


def on_curve(data: bytes) -> bool:
    try:
        crypto_core_ed25519_add(data, data)
    except SodiumError:
        return False
    return True


def test_a_side_finishes_once() -> None:
    a, b = Spake2(SIDE_A, b"pw", ID_PEER, ID_HOST), Spake2(SIDE_B, b"pw", ID_PEER, ID_HOST)
    assert a.finish(b.message) == b.finish(a.message)
    with pytest.raises(BadMessage, match="already finished"):
        a.finish(b.message)
