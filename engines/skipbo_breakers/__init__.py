"""Skip-Bo Breakers: a tile climbing game (tiles, rulings and set rules in `rules`, set
generation in `sets`, the engine in `engine`, bots in `bots`)."""

from engines.search import ExpertBot
from engines.skipbo_breakers.bots import BOTS, expert_candidates
from engines.skipbo_breakers.engine import SkipBoBreakersEngine, hand_cutoff

ENGINE = SkipBoBreakersEngine()
# The expert's budget a decision, in iterations (why not seconds: engines.search).
EXPERT_ITERATIONS = 200
# The expert searches the strong bot's cheapest few plays (and passing), each played out by
# strong bots to the end of the hand: random playouts say too little about who goes out
# first. Its tree is the root alone (max_depth=1): deeper, every opponent's first reply would
# be tried one random legal play at a time, which measured far weaker (bench.bots).
ENGINE.bots = {
    **BOTS,
    "expert": ExpertBot(
        ENGINE,
        iterations=EXPERT_ITERATIONS,
        seconds=None,
        rollout="strong",
        candidates=expert_candidates,
        cutoff=hand_cutoff,
        max_depth=1,
    ),
}

__all__ = ["ENGINE"]
