"""The 32 tiles: ids, the stack, and each tile's pieces in every rotation.

A tile is 2 × 2 pieces. Its pieces are numbered 0 top-left, 1 top-right, 2 bottom-left,
3 bottom-right, and a colour is 0 (white) or 1 (dark). A "pattern" is the four colours of a
tile lying in one rotation; what matters for the rules is only the pattern, so a tile whose
rotations repeat a pattern offers that pattern once (`VARIANTS`).
"""

from __future__ import annotations

from engines.schoko.rules import MIXES

WHITE, DARK = 0, 1
COLOURS: tuple[str, str] = ("white", "dark")
COLOUR_INDEX: dict[str, int] = {"white": WHITE, "dark": DARK}
SMARTIE_SUFFIX = "s"

# The unrotated layouts: w3 = W W / W D, w2 = W W / D D, w1 = W D / D D, i.e. the
# white pieces come first in reading order.
Pattern = tuple[int, int, int, int]


def _base(whites: int) -> Pattern:
    return tuple(WHITE if i < whites else DARK for i in range(4))  # type: ignore[return-value]


def rotate(p: Pattern) -> Pattern:
    """A quarter turn clockwise: the bottom-left piece comes to the top-left, and so on."""
    return (p[2], p[0], p[3], p[1])


TILE_IDS: tuple[str, ...] = tuple(
    tid for mix, _, _, _ in MIXES for tid in (mix, mix + SMARTIE_SUFFIX)
)
TILE_INDEX: dict[str, int] = {tid: i for i, tid in enumerate(TILE_IDS)}
SMARTIE: frozenset[str] = frozenset(t for t in TILE_IDS if t.endswith(SMARTIE_SUFFIX))
DECK: tuple[str, ...] = tuple(
    tid
    for mix, _, tiles, smarties in MIXES
    for tid, copies in ((mix, tiles - smarties), (mix + SMARTIE_SUFFIX, smarties))
    for _ in range(copies)
)

# PATTERNS[tile][rot]: the colours of pieces 0..3 after `rot` quarter turns clockwise.
PATTERNS: dict[str, tuple[Pattern, ...]] = {}
for _mix, _whites, _, _ in MIXES:
    _turns = [_base(_whites)]
    for _ in range(3):
        _turns.append(rotate(_turns[-1]))
    PATTERNS[_mix] = PATTERNS[_mix + SMARTIE_SUFFIX] = tuple(_turns)


def need_mask(p: Pattern) -> int:
    """The bits a spot's contact mask must share with this pattern for a same-colour contact:
    bit 2*i + c stands for "piece i meets a piece of colour c" (see geometry.Layout)."""
    return sum(1 << (2 * i + c) for i, c in enumerate(p))


def distinct_turns(turns: tuple[Pattern, ...]) -> tuple[tuple[int, int], ...]:
    """(rot, need mask) for each distinct pattern among a tile's turns, lowest rotation first:
    turns that look alike lay alike, so a move list names only one of them. (Each mix of
    this game shows four different turns; a tile of one colour would show one.)"""
    seen: dict[Pattern, int] = {}
    for rot, p in enumerate(turns):
        seen.setdefault(p, rot)
    return tuple((rot, need_mask(p)) for p, rot in seen.items())


VARIANTS: dict[str, tuple[tuple[int, int], ...]] = {
    t: distinct_turns(PATTERNS[t]) for t in TILE_IDS
}


def sort_tiles(tiles: list[str]) -> tuple[str, ...]:
    """Tiles in display order (the order of TILE_IDS), as a hand is held."""
    return tuple(sorted(tiles, key=TILE_INDEX.__getitem__))


def whites_in(tile: str) -> int:
    return PATTERNS[tile][0].count(WHITE)
