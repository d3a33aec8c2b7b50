"""Fair-play figures anyone can recompute from a table's verified records (docs/records.md,
"Fair-play figures").

From the records that count for the ladder (net.players.counted: verified deal, proven
players, bots that are their level), one game each however many records of it there are:

- **per person**, every decision of theirs reviewed by the expert (net.records.review, the
  coach's review budget): how often their move was the expert's choice, and their mean loss
  of win chance (share of the win) a decision. A person who plays as the expert plays agrees
  with it far more often than people do.
- **per pair of people**, how often they met, and how their results against each other
  compare with what their ratings predicted: the games replayed in the order they began, with
  the ladder's arithmetic (net.players.ratings.rate, without the damping of repeated
  meetings), each meeting's chance that the one finishes ahead of the other from OpenSkill's
  `predict_win` before the game. A pair is flagged as meeting **often** when they met at
  least OFTEN_GAMES times and those games are at least OFTEN_SHARE of either one's games, at a
  table of at least OFTEN_PEOPLE people; their results are **unlikely** when the one's wins
  over the other lie UNLIKELY_Z standard deviations or more from the predicted number.

Bots are neither reviewed nor paired: their level is known and checked move by move. A seat
whose person left (or whose clock ran out) is not reviewed: the table's bot made some of its
moves.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from net.players import ratings
from net.players.counted import Outcome, Unrated, outcome
from net.records import review
from net.records.record import Record, RecordError, Replay

OFTEN_GAMES = 5
OFTEN_SHARE = 0.5
OFTEN_PEOPLE = 4
UNLIKELY_Z = 3.0
UNLIKELY_GAMES = 3


def is_person(ident: str) -> bool:
    return not ident.startswith("bot:")


@dataclass
class PlayerFigures:
    """One person's decisions, as the expert judged them."""

    ident: str
    name: str
    games: int = 0
    decisions: int = 0
    agreed: int = 0
    loss: float = 0.0

    @property
    def agreement(self) -> float:
        return self.agreed / self.decisions if self.decisions else 0.0

    @property
    def mean_loss(self) -> float:
        return self.loss / self.decisions if self.decisions else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"ident": self.ident, "name": self.name, "games": self.games,
                "decisions": self.decisions, "agreement": round(self.agreement, 4),
                "mean_loss": round(self.mean_loss, 4)}


@dataclass
class PairFigures:
    """Two people's meetings: `wins` of `a` over `b` (ties half), `expected` what the ratings
    before each game predicted, `variance` its spread."""

    a: str
    b: str
    games: int = 0
    wins: float = 0.0
    expected: float = 0.0
    variance: float = 0.0
    often: bool = False

    @property
    def z(self) -> float:
        return (self.wins - self.expected) / math.sqrt(self.variance) if self.variance else 0.0

    @property
    def unlikely(self) -> bool:
        return self.games >= UNLIKELY_GAMES and abs(self.z) >= UNLIKELY_Z

    def as_dict(self) -> dict[str, Any]:
        return {"a": self.a, "b": self.b, "games": self.games, "wins_a": self.wins,
                "expected_a": round(self.expected, 3), "z": round(self.z, 2),
                "often": self.often, "unlikely": self.unlikely}


@dataclass
class FairPlay:
    game: str
    players: dict[str, PlayerFigures] = field(default_factory=dict)
    pairs: dict[tuple[str, str], PairFigures] = field(default_factory=dict)

    def flagged(self) -> list[PairFigures]:
        return [p for p in self.pairs.values() if p.often or p.unlikely]

    def as_dict(self) -> dict[str, Any]:
        people = sorted(self.players.values(), key=lambda p: (-p.agreement, p.ident))
        return {"game": self.game, "players": [p.as_dict() for p in people],
                "pairs": [p.as_dict() for p in sorted(self.pairs.values(),
                                                      key=lambda p: (p.a, p.b))]}


def counted_games(found: Iterable[Record], game: str) -> list[tuple[Record, Outcome]]:
    """The records of `game` that count, one a game (the first record of each), oldest
    first."""
    seen: set[str] = set()
    out = []
    for record in found:
        if record.engine_id != game or not record.over:
            continue
        try:
            counted = outcome(record)
        except (Unrated, RecordError):
            continue
        if counted.key in seen:
            continue
        seen.add(counted.key)
        out.append((record, counted))
    out.sort(key=lambda pair: (pair[1].started, pair[1].key))
    return out


Progress = Callable[[int, int], None]


def figures(
    found: Iterable[Record],
    game: str,
    *,
    only: str | None = None,
    iterations: int | None = None,
    progress: Progress | None = None,
    stop: Callable[[], bool] | None = None,
) -> FairPlay:
    """The fair-play figures of `game` from the records `found` (`only`: review that person's
    seats alone, as their own page does). `progress(done, total)` after each game reviewed;
    `stop()` true ends the reviews early (the figures are then of the games reviewed)."""
    games = counted_games(found, game)
    out = FairPlay(game)
    pair_figures(out, [counted for _, counted in games])
    for done, (record, counted) in enumerate(games, 1):
        if stop is not None and stop():
            break
        replay = Replay(record)
        for seat, who in enumerate(counted.seats):
            if not is_person(who.ident) or (only is not None and who.ident != only):
                continue
            if who.left:  # the table's bot finished the seat: not all its moves are theirs
                continue
            person = out.players.setdefault(who.ident, PlayerFigures(who.ident, who.name))
            person.name = who.name
            person.games += 1
            for row in review.review(replay, seat, iterations=iterations, stop=stop):
                person.decisions += 1
                person.agreed += bool(row["agreed"])
                person.loss += float(row["loss"])
        if progress is not None:
            progress(done, len(games))
    return out


def pair_figures(out: FairPlay, games: list[Outcome]) -> None:
    """Every pair of people's meetings and results against their ratings' prediction, the
    games replayed in order with the ladder's arithmetic."""
    skills: dict[str, ratings.Skill] = {}
    played: dict[str, int] = {}
    for game in games:
        seats = game.seats
        before = [skills.get(s.ident, ratings.Skill()) for s in seats]
        for i, first in enumerate(seats):
            played[first.ident] = played.get(first.ident, 0) + 1
            for j in range(i + 1, len(seats)):
                second = seats[j]
                if not (is_person(first.ident) and is_person(second.ident)):
                    continue
                a, b, ra, rb = first, second, before[i], before[j]
                if b.ident < a.ident:
                    a, b, ra, rb = b, a, rb, ra
                pair = out.pairs.setdefault((a.ident, b.ident), PairFigures(a.ident, b.ident))
                p = ratings.MODEL.predict_win([
                    [ratings.MODEL.rating(mu=ra.mu, sigma=ra.sigma)],
                    [ratings.MODEL.rating(mu=rb.mu, sigma=rb.sigma)],
                ])[0]
                pair.games += 1
                pair.wins += 1.0 if a.place < b.place else 0.5 if a.place == b.place else 0.0
                pair.expected += p
                pair.variance += p * (1 - p)
        after = ratings.rate(before, [s.place for s in seats], [s.left for s in seats])
        for seat, skill in zip(seats, after, strict=True):
            skills[seat.ident] = skill
    people = [ident for ident in played if is_person(ident)]
    for pair in out.pairs.values():
        fewest = min(played[pair.a], played[pair.b])
        pair.often = (len(people) >= OFTEN_PEOPLE and pair.games >= OFTEN_GAMES
                      and pair.games >= OFTEN_SHARE * fewest)
