"""Skip-Bo Breakers: the tiles, every ruling of ours, and the
rules of sets: what some tiles standing for some numbers make, and what beats what.

The engine (engine.py) plays these rules; sets.py generates the sets a hand can make; the TUI
reads sets through the engine's `readings` and `beats` so it never judges a play differently
from the table.
"""

from __future__ import annotations

from collections.abc import Sequence

# -- rulings: where the printed rules are silent (how we decided each) ------------------
# The four blank tiles are "SB" tiles: jokers in every set but a numbered Breaker, and three or
# four of them alone make an SB-Breaker (the only reading that fits 64 tiles and 4 x 16).
SB_BREAKER = True
# An SB-Breaker ranks above the 15s of the same size: it stands for this number.
SB_RANK = 16
# Drawing for the first lead, an SB tile counts lowest (below a 1).
SB_DRAWS_LOWEST = True
# A lone joker may be played as a single of the number it is declared as.
LONE_JOKER_SINGLE = True
# Sets of jokers alone are allowed wherever a joker may join (two SB as a pair, three or more
# as a straight, four or more as consecutive pairs), and both tiles of one pair inside
# consecutive pairs may be jokers.
JOKER_ONLY_SETS = True
# A joker stands for 1..JOKER_TOP only; SB_RANK is nothing but an SB-Breaker's rank.
JOKER_TOP = 15
# Breakers of the same size compare by number (three 2s are beaten by three 3s); a bigger
# Breaker beats any smaller one.
BREAKERS_BY_SIZE_THEN_NUMBER = True
# When the player who made the last play is the only one left holding tiles, the trick (and,
# after someone went out, the hand) ends at once: nobody plays on their own set.
ALONE_ENDS_AT_ONCE = True
# The leader of a trick must play a set (only a follower may pass).
LEADER_MAY_PASS = False
# legal_moves offers a joker in place of a number the player holds only when the numbered
# tiles kept still make a Breaker: otherwise the swap only throws away a joker's freedom, and
# offering every swap would turn a lead from four jokers into tens of thousands of plays.
# `apply` accepts every legal play, offered or not (see sets.py).
OFFER_ONLY_USEFUL_JOKER_SWAPS = True
# The lobby's default for the points that win the game (the rules' 50).
POINTS_TO_WIN = 50

# -- the tiles ------------------------------------------------------------------------------
SB = "SB"
JOKER = 0  # index of the SB jokers in a hand's counts
TOP = 15  # the highest number
COPIES = 4
NUMBERS = range(1, TOP + 1)
DECK: tuple[int | str, ...] = (*(v for v in NUMBERS for _ in range(COPIES)), *(SB,) * COPIES)
NO_TILES: tuple[int, ...] = (0,) * (TOP + 1)
HAND_SIZES: dict[int, int] = {2: 20, 3: 20, 4: 16}  # the rest of the 64 stay out, unseen

# Set kinds. A set is (kind, size, rank): rank is its highest number (SB_RANK for SB tiles).
SINGLE = "single"
PAIR = "pair"
PAIRS = "pairs"  # two or more pairs of consecutive numbers
STRAIGHT = "straight"
BREAKER = "breaker"
KINDS = (SINGLE, PAIR, PAIRS, STRAIGHT, BREAKER)
BREAKER_SIZES = (3, 4)

SetKey = tuple[str, int, int]
Play = tuple[tuple[int | str, ...], tuple[int, ...]]  # (tiles, values) in canonical order


def index_of(tile: int | str) -> int:
    """The counts index of a tile id."""
    return JOKER if tile == SB else tile  # type: ignore[return-value]


def counts_of(tiles: Sequence[int | str]) -> tuple[int, ...]:
    counts = [0] * (TOP + 1)
    for tile in tiles:
        counts[index_of(tile)] += 1
    return tuple(counts)


def tiles_of(counts: Sequence[int]) -> list[int | str]:
    """A hand's tiles one by one, numbers rising, jokers last (the order a hand is shown in)."""
    out: list[int | str] = []
    for v in NUMBERS:
        out += [v] * counts[v]
    return out + [SB] * counts[JOKER]


def is_tile(tile: object) -> bool:
    if type(tile) is int:
        return 1 <= tile <= TOP
    return tile == SB


