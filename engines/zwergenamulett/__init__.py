"""Das Zwergenamulett: a trick-taking memory game (rules in `rules`, bots in `bots`)."""

from engines.search import ExpertBot
from engines.zwergenamulett.bots import BOTS
from engines.zwergenamulett.rules import ZwergenamulettEngine, round_cutoff

ENGINE = ZwergenamulettEngine()
# The expert leaves "7 Zwerge" to the strong bot, whose memory of its own won tricks is what
# makes a claim true; its playouts are random (the strong bot's memory must follow real games
# only) and end with the round.
ENGINE.bots = {
    **BOTS,
    "expert": ExpertBot(
        ENGINE,
        rollout="random",
        defer=("claim_seven",),
        cutoff=round_cutoff,
    ),
}

__all__ = ["ENGINE"]
