"""Text from the wire, made safe to draw: the one cleaner every screen of ours uses.

Anything a stranger typed reaches a terminal as cells: a host's chat and names (a modified
host need not clean them), a relay's listing of open tables, an SSH user name, a record of a
game played elsewhere. Cleaned here, such a string is one line of printable text:

- terminal escapes are gone whole, not just their ESC: CSI (`ESC [`, U+009B), OSC (`ESC ]`,
  U+009D: window titles, OSC 52's clipboard writes, hyperlinks) up to their BEL or ST, the
  string controls DCS, SOS, PM and APC likewise, and two-character ESC sequences;
- every other control (C0, DEL, C1) is gone; tabs, line and paragraph breaks are a space, so
  a name or a chat line cannot take a second row;
- format characters are gone: bidi overrides, embeddings and isolates (which reorder what is
  drawn after them, the border of a row too), zero-width spaces and joiners, the soft hyphen,
  tag characters; so are variation selectors and emoji skin-tone modifiers, and code points
  that are unassigned, private or lone surrogates. What is left is measured alike by Textual
  (rich's `cell_len`) and by terminals: a wide character counts two cells on both sides, so
  a row's border stays in its column (a joined emoji family is drawn as its members, a flag
  as its two letters);
- text is NFC-normalised, and a base character keeps at most `MAX_MARKS` combining marks (a
  pile of them draws over the rows above and below).

Bytes that are not UTF-8 are decoded with each undecodable byte as U+FFFD: nothing a peer
sends makes the cleaner fail. `clean` is idempotent, so a string cleaned by its sender and
again where it is drawn is drawn as the sender cleaned it.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from rich.cells import cell_len, set_cell_size

MAX_MARKS = 2

# The body of an escape sequence up to its end: CSI parameters and final byte; the string of
# OSC, DCS, SOS, PM and APC up to BEL or ST (ESC \ or U+009C), or to the end of the text if it
# never ends; any other ESC with its intermediate and final character.
_ESCAPES = re.compile(
    r"(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]?"
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[\x20-\x2f]*[\x30-\x7e]?"
)
_SPACES = frozenset("\t\n\v\f\r\x1c\x1d\x1e\x1f\x85\u2028\u2029")
_DROPPED = frozenset(("Cc", "Cf", "Cs", "Co", "Cn"))


def _dropped(ch: str) -> bool:
    code = ord(ch)
    return (0xFE00 <= code <= 0xFE0F or 0xE0100 <= code <= 0xE01EF  # variation selectors
            or 0x1F3FB <= code <= 0x1F3FF)  # skin-tone modifiers


def clean(text: str | bytes, limit: int | None = None) -> str:
    """`text` as one line of printable text (see the module's docstring), at most `limit`
    characters, without leading or trailing spaces."""
    if isinstance(text, bytes | bytearray):
        text = bytes(text).decode("utf-8", errors="replace")
    if not (text.isascii() and text.isprintable()):
        text = _slow(text)
    if limit is not None:
        text = text[:limit]
    return text.strip()


def _slow(text: str) -> str:
    text = unicodedata.normalize("NFC", _ESCAPES.sub("", text))
    kept: list[str] = []
    marks = MAX_MARKS  # no base character yet: a leading mark is dropped
    for ch in text:
        if ch in _SPACES:
            kept.append(" ")
            marks = MAX_MARKS
            continue
        kind = unicodedata.category(ch)
        if kind in _DROPPED or _dropped(ch):
            continue
        if kind[0] == "M":
            if marks >= MAX_MARKS:
                continue
            marks += 1
        else:
            marks = 0
            if kind[0] == "Z":
                ch = " "
            elif 0x1F1E6 <= ord(ch) <= 0x1F1FF:  # a regional indicator: its letter
                ch = chr(ord(ch) - 0x1F1E6 + ord("A"))
        kept.append(ch)
    return "".join(kept)


def printable(text: str) -> bool:
    """Whether `text` is already one clean line (what the cleaner would leave as it is)."""
    return clean(text) == text


def clean_tree(value: Any) -> Any:
    """`value` (msgpack-shaped: dicts, lists, strings, numbers) with every string in it
    cleaned, keys too; the very same object where nothing needed cleaning, so a caller that
    keeps the original (a peer checking a deal against what it was shown) keeps it intact."""
    if isinstance(value, str):
        return clean_keep(value)
    if isinstance(value, list):
        cleaned = [clean_tree(v) for v in value]
        return value if all(a is b for a, b in zip(cleaned, value, strict=True)) else cleaned
    if isinstance(value, dict):
        pairs = [(clean_tree(k), clean_tree(v)) for k, v in value.items()]
        if all(k is k0 and v is v0 for (k, v), (k0, v0) in zip(pairs, value.items(),
                                                                strict=True)):
            return value
        return dict(pairs)
    return value


def clean_keep(text: str) -> str:
    """`text` cleaned but not trimmed (a column's padding stays), the same object if clean."""
    if text.isascii() and text.isprintable():
        return text
    cleaned = _slow(text)
    return text if cleaned == text else cleaned


def cells(text: str) -> int:
    """How many terminal cells `text` takes (a wide character two, a combining mark none)."""
    return cell_len(text)


def fit(text: str, width: int, *, right: bool = False) -> str:
    """`text` cut or padded to exactly `width` cells: to the left, or with `right` to the
    right (a column of numbers)."""
    if cell_len(text) >= width:
        return set_cell_size(text, width)
    pad = " " * (width - cell_len(text))
    return pad + text if right else text + pad
