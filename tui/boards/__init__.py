"""Engine id -> the module that draws that game. Each module defines `Board` (a subclass of
`tui.boards.base.GameBoard`) and `describe(event, names, lang) -> str`, and may define
`quiet(event) -> bool` for events the log leaves out. Imported lazily, so the menu opens
without loading any game."""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import Any

from tui.boards.base import GameBoard

_MODULES: dict[str, str] = {
    "schoene": "tui.boards.schoene",
    "zwergenamulett": "tui.boards.zwergenamulett",
    "skipbo_breakers": "tui.boards.skipbo_breakers",
    "schoko": "tui.boards.schoko",
    "chez_geek": "tui.boards.chez_geek",
}


def has_board(engine_id: str) -> bool:
    return engine_id in _MODULES


def board_module(engine_id: str) -> ModuleType:
    if engine_id not in _MODULES:
        raise ValueError(f"no board for game {engine_id!r}")
    return importlib.import_module(_MODULES[engine_id])


def board_class(engine_id: str) -> type[GameBoard]:
    board: type[GameBoard] = board_module(engine_id).Board
    return board


def describe(engine_id: str, event: dict[str, Any], names: list[str], lang: str) -> str:
    """One event as a sentence for the log."""
    text: str = board_module(engine_id).describe(event, names, lang)
    return text


def logged(engine_id: str, events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The events that get a line in the log (a board's `quiet` ones do not)."""
    quiet = getattr(board_module(engine_id), "quiet", None)
    return events if quiet is None else [e for e in events if not quiet(e)]