def canonical(tiles: Sequence[int | str], values: Sequence[int]) -> Play:
    """Tiles and values sorted by value, a numbered tile before a joker of the same value."""
    pairs = sorted(zip(values, tiles, strict=True), key=lambda p: (p[0], p[1] == SB))
    return tuple(t for _, t in pairs), tuple(v for v, _ in pairs)


class NotASet(ValueError):
    """Why some tiles with these values make no set; the message is for a player."""


def classify(tiles: Sequence[int | str], values: Sequence[int]) -> SetKey:
    """The set `tiles` standing for `values` make, as (kind, size, rank); NotASet says why
    not. Both sequences in canonical order (see `canonical`)."""
    size = len(values)
    if size == 0:
        raise NotASet("A play needs at least one tile")
    jokers = sum(1 for t in tiles if t == SB)
    low, high = values[0], values[-1]
    if high > JOKER_TOP:
        if SB_BREAKER and jokers == size and low == SB_RANK and size in BREAKER_SIZES:
            return BREAKER, size, SB_RANK
        raise NotASet(
            f"A joker stands for a number from 1 to {JOKER_TOP}; {SB_RANK} is only the rank of "
            "three or four SB tiles played together as an SB-Breaker"
        )
    if low < 1:
        raise NotASet("Tiles stand for the numbers 1 to 15")
    if jokers == size and not JOKER_ONLY_SETS and size > 1:
        raise NotASet("Jokers alone make no set: play them with numbered tiles")
    if size == 1:
        if jokers and not LONE_JOKER_SINGLE:
            raise NotASet("A joker cannot be played on its own")
        return SINGLE, 1, high
    if low == high:
        if size == 2:
            return PAIR, 2, high
        if size in BREAKER_SIZES:
            if jokers:
                raise NotASet("Jokers may not complete a Breaker: it takes equal numbered tiles")
            return BREAKER, size, high
        raise NotASet(f"{size} tiles of one number make no set: a Breaker has 3 or 4")
    if all(values[i + 1] == values[i] + 1 for i in range(size - 1)):
        if size >= 3:
            return STRAIGHT, size, high
        raise NotASet(f"{low} and {high} make no set: a straight takes at least 3 numbers")
    if (
        size >= 4
        and size % 2 == 0
        and all(values[i] == values[i + 1] for i in range(0, size, 2))
        and all(values[i + 2] == values[i] + 1 for i in range(0, size - 2, 2))
    ):
        if not JOKER_ONLY_SETS and any(
            tiles[i] == SB and tiles[i + 1] == SB for i in range(0, size, 2)
        ):
            raise NotASet("Both tiles of a pair may not be jokers")
        return PAIRS, size, high
    shown = sorted(set(values))
    listed = ", ".join(map(str, shown[:-1])) + f" and {shown[-1]}"
    raise NotASet(f"{listed} make no set")


def beats(new: SetKey, table: SetKey | None) -> bool:
    """Whether `new` may be played on `table` (None: leading, anything goes). Breakers beat
    any other set and among themselves go by size, then number; any other set must be of the
    table's kind and size and have a higher top number."""
    if table is None:
        return True
    if new[0] == BREAKER:
        if table[0] != BREAKER:
            return True
        if BREAKERS_BY_SIZE_THEN_NUMBER:
            return (new[1], new[2]) > (table[1], table[2])
        return new[1] > table[1]
    return new[0] == table[0] and new[1] == table[1] and new[2] > table[2]


def describe(key: SetKey) -> str:
    """A set in words, for the sentences of IllegalMove ("a pair of 7s")."""
    kind, size, rank = key
    if kind == SINGLE:
        return f"a single {rank}"
    if kind == PAIR:
        return f"a pair of {rank}s"
    if kind == PAIRS:
        return f"{size // 2} consecutive pairs up to {rank}"
    if kind == STRAIGHT:
        return f"a straight of {size} up to {rank}"
    if rank == SB_RANK:
        return f"an SB-Breaker of {size}"
    return f"a Breaker of {'three' if size == 3 else 'four'} {rank}s"


def why_not(new: SetKey, table: SetKey) -> str:
    """Why `new` may not be played on `table` (for a play that `beats` refuses)."""
    if table[0] == BREAKER:
        return f"Only a higher Breaker beats {describe(table)}"
    if new[0] != table[0] or new[1] != table[1]:
        return (
            f"{describe(new).capitalize()} cannot follow {describe(table)}: play the same kind "
            "of set with as many tiles and a higher number, a Breaker, or pass"
        )
    return f"{describe(new).capitalize()} does not beat {describe(table)}"
