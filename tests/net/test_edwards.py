"""net.wire.edwards against the `spake2` package's own Ed25519 arithmetic: every function must give
the package's answer (it only computes it faster), on seeded random inputs and on the edge
cases a hostile relay or peer could send (points off the curve, of small order, with a
small-order part, non-canonical encodings)."""

from __future__ import annotations

import itertools
import random

import pytest
from spake2 import ed25519_basic as lib
from spake2.parameters.ed25519 import ParamsEd25519

from net.wire import edwards

BASE = lib.Base.XYTZ


def affine(p: tuple[int, int, int, int]) -> tuple[int, int]:
    zi = pow(p[2], -1, edwards.P)
    return p[0] * zi % edwards.P, p[1] * zi % edwards.P


def small_order_points() -> list[tuple[int, int, int, int]]:
    """Every point of order 2, 4 or 8, found as L times random curve points (the package's slow,
    always-correct multiplication)."""
    rng, found = random.Random(8), set()
    while len(found) < 7:
        try:
            p = lib.xform_affine_to_extended(lib.decodepoint(rng.randbytes(32)))
        except lib.NotOnCurve:
            continue
        q = lib.scalarmult_element_safe_slow(p, edwards.L)
        if not lib.is_extended_zero(q):
            found.add(affine(q))
    return [(x, y, 1, x * y % edwards.P) for x, y in found]


def test_digits_rebuild_the_scalar_and_stay_in_the_tables_range() -> None:
    rng = random.Random(1)
    for s in [0, 1, 8, 9, 15, 16, edwards.L - 1, edwards.L, 2**253 - 1,
              *(rng.randrange(2**253) for _ in range(200))]:
        e = edwards.digits(s)
        assert sum(d * 16**i for i, d in enumerate(e)) == s
        assert all(-8 <= d <= 8 for d in e)
    with pytest.raises(ValueError):
        edwards.digits(2**253)


def test_decoding_accepts_and_refuses_exactly_what_the_package_does() -> None:
    rng = random.Random(2)
    samples = [rng.randbytes(32) for _ in range(1500)]
    samples += [lib.Base.scalarmult(rng.randrange(edwards.L)).to_bytes() for _ in range(20)]
    # Non-canonical: y + p for a small y, and x = 0 (y = 1 or -1) with the sign bit set.
    samples += [(1 + edwards.P).to_bytes(32, "little"), (1 | 1 << 255).to_bytes(32, "little"),
                (edwards.P - 1 | 1 << 255).to_bytes(32, "little")]
    accepted = 0
    for data in samples:
        try:
            want = lib.decodepoint(data)
        except lib.NotOnCurve:
            with pytest.raises(edwards.NotOnCurve):
                edwards.decode(data)
            continue
        accepted += 1
        got = edwards.decode(data)
        assert affine(got) == (want[0] % edwards.P, want[1] % edwards.P)
        assert edwards.encode(got) == lib.encodepoint([want[0] % edwards.P, want[1] % edwards.P])
    assert 700 < accepted < len(samples) - 700  # about half of all 32-byte strings are points
    with pytest.raises(edwards.NotOnCurve):
        edwards.decode(bytes(31))


def test_addition_and_doubling_agree_with_the_package() -> None:
    rng = random.Random(3)
    points = [lib.Base.scalarmult(rng.randrange(edwards.L)).XYTZ for _ in range(10)]
    for p, q in itertools.pairwise(points):
        assert affine(edwards.add(p, q)) == affine(lib.add_elements(p, q))
        assert affine(edwards.double(p)) == affine(lib.double_element(p))
        assert affine(edwards.add(p, p)) == affine(edwards.double(p))
        assert affine(edwards.add(p, edwards.negate(p))) == (0, 1)


@pytest.mark.parametrize("point", [ParamsEd25519.M, ParamsEd25519.N])
def test_a_fixed_points_table_gives_the_packages_multiples(point: lib.Element) -> None:
    table, rng = edwards.FixedBase(point.XYTZ), random.Random(4)
    start = lib.Base.scalarmult(12345)
    for s in [0, 1, 7, 8, 9, 16, edwards.L - 1, *(rng.randrange(edwards.L) for _ in range(20))]:
        got = table.add_multiple(start.XYTZ, s)
        assert edwards.encode(got) == start.add(point.scalarmult(s)).to_bytes()


def test_a_clamped_multiple_through_x25519_is_the_packages_including_the_sign() -> None:
    rng = random.Random(5)
    points = [lib.Base, ParamsEd25519.M, *(lib.Base.scalarmult(rng.randrange(edwards.L))
                                            for _ in range(10))]
    scalars = [edwards.clamp(rng.randbytes(32)) for _ in range(len(points))]
    scalars[0] = 2**255 - 8  # the top clamped scalar: its neighbour k + 8 would not be clamped
    scalars[1] = 2**254  # the lowest
    negatives = 0
    for p, k in zip(points, scalars, strict=True):
        got = edwards.times_clamped(k, p.XYTZ)
        want = p.scalarmult(k)
        assert edwards.encode(got) == want.to_bytes()
        negatives += affine(got)[0] & 1  # both signs of x were met
    assert 0 < negatives < len(points)


def test_a_small_order_part_is_cleared_and_a_small_order_point_gives_nothing() -> None:
    torsion = small_order_points()
    p = lib.Base.scalarmult(987654321)
    k = edwards.clamp(bytes(range(32)))
    for t in torsion:
        assert edwards.encode(edwards.times_clamped(k, edwards.add(p.XYTZ, t))) == \
            p.scalarmult(k).to_bytes()
        with pytest.raises(ValueError):
            edwards.times_clamped(k, t)
    with pytest.raises(ValueError):
        edwards.times_clamped(k, edwards.IDENTITY)
    with pytest.raises(ValueError):
        edwards.times_clamped(k + 1, p.XYTZ)


def test_clamping_makes_x25519_keys() -> None:
    rng = random.Random(6)
    for _ in range(50):
        k = edwards.clamp(rng.randbytes(32))
        assert k % 8 == 0 and 2**254 <= k < 2**255
    assert edwards.clamp(bytes(32)) == 2**254
    assert edwards.clamp(b"\xff" * 32) == 2**255 - 8
