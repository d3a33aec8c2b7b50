"""Chez Geek: the shared-flat card game, deck as data (`deck.toml`), interrupt windows.

Modules: `deck` (data file, loading, validation), `effects` (one handler per effect keyword),
`rules` (rulings, state, phases and windows), `engine` (the contract), `rebuild` (a state
from a view, for search), `bots`, `expert` (how the expert bot of engines.search plays it).
"""

from engines.chez_geek.bots import BOTS, PlayoutBot, StrongBot
from engines.chez_geek.engine import ChezGeekEngine
from engines.chez_geek.expert import EXPERT_ANCHOR, turn_cutoff
from engines.search import ExpertBot

ENGINE = ChezGeekEngine()
# The expert's budget a decision, in iterations (why not seconds: engines.search).
EXPERT_ITERATIONS = 1200
# The expert samples states from its seat's view (ChezGeekEngine.from_view), and keeps to its
# guide's move unless its search finds one clearly better (EXPERT_ANCHOR); the guide is the keen
# strong bot (bots.SPOIL_FROM). What to throw away as the turn ends it leaves to the guide: its
# playouts are judged at the end of the turn, where a card kept or thrown away counts for
# nothing. Its playouts are the strong bot's (bots.PlayoutBot): random ones cancel and buy at
# random, so they could not tell a play the table would stop from one it would let pass.
# Measured at the app's 0.8 s a decision, one expert among three strong bots, the same 400
# seeds (0-399): strong playouts 0.415 (1.66x the fair share), random ones 0.370, the guide
# alone 0.335; strong playouts cost about a quarter of the iterations (2,970 a decision, 3,790).
# At the fixed 1,200 iterations rated games play: 0.430 +- 0.070 (1.72x) over seeds 0-199.
ENGINE.bots = {
    **BOTS,
    "expert": ExpertBot(
        ENGINE,
        iterations=EXPERT_ITERATIONS,
        seconds=None,
        rollout=PlayoutBot(),
        cutoff=turn_cutoff,
        anchor=EXPERT_ANCHOR,
        guide=StrongBot(keen=True),
        defer=("discard",),
    ),
}

__all__ = ["ENGINE"]
