"""Edwards25519 arithmetic for the join's key exchange, fast enough for a join to wait on.

The `spake2` package multiplies points bit by bit through recursive calls, about 3 ms a
multiplication, and a peer's side of an exchange needs five of them: that was most of what
encryption added to a join. Here a secret scalar times a point goes to X25519 in C (the same
curve in Montgomery form, through `cryptography`), and the password's multiples of SPAKE2's
fixed points M and N are table look-ups (16**i · k of each point, worked out once when the
program starts: 64 additions a multiple, no doublings).

Only the speed is ours: the curve, the point encoding and every result are the package's, and
tests/net/test_edwards.py holds each function to the package's own answer.
"""

from __future__ import annotations

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493  # the order of the prime subgroup
D = -121665 * pow(121666, -1, P) % P
D2 = 2 * D % P
SQRT_M1 = pow(2, (P - 1) // 4, P)
DIGITS = 64  # signed radix-16 digits of a scalar below 2**253

Point = tuple[int, int, int, int]  # extended coordinates X, Y, Z, T: x = X/Z, y = Y/Z, xy = T/Z
IDENTITY: Point = (0, 1, 1, 0)


class NotOnCurve(ValueError):
    """32 bytes that encode no point of the curve."""


def digits(s: int) -> list[int]:
    """`s` as 64 digits in [-8, 8] with s == sum(e * 16**i): a table of 0..8 times a point
    (and their negatives, which cost nothing) then covers every digit."""
    if not 0 <= s < 2**253:
        raise ValueError("scalar out of range")
    out = [(s >> (4 * i)) & 15 for i in range(DIGITS)]
    for i in range(DIGITS - 1):
        if out[i] > 8:
            out[i] -= 16
            out[i + 1] += 1
    return out


def add(p: Point, q: Point) -> Point:
    """p + q (add-2008-hwcd-3: complete on this curve, so any two points, equal or not)."""
    x1, y1, z1, t1 = p
    x2, y2, z2, t2 = q
    a = (y1 - x1) * (y2 - x2) % P
    b = (y1 + x1) * (y2 + x2) % P
    c = t1 * D2 * t2 % P
    d = 2 * z1 * z2 % P
    e, f, g, h = b - a, d - c, d + c, b + a
    return e * f % P, g * h % P, f * g % P, e * h % P


def double(p: Point) -> Point:
    """2p (dbl-2008-hwcd for a = -1)."""
    x1, y1, z1, _ = p
    a, b = x1 * x1 % P, y1 * y1 % P
    c = 2 * z1 * z1
    e = ((x1 + y1) * (x1 + y1) - a - b) % P
    g = b - a
    f, h = g - c, -a - b
    return e * f % P, g * h % P, f * g % P, e * h % P


class FixedBase:
    """A point known before any exchange starts, with 16**i · k of it (i < 64, -8 <= k <= 8)
    in affine form: a multiple of it is then one table addition per digit."""

    def __init__(self, base: Point) -> None:
        rows: list[list[Point]] = []
        step = base
        for _ in range(DIGITS):
            row = [step]
            for _ in range(7):
                row.append(add(row[-1], step))
            rows.append(row)
            step = double(double(double(double(step))))
        flat = [q for row in rows for q in row]
        inverses = _batch_inverse([q[2] for q in flat])
        self.rows: list[list[tuple[int, int, int]]] = []
        for i in range(DIGITS):
            plus = []
            for k in range(8):
                x0, y0, _, _ = flat[8 * i + k]
                zi = inverses[8 * i + k]
                x, y = x0 * zi % P, y0 * zi % P
                plus.append(((y + x) % P, (y - x) % P, x * y * D2 % P))
            minus = [(m, pl, -t % P) for pl, m, t in reversed(plus)]
            self.rows.append([*minus, (1, 1, 0), *plus])

    def add_multiple(self, acc: Point, s: int) -> Point:
        """acc + s·base, for 0 <= s < 2**253."""
        x1, y1, z1, t1 = acc
        for row, k in zip(self.rows, digits(s), strict=True):
            pl, mi, t2 = row[k + 8]
            a = (y1 - x1) * mi % P
            b = (y1 + x1) * pl % P
            c = t1 * t2 % P
            d = 2 * z1
            e, f, g, h = b - a, d - c, d + c, b + a
            x1, y1, z1, t1 = e * f % P, g * h % P, f * g % P, e * h % P
        return x1, y1, z1, t1


def _batch_inverse(values: list[int]) -> list[int]:
    """Every value's inverse for the price of one (Montgomery's trick)."""
    prefix = [1]
    for v in values:
        prefix.append(prefix[-1] * v % P)
    inv = pow(prefix[-1], -1, P)
    out = [0] * len(values)
    for i in range(len(values) - 1, -1, -1):
        out[i] = prefix[i] * inv % P
        inv = inv * values[i] % P
    return out


def encode(p: Point) -> bytes:
    """The 32-byte encoding: y little-endian, x's lowest bit in the top bit."""
    zi = pow(p[2], -1, P)
    x, y = p[0] * zi % P, p[1] * zi % P
    return (y | (x & 1) << 255).to_bytes(32, "little")


def _x_from_y(y: int, sign: int) -> int:
    """The x with that lowest bit whose point has this y (NotOnCurve if there is none)."""
    u, v = (y * y - 1) % P, (D * y * y + 1) % P
    v3 = v * v * v % P
    x = u * v3 * pow(u * v3 * v3 * v % P, (P - 5) // 8, P) % P  # a square root of u/v, if any
    vx2 = v * x * x % P
    if vx2 != u:
        if vx2 != -u % P:
            raise NotOnCurve("decoding point that is not on curve")
        x = x * SQRT_M1 % P
    return -x % P if x & 1 != sign else x


def decode(data: bytes) -> Point:
    """The point 32 bytes encode (raising NotOnCurve), accepting what the package accepts: y
    need not be reduced, and x = 0 may carry either sign bit."""
    if len(data) != 32:
        raise NotOnCurve("a point is 32 bytes")
    n = int.from_bytes(data, "little")
    y = n & ((1 << 255) - 1)
    x = _x_from_y(y, n >> 255)
    y %= P
    return x, y, 1, x * y % P


def negate(p: Point) -> Point:
    return -p[0] % P, p[1], p[2], -p[3] % P


def clamp(data: bytes) -> int:
    """A secret scalar from 32 random bytes as X25519 keys are made: bit 254 set, bits 255 and
    0-2 clear. Being a multiple of 8, it clears any small-order part of a point it multiplies
    (RFC 9382's cofactor multiplication), and modulo L it is as good as uniform."""
    return int.from_bytes(data, "little") & ~7 & ((1 << 255) - 1) | 1 << 254


def _x25519(k: int, u: int) -> int:
    """u(k·p) from u(p), in C (`cryptography`); ValueError if the product is of small order."""
    key = X25519PrivateKey.from_private_bytes(k.to_bytes(32, "little"))
    public = X25519PublicKey.from_public_bytes(u.to_bytes(32, "little"))
    return int.from_bytes(key.exchange(public), "little")


def times_clamped(k: int, p: Point) -> Point:
    """k·p for a clamped k (see `clamp`), computed by X25519 on the same curve in Montgomery
    form. That form keeps only u = (1 + y)/(1 - y), which gives y; the sign of x comes from a
    second product, (k ± 8)·p, compared with both candidates plus 8p. ValueError if p is of
    small order (the identity among them): such a point gives no key."""
    if k & 7 or k >> 254 != 1:
        raise ValueError("the scalar is not clamped")
    _, y1, z1, _ = p
    if (z1 - y1) % P == 0:
        raise ValueError("the identity has no product")
    u = (z1 + y1) * pow(z1 - y1, -1, P) % P
    uk = _x25519(k, u)
    step = 8 if k + 8 < 1 << 255 else -8  # the neighbour that is still clamped
    u_next = _x25519(k + step, u)
    y = (uk - 1) * pow(uk + 1, -1, P) % P
    x = _x_from_y(y, 0)
    candidate = x, y, 1, x * y % P
    eight = double(double(double(p)))
    _, ny, nz, _ = add(candidate, eight if step > 0 else negate(eight))
    if (nz + ny) % P == u_next * (nz - ny) % P:
        return candidate
    return negate(candidate)
