"""Skip-Bo Breakers: a tile climbing game (tiles, rulings and set rules in `rules`, set
generation in `sets`, the engine in `engine`, bots in `bots`)."""

from engines.skipbo_breakers.bots import BOTS
from engines.skipbo_breakers.engine import SkipBoBreakersEngine

ENGINE = SkipBoBreakersEngine()
ENGINE.bots = BOTS

__all__ = ["ENGINE"]
