"""The next round of any format, from the field and the rounds so far: one call for the
runner, whatever the format."""

from __future__ import annotations

from collections.abc import Sequence

from net.tournament import roundrobin, swiss
from net.tournament.history import histories
from net.tournament.scoring import Outcome

FORMATS = ("swiss", "roundrobin", "arena")


def next_round(kind: str, size: int, players: Sequence[str],
               rounds: Sequence[Sequence[Outcome]]) -> list[swiss.Table]:
    """Round len(rounds) + 1 of a `kind` tournament at tables of `size`, `players` in
    starting-rank order (an arena is paired as its players come free: net.tournament.arena)."""
    if kind == "roundrobin":
        if size != 2:
            return [tuple(players[(i + len(rounds)) % len(players)]
                          for i in range(len(players)))]
        return roundrobin.pairings(players, len(rounds) + 1)
    if kind == "swiss":
        return swiss.seat_tables(players, histories(players, rounds), size)
    raise ValueError(f"{kind} tournaments are not paired by rounds")
