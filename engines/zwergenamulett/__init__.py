"""Das Zwergenamulett: a trick-taking memory game (rules in `rules`, bots in `bots`)."""

from engines.search import ExpertBot
from engines.zwergenamulett.bots import BOTS, ExpertRecall, PlayoutBot
from engines.zwergenamulett.rules import ZwergenamulettEngine, round_cutoff

ENGINE = ZwergenamulettEngine()
# The expert's budget a decision, in iterations (why not seconds: engines.search).
EXPERT_ITERATIONS = 3000
# The expert remembers every trick it saw (ExpertRecall: the won piles are face down, so the
# view alone forgets them) and leaves "7 Zwerge" to the strong bot, reading that memory. Its
# playouts are PlayoutBot's, a memoryless sketch of sensible play (the strong bot's memory
# must follow real games only; random playouts measured weaker), and end with the round.
ENGINE.bots = {
    **BOTS,
    "expert": ExpertBot(
        ENGINE,
        iterations=EXPERT_ITERATIONS,
        seconds=None,
        rollout=PlayoutBot(ENGINE),
        defer=("claim_seven",),
        cutoff=round_cutoff,
        recall=ExpertRecall(),
    ),
}

__all__ = ["ENGINE"]
