"""Benchmarks that print figures (never assert): engine speed and bot strength.

Run from the project root: `python -m bench.engines`, `python -m bench.bots --games 500`.
Both reach every game only through the engine contract, so a new engine is measured as soon as
it is registered.
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from typing import Any

from engines import ENGINE_IDS, get_engine
from engines.base import Engine, Move


def engines(ids: Sequence[str] = ENGINE_IDS) -> Iterator[Engine]:
    """The registered engines that can be imported now; a note for each that cannot."""
    for engine_id in ids:
        try:
            yield get_engine(engine_id)
        except ModuleNotFoundError as exc:
            print(f"{engine_id}: skipped, not importable yet ({exc})")


def table_size(eng: Engine, players: int | None) -> int:
    """`players` if given, else four (or what the game allows nearest to four)."""
    return min(max(players or 4, eng.min_players), eng.max_players)


def bot_move(
    eng: Engine, state: Any, levels: Sequence[str], rng: random.Random
) -> tuple[int, Move]:
    """The next bot move as the host session makes it: the first seat in `to_act` whose bot
    wants to move (a bot may let an optional interrupt pass)."""
    for seat in eng.to_act(state):
        move = eng.bots[levels[seat]].choose(eng, state, seat, rng)
        if move is not None:
            return seat, move
    raise RuntimeError(f"{eng.id}: every bot passed, nobody moved")


def print_table(headers: Sequence[str], rows: Sequence[Sequence[Any]]) -> None:
    """Columns padded to fit, numbers right-aligned."""
    cells = [[str(h) for h in headers], *[[_cell(v) for v in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row: Sequence[str], raw: Sequence[Any]) -> str:
        return "  ".join(
            c.rjust(w) if isinstance(v, int | float) else c.ljust(w)
            for c, w, v in zip(row, widths, raw, strict=True)
        )

    print(line(cells[0], headers))
    print("  ".join("-" * w for w in widths))
    for row, raw in zip(cells[1:], rows, strict=True):
        print(line(row, raw))


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:,.1f}" if value >= 100 else f"{value:.2f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)
