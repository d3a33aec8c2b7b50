"""Arenas: a fixed time; whoever is free is seated at a new table at once; points by place,
with the streak bonus as Lichess gives it.

A table's first gets 2 points, its last 0, everyone between 1 (a two-player game: 2 a win, 1 a
draw, 0 a loss); shared places share their points. Two wins running (an unshared first place)
set a player on fire: every game after that is worth double until one is not a win. No table
starts once the time is up; games under way still count. Standings: points, then wins.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from net.tournament.scoring import Outcome
from net.tournament.swiss import Table

FIRE_AFTER = 2  # wins in a row that double the next games


def place_points(game: Outcome, seat: int) -> float:
    """The points of `seat`'s place at its table before any streak: 2 first, 0 last, 1
    between, shared places sharing."""
    size = len(game.places)
    scale = [2.0] + [1.0] * (size - 2) + [0.0]
    place = game.places[seat]
    shared = game.places.count(place)
    return sum(scale[place - 1:place - 1 + shared]) / shared


@dataclass
class Runner:
    """One arena player's tally."""

    player: str
    points: float = 0.0
    wins: int = 0
    streak: int = 0  # wins in a row up to now
    games: int = 0
    last: frozenset[str] = frozenset()  # whom they sat with last

    @property
    def on_fire(self) -> bool:
        return self.streak >= FIRE_AFTER


@dataclass
class Arena:
    """An arena for tables of `size` that pairs no table at or after `ends` (any clock)."""

    size: int
    ends: float
    runners: dict[str, Runner] = field(default_factory=dict)
    waiting: list[str] = field(default_factory=list)

    def free(self, player: str) -> None:
        """`player` (joined, or back from a table) waits for the next one."""
        self.runners.setdefault(player, Runner(player))
        if player not in self.waiting:
            self.waiting.append(player)

    def pair(self, now: float) -> list[Table]:
        """Tables for those waiting, closest in points together, avoiding last opponents
        where another order allows; a remainder waits."""
        if now >= self.ends:
            return []
        order = sorted(self.waiting, key=lambda p: (-self.runners[p].points, p))
        tables: list[Table] = []
        while len(order) >= self.size:
            table = [order.pop(0)]
            while len(table) < self.size:
                fresh = [p for p in order if not any(
                    t in self.runners[p].last or p in self.runners[t].last for t in table)]
                pick = fresh[0] if fresh else order[0]
                order.remove(pick)
                table.append(pick)
            tables.append(tuple(table))
        self.waiting = [p for p in self.waiting if p in order]
        return tables

    def finish(self, game: Outcome) -> dict[str, float]:
        """Count a finished table; each player's points for it (doubled on fire); its
        players wait again (call `free` for those who stay)."""
        gained: dict[str, float] = {}
        people = frozenset(game.players())
        for seat, player in enumerate(game.seats):
            if player is None:
                continue
            runner = self.runners.setdefault(player, Runner(player))
            won = game.places[seat] == 1 and game.places.count(1) == 1
            points = 0.0 if player in game.absent else place_points(game, seat)
            if runner.on_fire:
                points *= 2
            runner.points += points
            runner.games += 1
            runner.wins += won and player not in game.absent
            runner.streak = runner.streak + 1 if won and player not in game.absent else 0
            runner.last = people - {player}
            gained[player] = points
        return gained

    def standings(self) -> list[Runner]:
        return sorted(self.runners.values(), key=lambda r: (-r.points, -r.wins, r.player))


def replay(size: int, games: Iterable[Outcome]) -> Arena:
    """An arena's tallies rebuilt from its finished games in the order they ended."""
    arena = Arena(size, ends=float("inf"))
    for game in games:
        arena.finish(game)
    return arena
