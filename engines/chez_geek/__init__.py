"""Chez Geek: the shared-flat card game, deck as data (`deck.toml`), interrupt windows.

Modules: `deck` (data file, loading, validation), `effects` (one handler per effect keyword),
`rules` (rulings, state, phases and windows), `engine` (the contract), `bots`.
"""

from engines.chez_geek.bots import BOTS
from engines.chez_geek.engine import ChezGeekEngine

ENGINE = ChezGeekEngine()
ENGINE.bots = BOTS

__all__ = ["ENGINE"]
