"""Join codes: short enough to read aloud, hard to guess, forgiving when typed.

A code is 8 symbols of Crockford's base32 alphabet (digits and capitals without I, L, O, U),
shown as two groups of four: `K7QX-9MPA`. That is exactly 40 bits from `secrets`. Typing is
forgiving: case, spaces and dashes do not matter, and the letters people confuse with digits
(O, I, L) are read as the digits they look like. The relay stores codes in this normal form.
"""

from __future__ import annotations

import functools
import hashlib
import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 8
BITS = LENGTH * 5  # 32 symbols = 5 bits each
_CONFUSABLE = str.maketrans({"O": "0", "I": "1", "L": "1"})
_IGNORED = str.maketrans("", "", " -_.\t")


class BadCode(ValueError):
    """Text that cannot be a join code at all (as opposed to a code nobody is using)."""


def new_code() -> str:
    """A fresh random code in normal form (no dash)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normalise(text: str) -> str:
    """The normal form of a typed code; BadCode says what is wrong with it."""
    code = text.upper().translate(_IGNORED).translate(_CONFUSABLE)
    wrong = sorted({c for c in code if c not in ALPHABET})
    if wrong:
        raise BadCode(
            f"a join code has only digits and the letters A-Z without I, L, O, U; "
            f"{''.join(wrong)!r} cannot be part of one"
        )
    if len(code) != LENGTH:
        raise BadCode(f"a join code has {LENGTH} characters, like K7QX-9MPA; got {len(code)}")
    return code


def display(code: str) -> str:
    """`K7QX9MPA` -> `K7QX-9MPA`."""
    half = LENGTH // 2
    return f"{code[:half]}-{code[half:]}"


# The room key's default salt: the LAN has no shared machine, so mDNS names use this one.
LAN_SALT = b"tabletop-tui lan"


@functools.lru_cache(maxsize=64)
def room_key(code: str, salt: bytes = LAN_SALT) -> str:
    """A name for the room that does not reveal the code (rooms files, mDNS records): someone
    who can list those must still know the code to join. Deliberately slow (scrypt, about
    0.1 s and 16 MiB each) so that trying all 2**40 codes against a listed name takes years,
    not the minutes a plain hash would; the rooms directory adds its own per-machine salt."""
    key = hashlib.scrypt(f"tabletop-tui room {code}".encode(), salt=salt, n=2**14, r=8, p=1,
                         dklen=12)
    return key.hex()
