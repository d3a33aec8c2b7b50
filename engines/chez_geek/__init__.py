"""Chez Geek: the shared-flat card game, deck as data (`deck.toml`), interrupt windows.

Modules: `deck` (data file, loading, validation), `effects` (one handler per effect keyword),
`rules` (rulings, state, phases and windows), `engine` (the contract), `bots`.
"""

from engines.chez_geek.bots import BOTS
from engines.chez_geek.engine import ChezGeekEngine
from engines.search import ExpertBot

ENGINE = ChezGeekEngine()
# Its view is too thin to rebuild a state from (pending effects live only in the state), so the
# expert samples with `determinize` when it plays a local seat (see engines.search).
ENGINE.bots = {**BOTS, "expert": ExpertBot(ENGINE, rollout="random")}

__all__ = ["ENGINE"]
