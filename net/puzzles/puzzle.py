"""One puzzle and the sets they come in.

A puzzle is a position as one seat saw it: the game, the seat, that seat's view and legal
moves exactly as the engine gave them (nothing more: no seed, no other hand, no move of the
record), the move or moves the expert found clearly best from that view, the expert's
numbers for the top moves, where it comes from (the source record's digest and the state
number) and a rating to start from. A set is a JSON file of puzzles; the package ships one
(`shipped.json` beside this module, made by `python -m bench.puzzles`), and a table adds its
own to its store (net.puzzles.book).
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from engines import ENGINE_IDS
from engines.base import Move, View
from engines.search import canonical

SHIPPED = Path(__file__).with_name("shipped.json")
SET_FORMAT = "tabletop-tui-puzzles"
SET_VERSION = 1


class PuzzleError(ValueError):
    """A puzzle set that cannot be read, with a sentence a player can read."""


@dataclass(frozen=True)
class Top:
    """One of the expert's top moves: its mean share of the win over the checks, and how
    often its searches tried it."""

    move: Move | None
    win: float
    visits: int


@dataclass(frozen=True)
class Puzzle:
    game: str
    seat: int
    view: View
    legal: list[Move]
    best: list[Move]
    top: list[Top]
    digest: str  # the source record's (net.puzzles.mine.record_digest)
    state: int  # the state number in that record: the moves made before it
    rating: float  # where the puzzle's rating starts
    source: str = "shipped"  # or "table": mined from a table's records
    tags: dict[str, Any] = field(default_factory=dict)

    @property
    def id(self) -> str:
        """One name per puzzle, whichever set holds it."""
        return f"{self.game}:{self.digest[:16]}:{self.state}:{self.seat}"

    def solves(self, move: Move | None) -> bool:
        """Whether `move` is one of the puzzle's best moves."""
        return move is not None and canonical(move) in {canonical(m) for m in self.best}

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["id"] = self.id
        return data

    @classmethod
    def from_json(cls, data: Any, name: str = "the puzzle set") -> Puzzle:
        """The puzzle `data` describes; PuzzleError saying what is wrong with it."""
        try:
            puzzle = cls(
                game=str(data["game"]), seat=int(data["seat"]), view=dict(data["view"]),
                legal=list(data["legal"]), best=list(data["best"]),
                top=[Top(t["move"], float(t["win"]), int(t["visits"])) for t in data["top"]],
                digest=str(data["digest"]), state=int(data["state"]),
                rating=float(data["rating"]), source=str(data.get("source", "shipped")),
                tags=dict(data.get("tags") or {}))
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise PuzzleError(f"{name} holds a broken puzzle ({exc})") from None
        if puzzle.game not in ENGINE_IDS:
            raise PuzzleError(f"{name} holds a puzzle of {puzzle.game!r}, a game this "
                              "tabletop-tui does not have")
        legal = {canonical(m) for m in puzzle.legal}
        if not puzzle.best or any(canonical(m) not in legal for m in puzzle.best):
            raise PuzzleError(f"{name}: puzzle {puzzle.id}'s best move is not legal in it")
        if puzzle.view.get("seat") != puzzle.seat or puzzle.view.get("game") != puzzle.game:
            raise PuzzleError(f"{name}: puzzle {puzzle.id}'s view is not its seat's")
        return puzzle


def dump_set(puzzles: list[Puzzle]) -> str:
    """A set's JSON text, one puzzle a line so that a change to a set reads as one."""
    lines = [json.dumps(p.to_json(), sort_keys=True, ensure_ascii=False) for p in puzzles]
    head = json.dumps({"format": SET_FORMAT, "version": SET_VERSION})
    return "{\"set\": " + head + ",\n\"puzzles\": [\n" + ",\n".join(lines) + "\n]}\n"


def parse_set(text: str, name: str = "the puzzle set") -> list[Puzzle]:
    try:
        data = json.loads(text)
    except ValueError:
        raise PuzzleError(f"{name} is not a puzzle set (it is no JSON)") from None
    head = data.get("set") if isinstance(data, dict) else None
    if not isinstance(head, dict) or head.get("format") != SET_FORMAT:
        raise PuzzleError(f"{name} is not a tabletop-tui puzzle set")
    if not isinstance(head.get("version"), int) or head["version"] > SET_VERSION:
        raise PuzzleError(f"{name} was written by a newer tabletop-tui: update to open it")
    items = data.get("puzzles")
    if not isinstance(items, list):
        raise PuzzleError(f"{name} holds no list of puzzles")
    return [Puzzle.from_json(item, name) for item in items]


def load_set(path: Path) -> list[Puzzle]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PuzzleError(f"cannot read {path}: {getattr(exc, 'strerror', None) or exc}") \
            from None
    return parse_set(text, path.name)


@cache
def _shipped() -> tuple[Puzzle, ...]:
    return tuple(load_set(SHIPPED))


def shipped(game: str | None = None) -> list[Puzzle]:
    """The set that ships with the package (one game's, or all)."""
    return [p for p in _shipped() if game is None or p.game == game]
