"""End-of-game statistics, as Board Game Arena shows them under a finished game.

Each game knows what is worth counting in it (cards taken and the longest run in Schöne, the
largest group in Scho K.O., ...): its `Engine.statistics(game)` reads a finished game and gives
every seat the same short, ordered list of `Stat`s. They are computed from the game's record,
never kept beside it, so every game ever recorded shows them, and the words for them live
with the boards (`stats.<game>.<name>` in tui.i18n).

Statistics read only what everybody may know once a game is over: the public events of every
move and the spectator's view of any state (the end shows what was secret, such as Schöne's
chips). `Played` offers exactly those; a game's statistics never look inside a state.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from engines.base import Engine, Move, View

# How a statistic reads and adds up over games: a number of things ("count"), points of the
# game's own scoring ("points"), the most or largest of something in one game ("max": over
# many games the best of them counts, not their sum) and a share in whole percent ("percent").
KINDS = ("count", "points", "max", "percent")


@dataclass(frozen=True)
class Stat:
    """One number of one seat: `name` is the statistic's id within its game (its words are
    `stats.<game>.<name>`), `value` a whole number, `kind` one of KINDS."""

    name: str
    value: int
    kind: str = "count"

    def as_dict(self) -> dict[str, Any]:
        """Msgpack- and JSON-safe, for a script or the wire."""
        return {"name": self.name, "value": self.value, "kind": self.kind}


@dataclass(frozen=True)
class Played:
    """A finished game as statistics read it: `states[k]` is the table after `k` moves,
    `moves[k - 1]` the (seat, move) that made it and `events[k]` what that move showed
    everybody (`events[0]` is empty). The states are the engine's own: only `view` and
    `result` below look at them."""

    engine: Engine
    seats: int
    states: Sequence[Any]
    moves: Sequence[tuple[int, Move]]
    events: Sequence[list[dict[str, Any]]]

    def view(self, k: int = -1) -> View:
        """The spectator's view after `k` moves (the end by default)."""
        return self.engine.view(self.states[k], None)

    def result(self) -> dict[str, Any]:
        return self.engine.result(self.states[-1])

    def each(self, *kinds: str) -> Iterator[tuple[int, dict[str, Any]]]:
        """(k, event) for every event of the given kinds (all when none is named), `k` being
        the state the event's move led to, in the order they happened."""
        for k, events in enumerate(self.events):
            for event in events:
                if not kinds or event.get("kind") in kinds:
                    yield k, event

    def per_seat(self, kind: str, key: str = "seat") -> list[int]:
        """How many events of `kind` name each seat in `key`."""
        counts = [0] * self.seats
        for _, event in self.each(kind):
            seat = event.get(key)
            if type(seat) is int and 0 <= seat < self.seats:
                counts[seat] += 1
        return counts


def replay(engine: Engine, seats: int, seed: int, options: dict[str, Any] | None,
           moves: Sequence[tuple[int, Move]]) -> Played:
    """A game rebuilt from its record with the engine alone (net.records does the same through
    the host session, and builds `Played` from its own replay). IllegalMove for a move the
    rules refuse."""
    state = engine.new_game(seats, seed, options)
    states, events = [state], [[]]
    for seat, move in moves:
        after = engine.apply(state, seat, move)
        events.append(engine.events(state, seat, move, after))
        states.append(after)
        state = after
    return Played(engine, seats, states, [(s, m) for s, m in moves], events)


def statistics(game: Played) -> list[list[Stat]]:
    """Every seat's statistics of a finished game, by its engine, checked: the same names in
    the same order for each seat, whole numbers, known kinds. ValueError for a game that is
    not over: an unfinished game's secrets are still secret."""
    if not game.engine.is_over(game.states[-1]):
        raise ValueError("statistics are kept only of a finished game")
    found = game.engine.statistics(game)
    if len(found) != game.seats:
        raise ValueError(f"{game.engine.id} gave statistics for {len(found)} seats, "
                         f"not {game.seats}")
    names = [s.name for s in found[0]] if found else []
    for row in found:
        if [s.name for s in row] != names:
            raise ValueError(f"{game.engine.id} gave the seats different statistics")
        for stat in row:
            if type(stat.value) is not int or stat.kind not in KINDS:
                raise ValueError(f"{game.engine.id}: statistic {stat.name!r} is not a whole "
                                 f"number of a known kind")
    return found


def column(name: str, values: Sequence[int], kind: str = "count") -> list[Stat]:
    """One statistic for every seat, from a value per seat."""
    return [Stat(name, int(v), kind) for v in values]


def by_seat(*columns: list[Stat]) -> list[list[Stat]]:
    """Columns (one statistic, every seat) turned into rows (one seat, every statistic)."""
    return [list(row) for row in zip(*columns, strict=True)]


def percent(part: int, whole: int) -> int:
    """`part` of `whole` in whole percent, rounded half up; 0 of nothing."""
    return (200 * part + whole) // (2 * whole) if whole else 0
