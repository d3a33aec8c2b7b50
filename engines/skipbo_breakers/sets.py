"""Every set ("Reihe") a hand of Skip-Bo Breakers can make, generated from tile counts.

A hand is a tuple of 16 counts: index 0 holds the SB jokers, index v the tiles of number v.
Sets are generated number by number from those counts (a straight grows one number at a time
and stops as soon as it would need more jokers than the hand holds), never from subsets of the
hand's tiles: a hand of 20 has a million subsets but only some hundreds of distinct sets.

Which tiles stand for a number
------------------------------
A play is its tiles and the numbers they stand for, so "pair of 4s from 4 + SB" and "pair of
4s from SB + SB" are different plays. Offering every such choice would make a lead from a hand
with four jokers run to tens of thousands of plays, nearly all of them pointless: a joker can do
everything a numbered tile can except join a numbered Breaker, so using a joker where you hold
the number only ever helps when the numbers you keep still make a Breaker. OPTIONS keeps exactly
those choices (OFFER_ONLY_USEFUL_JOKER_SWAPS in rules.py); `classify` and the engine's `apply`
accept every legal play, offered or not.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from engines.skipbo_breakers.rules import (
    BREAKER,
    BREAKER_SIZES,
    COPIES,
    JOKER,
    JOKER_ONLY_SETS,
    LONE_JOKER_SINGLE,
    OFFER_ONLY_USEFUL_JOKER_SWAPS,
    PAIR,
    PAIRS,
    SB,
    SB_BREAKER,
    SB_RANK,
    SINGLE,
    STRAIGHT,
    TOP,
    NotASet,
    SetKey,
    classify,
    counts_of,
)

Play = tuple[tuple[int | str, ...], tuple[int, ...]]  # (tiles, values) in canonical order

# How many numbered tiles of a number a set uses when it needs `need` of that number and the
# hand holds `have`: as many as it can, or fewer (jokers instead) only when the numbered tiles
# kept still make a Breaker. OPTIONS[need][have] lists the choices, most numbered tiles first.
OPTIONS: dict[int, tuple[tuple[int, ...], ...]] = {
    need: tuple(
        tuple(
            r
            for r in range(min(need, have), -1, -1)
            if r == min(need, have) or have - r >= 3 or not OFFER_ONLY_USEFUL_JOKER_SWAPS
        )
        for have in range(COPIES + 1)
    )
    for need in (1, 2)
}

# The tiles for one number: OPTIONS turned into (tiles, jokers used), per need, have and value.
_PARTS: dict[int, list[list[tuple[tuple[tuple[int | str, ...], int], ...]]]] = {
    need: [
        [
            tuple(((v,) * r + (SB,) * (need - r), need - r) for r in OPTIONS[need][have])
            for have in range(COPIES + 1)
        ]
        for v in range(TOP + 1)
    ]
    for need in (1, 2)
}


# The values of a run from `start` to `end`, per need: _RUN_VALUES[need][start][end].
_RUN_VALUES = {
    need: [
        [tuple(n for n in range(start, end + 1) for _ in range(need)) for end in range(TOP + 1)]
        for start in range(TOP + 1)
    ]
    for need in (1, 2)
}
_SAME = [[(v,) * size for size in range(COPIES + 1)] for v in range(TOP + 1)]


def _runs(
    counts: Sequence[int], need: int, min_len: int, length: int | None, above: int
) -> Iterator[Play]:
    """Straights (need 1) or consecutive pairs (need 2): every run of at least `min_len`
    numbers (exactly `length` if given) whose top is above `above`."""
    jokers = counts[JOKER]
    parts = _PARTS[need]
    shortest = length or min_len
    last_start = TOP - shortest + 1
    first_start = 1 if length is None else max(1, above - length + 2)
    # Jokers the numbers below v lack: a window needs short[end] - short[start - 1] of them,
    # so windows that need too many are skipped without building anything.
    short = [0]
    total = 0
    for v in range(1, TOP + 1):
        if counts[v] < need:
            total += need - counts[v]
        short.append(total)
    for start in range(first_start, last_start + 1):
        if short[start + shortest - 1] - short[start - 1] > jokers:
            continue
        # Partial runs from `start` up to v: (tiles so far, jokers used).
        partial: list[tuple[tuple[int | str, ...], int]] = [((), 0)]
        stop = TOP if length is None else start + length - 1
        for v in range(start, stop + 1):
            grown = []
            for tiles, used in partial:
                for add, more in parts[v][counts[v]]:
                    if used + more <= jokers:
                        grown.append((tiles + add, used + more))
            if not grown:
                break
            partial = grown
            run = v - start + 1
            if run >= min_len and v > above and (length is None or run == length):
                values = _RUN_VALUES[need][start][v]
                for tiles, _ in partial:
                    yield tiles, values


def _groups(counts: Sequence[int], need: int, above: int) -> Iterator[Play]:
    """Singles (need 1) or pairs (need 2) above `above`."""
    jokers = counts[JOKER]
    parts = _PARTS[need]
    for v in range(above + 1, TOP + 1):
        values = (v,) * need
        for tiles, more in parts[v][counts[v]]:
            if more <= jokers:
                yield tiles, values


def _breakers(counts: Sequence[int], above: tuple[int, int]) -> Iterator[Play]:
    """Breakers higher than (size, rank) `above`: numbered ones and SB-Breakers."""
    for size in BREAKER_SIZES:
        if size < above[0]:
            continue
        low = above[1] if size == above[0] else 0
        for v in range(low + 1, TOP + 1):
            if counts[v] >= size:
                yield _SAME[v][size], _SAME[v][size]
        if SB_BREAKER and counts[JOKER] >= size and (size, SB_RANK) > above:
            yield (SB,) * size, (SB_RANK,) * size


def plays(counts: Sequence[int], table: SetKey | None) -> Iterator[Play]:
    """Every play offered from a hand with these counts on `table` (None: a lead)."""
    if LONE_JOKER_SINGLE and JOKER_ONLY_SETS:
        yield from _plays(counts, table)
        return
    for tiles, values in _plays(counts, table):
        try:
            classify(tiles, values)
        except NotASet:
            continue
        yield tiles, values


def _plays(counts: Sequence[int], table: SetKey | None) -> Iterator[Play]:
    if table is None:
        yield from _groups(counts, 1, 0)
        yield from _groups(counts, 2, 0)
        yield from _runs(counts, 2, 2, None, 0)
        yield from _runs(counts, 1, 3, None, 0)
        yield from _breakers(counts, (0, 0))
        return
    yield from shaped(counts, table)
    yield from _breakers(counts, (table[1], table[2]) if table[0] == BREAKER else (0, 0))


def shaped(counts: Sequence[int], table: SetKey) -> Iterator[Play]:
    """The plays of the table's kind and size that beat it, lowest first (no Breakers)."""
    kind, size, rank = table
    if kind == SINGLE:
        yield from _groups(counts, 1, rank)
    elif kind == PAIR:
        yield from _groups(counts, 2, rank)
    elif kind == PAIRS:
        yield from _runs(counts, 2, 2, size // 2, rank)
    elif kind == STRAIGHT:
        yield from _runs(counts, 1, 3, size, rank)


def breakers(counts: Sequence[int]) -> Iterator[tuple[tuple[int, int], Play]]:
    """Every Breaker of the hand with its (size, rank), in the order `plays` offers them."""
    for tiles, values in _breakers(counts, (0, 0)):
        yield (len(tiles), values[0]), (tiles, values)


def readings(tiles: Sequence[int | str]) -> list[tuple[SetKey, Play]]:
    """Every set the given tiles make, whatever the jokers stand for: ((kind, size, rank),
    (tiles, values) in canonical order), highest first. [] if they make none. A set that uses
    every one of the tiles never swaps a joker for a number among them, so the sets `plays`
    offers from these tiles alone are all there are."""
    counts = counts_of(tiles)
    size = len(tiles)
    if size == 0:
        return []
    found: dict[tuple[SetKey, Play], None] = {}
    for play in plays(counts, None):
        if len(play[0]) == size and counts_of(play[0]) == counts:
            found[(classify(*play), play)] = None
    return sorted(found, key=lambda r: (r[0][2], r[1][1]), reverse=True)
