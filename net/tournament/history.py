"""What the pairing needs to know of each player from the rounds so far: their score, whom
they met and how often, the seats they sat in and how often the strong bot filled in for an
opponent (a two-player field of odd size)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from net.tournament.scoring import Outcome


@dataclass
class History:
    rank: int  # the starting rank (1 = the strongest by rating, then by entry)
    score: float = 0.0
    met: Counter[str] = field(default_factory=Counter)
    seats: list[int] = field(default_factory=list)  # the seat sat each round (0 = first)
    byes: int = 0  # rounds whose only opponent was the strong bot

    def first_balance(self) -> int:
        """Two-player games: times first minus times second (White minus Black in chess)."""
        return self.seats.count(0) - self.seats.count(1)


def histories(players: Sequence[str], rounds: Iterable[Iterable[Outcome]]) -> dict[str, History]:
    """Each entered player's history; `players` in starting-rank order."""
    found = {p: History(rank=i + 1) for i, p in enumerate(players)}
    for games in rounds:
        for game in games:
            people = game.players()
            for seat, player in enumerate(game.seats):
                if player is None or player not in found:
                    continue
                mine = found[player]
                mine.score += game.points(seat)
                mine.seats.append(seat)
                mine.met.update(p for p in people if p != player)
                if len(people) == 1:
                    mine.byes += 1
    return found
