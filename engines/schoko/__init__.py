"""Scho K.O.: two players lay chocolate tiles (rules in `rules`, the table in `geometry`, the
game in `engine`, bots in `bots`)."""

from engines.schoko.bots import BOTS, GreedyBot, expert_candidates
from engines.schoko.engine import SchokoEngine, group_cutoff
from engines.search import ExpertBot

ENGINE = SchokoEngine()
# The expert's budget a decision, in iterations (why not seconds: engines.search).
EXPERT_ITERATIONS = 300
# The expert searches the strong bot's best few placements, each answered by greedy play and
# judged a few tiles on.
ENGINE.bots = {
    **BOTS,
    "expert": ExpertBot(
        ENGINE,
        iterations=EXPERT_ITERATIONS,
        seconds=None,
        rollout=GreedyBot(ENGINE),
        candidates=expert_candidates,
        cutoff=group_cutoff,
        max_depth=1,
    ),
}

__all__ = ["ENGINE"]
