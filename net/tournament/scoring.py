"""How a tournament's games add up: each game's points, the standings and their tie-breaks.

A game is an `Outcome`: the players in seat order (None for a seat the strong bot filled,
which is scored against but never ranked) and each seat's place as the engine gives it (1 for
the winners, equal places shared). A player's points for a Swiss or round-robin game are the
share of their opponents they finished ahead of, a shared place counting half: 1, 0.5 or 0 in
a two-player game, as chess scores it, and the same scale at a table of three to six. A
player who did not come (`absent`) forfeits: 0 points, whatever the bot in their seat did.

Tie-breaks, named as players know them, both reduced to the two-player rule at a table of two:
- **Buchholz**: the sum, over a player's rounds, of the mean final score of the opponents at
  their table (a table of bots only counts the player's own score, as a virtual opponent);
- **Sonneborn-Berger**: the sum, over rounds and opponents, of the share of that opponent
  beaten (1, 0.5, 0) times the opponent's final score, divided by the opponents at the table.
Bot opponents add nothing to either sum but still count in the divisor of the second.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

TIE_BREAKS = ("buchholz", "sonneborn_berger")


@dataclass(frozen=True)
class Outcome:
    """One finished (or forfeited) table: `seats` in seat order (None: a bot), `places` per
    seat (1 = first), `absent`: the players of this table who never came."""

    seats: tuple[str | None, ...]
    places: tuple[int, ...]
    absent: frozenset[str] = field(default_factory=frozenset)
    # Points given otherwise than by place at this table (a duplicate round: against the same
    # seat of the same deal at the other tables, net.tournament.duplicate); None: by place.
    scored: tuple[float, ...] | None = None

    def __post_init__(self) -> None:
        if len(self.seats) != len(self.places) or len(self.seats) < 2:
            raise ValueError("an outcome needs a place for each of at least two seats")
        if self.scored is not None and len(self.scored) != len(self.seats):
            raise ValueError("an outcome's points need one entry per seat")

    def players(self) -> list[str]:
        return [p for p in self.seats if p is not None]

    def beaten(self, seat: int, other: int) -> float:
        """The share of seat `other` that `seat` beat: 1 ahead, 0.5 level, 0 behind."""
        mine, theirs = self.places[seat], self.places[other]
        return 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0

    def points(self, seat: int) -> float:
        """Seat `seat`'s points for this game on the 0..1 scale (0 when its player forfeited)."""
        if self.seats[seat] in self.absent:
            return 0.0
        if self.scored is not None:
            return self.scored[seat]
        others = [o for o in range(len(self.seats)) if o != seat]
        return sum(self.beaten(seat, o) for o in others) / len(others)


@dataclass
class Line:
    """One player's line of the standings."""

    player: str
    score: float = 0.0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    rounds: list[float] = field(default_factory=list)  # points per round played
    rank: int = 0

    def as_dict(self) -> dict[str, object]:
        return {"rank": self.rank, "player": self.player, "score": self.score,
                "buchholz": round(self.buchholz, 4),
                "sonneborn_berger": round(self.sonneborn_berger, 4), "rounds": self.rounds}


def scores(rounds: Iterable[Iterable[Outcome]], players: Iterable[str] = ()) -> dict[str, float]:
    """Each player's total points (players without a game yet at 0)."""
    total = dict.fromkeys(players, 0.0)
    for games in rounds:
        for game in games:
            for seat, player in enumerate(game.seats):
                if player is not None:
                    total[player] = total.get(player, 0.0) + game.points(seat)
    return total


def standings(rounds: Sequence[Sequence[Outcome]], players: Iterable[str] = ()) -> list[Line]:
    """The standings: by score, then Buchholz, then Sonneborn-Berger, then name; equal on all
    three share a rank."""
    total = scores(rounds, players)
    lines = {p: Line(p, score=s) for p, s in total.items()}
    for games in rounds:
        for game in games:
            for seat, player in enumerate(game.seats):
                if player is None:
                    continue
                line = lines[player]
                line.rounds.append(game.points(seat))
                others = [o for o in range(len(game.seats)) if o != seat]
                people = [o for o in others if game.seats[o] is not None]
                if people:
                    line.buchholz += sum(total[game.seats[o]] for o in people) / len(people)
                else:
                    line.buchholz += total[player]
                if player not in game.absent:
                    line.sonneborn_berger += sum(
                        game.beaten(seat, o) * total[game.seats[o]] for o in people
                    ) / len(others)
    ordered = sorted(lines.values(), key=lambda x: (-x.score, -x.buchholz,
                                                   -x.sonneborn_berger, x.player))
    for i, line in enumerate(ordered):
        before = ordered[i - 1] if i else None
        same = before is not None and _key(before) == _key(line)
        line.rank = before.rank if same and before is not None else i + 1
    return ordered


def _key(line: Line) -> tuple[float, float, float]:
    return (line.score, round(line.buchholz, 9), round(line.sonneborn_berger, 9))
