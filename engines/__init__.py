"""The rules of every game, reached through one registry.

Engines are pure: no I/O, no Textual, no networking. Everything else in the project (the host
session, the TUI, the bots' benchmarks) talks to a game only through the contract in
`engines.base.Engine`, so a new game plugs in by adding one line to `_MODULES`.
"""

from __future__ import annotations

import importlib

from engines.base import Bot, Engine, IllegalMove

__all__ = ["ENGINE_IDS", "Bot", "Engine", "IllegalMove", "get_engine"]

# Engine id -> module that defines `ENGINE`. Imported lazily so that starting the app does not
# pay for games nobody is playing.
_MODULES: dict[str, str] = {
    "schoene": "engines.schoene",
    "zwergenamulett": "engines.zwergenamulett",
    "skipbo_breakers": "engines.skipbo_breakers",
    "schoko": "engines.schoko",
    "chez_geek": "engines.chez_geek",
}

ENGINE_IDS: tuple[str, ...] = tuple(_MODULES)

_cache: dict[str, Engine] = {}


def get_engine(engine_id: str) -> Engine:
    """Return the (stateless, shared) engine for `engine_id`; ValueError names the known ids."""
    if engine_id not in _MODULES:
        known = ", ".join(ENGINE_IDS)
        raise ValueError(f"unknown game {engine_id!r}; known games: {known}")
    if engine_id not in _cache:
        _cache[engine_id] = importlib.import_module(_MODULES[engine_id]).ENGINE
    return _cache[engine_id]
