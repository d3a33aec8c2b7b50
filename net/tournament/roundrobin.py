"""Round-robin for small groups: everyone meets everyone once, in the order of Berger's tables
(the FIDE tables for all-play-all), so seats come out as even as they can.

Players are numbered 1..n (n even; an odd group adds a seat the strong bot plays, who then
meets everybody once: that round's "bye"). In round r (1..n-1) players i and j below n meet
when i + j = r + 1 modulo n - 1 (counting n - 1 as 0), and the one player left meets n; of
i < j < n the lower sits first when j - i is odd; n sits first in even rounds.
"""

from __future__ import annotations

from collections.abc import Sequence

from net.tournament.swiss import Table


def berger(n: int) -> list[list[tuple[int, int]]]:
    """The rounds of an all-play-all of `n` players (n even), as pairs of 1-based numbers in
    seat order."""
    if n < 2 or n % 2:
        raise ValueError("Berger tables need an even number of players")
    m = n - 1
    rounds = []
    for r in range(1, n):
        target = (r + 1) % m
        pairs: list[tuple[int, int]] = []
        for i in range(1, n):
            if (2 * i) % m == target:
                pairs.append((n, i) if r % 2 == 0 else (i, n))
        for i in range(1, n):
            for j in range(i + 1, n):
                if (i + j) % m == target:
                    pairs.append((i, j) if (j - i) % 2 else (j, i))
        rounds.append(pairs)
    return rounds


def rounds_for(count: int) -> int:
    """How many rounds an all-play-all of `count` players takes."""
    return count - 1 if count % 2 == 0 else count


def pairings(players: Sequence[str], round_no: int) -> list[Table]:
    """Round `round_no` (1-based) of a round-robin of `players` (in starting order); a bot
    (None) fills an odd group."""
    field: list[str | None] = list(players)
    if len(field) % 2:
        field.append(None)
    table = berger(len(field))
    if not 1 <= round_no <= len(table):
        raise ValueError(f"a round-robin of {len(players)} has rounds 1 to {len(table)}")
    return [(field[a - 1], field[b - 1]) for a, b in table[round_no - 1]]
