"""Join codes: short enough to read aloud, hard to guess, forgiving when typed.

A join code is 12 symbols of Crockford's base32 alphabet (digits and capitals without I, L, O,
U), shown as three groups of four: `K7QX-9MPA-B3CD`. The first 8 (40 bits, drawn by the relay)
are the room code: the relay routes by it. The last 4 (20 bits, drawn by the host) are the
secret that keys the end-to-end encryption (net.wire.channel) and never reach the relay. Typing is
forgiving: case, spaces and dashes do not matter, and the letters people confuse with digits
(O, I, L) are read as the digits they look like. The relay stores room codes in normal form.
"""

from __future__ import annotations

import functools
import hashlib
import secrets

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 8  # the room code, which the relay sees
SECRET_LENGTH = 4  # the secret part, which only host and peers know
JOIN_LENGTH = LENGTH + SECRET_LENGTH
BITS = LENGTH * 5  # 32 symbols = 5 bits each
_CONFUSABLE = str.maketrans({"O": "0", "I": "1", "L": "1"})
_IGNORED = str.maketrans("", "", " -_.\t")
# Where `tabletop-tui join` also takes its code: a process's environment is readable by its own
# user only, its command line (`ps`) by everyone on the machine.
CODE_ENV = "TABLETOP_TUI_CODE"


class BadCode(ValueError):
    """Text that cannot be a join code at all (as opposed to a code nobody is using)."""


def new_code(length: int = LENGTH) -> str:
    """A fresh random code (room code; `SECRET_LENGTH`: a secret part) in normal form."""
    return "".join(secrets.choice(ALPHABET) for _ in range(length))


def _symbols(text: str) -> str:
    code = text.upper().translate(_IGNORED).translate(_CONFUSABLE)
    wrong = sorted({c for c in code if c not in ALPHABET})
    if wrong:
        raise BadCode(
            f"a join code has only digits and the letters A-Z without I, L, O, U; "
            f"{''.join(wrong)!r} cannot be part of one"
        )
    return code


def normalise(text: str) -> str:
    """The normal form of a room code (the relay's 8 symbols); BadCode says what is wrong."""
    code = _symbols(text)
    if len(code) != LENGTH:
        raise BadCode(f"a room code has {LENGTH} characters, like K7QX-9MPA; got {len(code)}")
    return code


def normalise_join(text: str) -> str:
    """The normal form of a typed join code (12 symbols); BadCode says what is wrong, and
    says so plainly for the 8-symbol codes of hosts older than protocol 3."""
    code = _symbols(text)
    if len(code) == LENGTH:
        raise BadCode(f"join codes now have {JOIN_LENGTH} symbols, like K7QX-9MPA-B3CD; this "
                      f"one has {LENGTH}: the host may run an older tabletop-tui (both need "
                      "protocol 3)")
    if len(code) != JOIN_LENGTH:
        raise BadCode(f"a join code has {JOIN_LENGTH} characters, like K7QX-9MPA-B3CD; "
                      f"got {len(code)}")
    return code


def split(code: str) -> tuple[str, str]:
    """A join code in normal form -> (room code for the relay, secret for the key exchange)."""
    return code[:LENGTH], code[LENGTH:]


def room_path(room: str) -> str:
    """The websocket path of a room's connections: every one names its room, so a load
    balancer in front of several relays keeps a room's connections on one of them."""
    return f"/room/{normalise(room)}"


def room_of_path(path: str) -> str | None:
    """The room code a websocket path names (normal form), or None."""
    prefix = "/room/"
    if not path.startswith(prefix):
        return None
    try:
        return normalise(path[len(prefix):].split("?", 1)[0])
    except BadCode:
        return None


def same_room(normal: str, text: str) -> bool | None:
    """Whether `text` names room `normal` (None: `text` is no room code)."""
    try:
        return normalise(text) == normal
    except BadCode:
        return None


def display(code: str) -> str:
    """Groups of four: `K7QX9MPA` -> `K7QX-9MPA`, `K7QX9MPAB3CD` -> `K7QX-9MPA-B3CD`."""
    return "-".join(code[i:i + 4] for i in range(0, len(code), 4))


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
