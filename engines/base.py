"""The engine contract (see docs/ARCHITECTURE.md) and the helpers every game shares.

A game subclasses `Engine`. States are the engine's own objects: callers never look inside
them, they only hand them back to the engine, which is what lets each game pick the fastest
representation it likes (slots classes with an explicit `clone`, never `copy.deepcopy`).
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections import Counter
from collections.abc import Hashable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

if TYPE_CHECKING:
    from engines.stats import Played, Stat

Move = dict[str, Any]
View = dict[str, Any]

# Options that fix chance for tests and puzzles. They are accepted by any engine that lists
# them in `test_options`, and never shown in a lobby.
TEST_OPTIONS = ("stack", "first", "dice", "jobs")


class IllegalMove(Exception):
    """A move the rules forbid; `reason` is a sentence a player can read."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class Engine(ABC):
    """One game's rules. Stateless: every method takes and returns states."""

    id: str
    title: str
    min_players: int
    max_players: int
    # Lobby options, {name: default}. Values are bool or int; the default's type is the type.
    options: dict[str, Any]
    # Lobby options that mean something only at some table sizes, {name: (fewest, most)}: a
    # lobby offers them only there (the rules ignore them elsewhere).
    option_seats: ClassVar[dict[str, tuple[int, int]]] = {}
    # Which of TEST_OPTIONS this game understands.
    test_options: tuple[str, ...] = ()
    # Bot levels by name; at least "random" and "strong".
    bots: dict[str, Bot]
    # For the clocks (net.table.clocks): the move types that let a seat's turn go by, tried
    # in this order when its time runs out and the table skips it; empty: skipping means
    # nothing in this game, so the bot moves for a seat out of time.
    skip_moves: tuple[str, ...] = ()
    # The game's pace, which sizes its clocks and the lobby's "about N minutes": the turns a
    # seat takes in a game, by the number of seats (strong bots' games, measured with
    # `python -m bench.clocks`), and the seconds a person thinks about a turn at a normal pace.
    clock_turns: ClassVar[dict[int, int]] = {}
    think_seconds: float = 10.0

    def offers(self, option: str, seats: int) -> bool:
        """Whether a lobby for `seats` seats offers `option` (`option_seats`): Chez Geek's deal
        for two is no choice at a table of four."""
        fewest, most = self.option_seats.get(option, (0, self.max_players))
        return fewest <= seats <= most


    # -- the contract ------------------------------------------------------------------------
    @abstractmethod
    def new_game(self, num_players: int, seed: int, options: dict[str, Any] | None = None) -> Any:
        """A fresh game. Raises ValueError for a bad player count or bad options."""

    @abstractmethod
    def to_act(self, state: Any) -> list[int]:
        """Seats that may move now (several in an interrupt window); [] once the game is over."""

    @abstractmethod
    def legal_moves(self, state: Any, seat: int) -> list[Move]:
        """Every move `seat` may make now; [] if it may not move."""

    @abstractmethod
    def apply(self, state: Any, seat: int, move: Move) -> Any:
        """A new state after `move`; raises IllegalMove and leaves `state` untouched."""

    @abstractmethod
    def view(self, state: Any, seat: int | None) -> View:
        """What `seat` may know (None: a spectator). Always has the keys
        game, seat, turn (whose regular turn it is, or None), to_act and over."""

    @abstractmethod
    def is_over(self, state: Any) -> bool: ...

    @abstractmethod
    def result(self, state: Any) -> dict[str, Any]:
        """{"scores": [...], "winners": [...], ...game-specific details}."""

    @abstractmethod
    def events(self, before: Any, seat: int, move: Move, after: Any) -> list[dict[str, Any]]:
        """What everybody at the table saw happen, as data: each event is a dict with a
        "kind" (e.g. "pay") and public fields only. The TUI turns them into sentences."""

    @abstractmethod
    def determinize(self, state: Any, seat: int, rng: random.Random) -> Any:
        """A state `seat` cannot tell apart from `state`: hidden cards re-dealt at random."""

    # -- how players placed: the results list and the ratings read it --------------------------
    def standing(self, result: dict[str, Any], seat: int) -> float:
        """How well `seat` did, higher is better: what orders the players after the winners.
        The score, unless a game measures players otherwise (lower points win, or each seat
        has a goal of its own)."""
        return float(result["scores"][seat])

    def places(self, result: dict[str, Any]) -> list[int]:
        """Each seat's place, 1 for the winners: after them the others by `standing`, equal
        standings sharing a place (1, 1, 3, ...)."""
        winners = set(result["winners"])
        seats = range(len(result["scores"]))
        key = {s: (1, 0.0) if s in winners else (0, self.standing(result, s)) for s in seats}
        return [1 + sum(1 for o in seats if key[o] > key[s]) for s in seats]

    # -- beyond the contract: for search bots ------------------------------------------------
    def turn(self, state: Any) -> int | None:
        """The seat whose regular turn it is (the view's "turn"; None once over), without
        listing every seat that may interrupt. Engines answer it from their state; this
        fallback builds a spectator's view."""
        return self.view(state, None)["turn"]

    # -- after the game ----------------------------------------------------------------------
    def statistics(self, game: Played) -> list[list[Stat]]:
        """Each seat's end-of-game statistics (see engines.stats), read from a finished game's
        public events and views only. A game that counts nothing gives every seat none."""
        return [[] for _ in range(game.seats)]

    # -- shared helpers ----------------------------------------------------------------------
    def check_players(self, num_players: int) -> None:
        if not isinstance(num_players, int) or not (
            self.min_players <= num_players <= self.max_players
        ):
            raise ValueError(
                f"{self.title} takes {self.min_players} to {self.max_players} players, "
                f"not {num_players}"
            )

    def resolve_options(self, options: dict[str, Any] | None) -> dict[str, Any]:
        """Defaults filled in, every value checked; ValueError says which option is wrong."""
        resolved = dict(self.options)
        for name, value in (options or {}).items():
            if name in TEST_OPTIONS:
                if name not in self.test_options:
                    raise ValueError(f"{self.title} has no {name!r} option")
                resolved[name] = value
                continue
            if name not in self.options:
                known = ", ".join(self.options) or "none"
                raise ValueError(f"{self.title} has no option {name!r} (options: {known})")
            default = self.options[name]
            if type(value) is not type(default):
                kind = type(default).__name__
                raise ValueError(f"option {name!r} takes a {kind}, not {value!r}")
            resolved[name] = value
        return resolved


