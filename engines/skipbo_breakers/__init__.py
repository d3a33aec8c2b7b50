"""Skip-Bo Breakers: a tile climbing game (tiles, rulings and set rules in `rules`, set
generation in `sets`, the engine in `engine`, bots in `bots`)."""

from engines.search import ExpertBot
from engines.skipbo_breakers.bots import BOTS
from engines.skipbo_breakers.engine import SkipBoBreakersEngine, hand_cutoff

ENGINE = SkipBoBreakersEngine()
ENGINE.bots = {**BOTS, "expert": ExpertBot(ENGINE, rollout="random", cutoff=hand_cutoff)}

__all__ = ["ENGINE"]
