"""Chez Geek: the shared-flat card game, deck as data (`deck.toml`), interrupt windows.

Modules: `deck` (data file, loading, validation), `effects` (one handler per effect keyword),
`rules` (rulings, state, phases and windows), `engine` (the contract), `rebuild` (a state
from a view, for search), `bots`, `expert` (how the expert bot of engines.search plays it).
"""

from engines.chez_geek.bots import BOTS, StrongBot
from engines.chez_geek.engine import ChezGeekEngine
from engines.chez_geek.expert import EXPERT_ANCHOR, turn_cutoff
from engines.search import ExpertBot

ENGINE = ChezGeekEngine()
# The expert samples states from its seat's view (ChezGeekEngine.from_view), and keeps to its
# guide's move unless its search finds one clearly better (EXPERT_ANCHOR); the guide is the keen
# strong bot (bots.SPOIL_FROM). What to throw away as the turn ends it leaves to the guide: its
# playouts are judged at the end of the turn, where a card kept or thrown away counts for
# nothing. Its playouts are random: the strong bot's cost 1.5 to 2 times as much an iteration
# and won no more (160 seeds, the strong playouts at 280 iterations a move and the random ones
# at 400 each won 0.294).
ENGINE.bots = {
    **BOTS,
    "expert": ExpertBot(
        ENGINE,
        rollout="random",
        cutoff=turn_cutoff,
        anchor=EXPERT_ANCHOR,
        guide=StrongBot(keen=True),
        defer=("discard",),
    ),
}

__all__ = ["ENGINE"]