class OneSeatAtATime(Engine):
    """For games where exactly one seat moves at a time and `state.turn` says which (None once
    the game is over): the three reading calls, written once."""

    def to_act(self, state: Any) -> list[int]:
        return [] if state.turn is None else [state.turn]

    def is_over(self, state: Any) -> bool:
        return state.turn is None

    def turn(self, state: Any) -> int | None:
        turn: int | None = state.turn
        return turn


class Bot(Protocol):
    """A player made of code. It decides from exactly what its seat is shown (the view and the
    legal moves), so it can play a local seat from the engine's state and a remote seat from
    the frames a peer receives alike, and can never peek at hidden state. Either call returns
    None only when every legal move is optional (an interrupt it lets pass)."""

    name: str

    def decide(self, view: View, legal: list[Move], rng: random.Random) -> Move | None: ...

    def choose(self, eng: Engine, state: Any, seat: int, rng: random.Random) -> Move | None: ...


class ViewBot:
    """Base of every bot: `choose` shows the bot its seat's view and legal moves; subclasses
    write `decide`. A bot may override `choose` with a faster path that gives the same answer
    (random playouts call it hundreds of thousands of times)."""

    name = "bot"

    def decide(self, view: View, legal: list[Move], rng: random.Random) -> Move | None:
        raise NotImplementedError

    def choose(self, eng: Engine, state: Any, seat: int, rng: random.Random) -> Move | None:
        return self.decide(eng.view(state, seat), eng.legal_moves(state, seat), rng)


class RandomBot(ViewBot):
    """Picks uniformly among the legal moves: the floor every other bot must beat."""

    name = "random"

    def decide(self, view: View, legal: list[Move], rng: random.Random) -> Move | None:
        return rng.choice(legal) if legal else None

    def choose(self, eng: Engine, state: Any, seat: int, rng: random.Random) -> Move | None:
        legal = eng.legal_moves(state, seat)
        return rng.choice(legal) if legal else None


def check_stack(stack: Any, deck: Sequence[Hashable], what: str = "stack") -> list[Any]:
    """Validate `options["stack"]`: exactly the game's deck, in some order."""
    if not isinstance(stack, list | tuple):
        raise ValueError(f"{what} must be a list of card ids")
    try:
        have = Counter(stack)
    except TypeError:  # an unhashable entry (a list, a map) is no card id
        raise ValueError(f"{what} must hold card ids (numbers or names) only") from None
    want = Counter(deck)
    if have != want:
        extra = sorted(map(str, (have - want).elements()))
        missing = sorted(map(str, (want - have).elements()))
        parts = [f"{what} must hold the {len(deck)} cards of the game exactly once each"]
        if extra:
            parts.append(f"unknown or extra: {', '.join(extra[:8])}")
        if missing:
            parts.append(f"missing: {', '.join(missing[:8])}")
        raise ValueError("; ".join(parts))
    return list(stack)


def check_seat(num_players: int, seat: Any) -> None:
    """IllegalMove unless `seat` is a seat at this table."""
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < num_players:
        raise IllegalMove(f"There is no seat {seat!r} at this table")


def check_viewer(num_players: int, seat: Any) -> None:
    """ValueError unless `seat` is a seat at this table or None (a spectator): a view for a
    wrong seat number must not quietly show some other seat's secrets."""
    if seat is not None and (type(seat) is not int or not 0 <= seat < num_players):
        raise ValueError(f"there is no seat {seat!r} at this table to view it from")


def move_type(move: Any) -> str:
    """The move's type, or IllegalMove for anything that is not a move at all."""
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        raise IllegalMove("A move must be a map with a 'type'")
    return move["type"]


def unseen(deck: Sequence[Hashable], *seen: Sequence[Hashable]) -> list[Any]:
    """The cards of `deck` that are in none of the `seen` piles (a multiset difference, in deck
    order): what a seat has not seen, for rebuilding a state from a view (`from_view`)."""
    left = Counter(deck)
    for pile in seen:
        left.subtract(pile)
    if any(count < 0 for count in left.values()):
        raise ValueError("a view shows cards the deck does not hold")
    return list(left.elements())
