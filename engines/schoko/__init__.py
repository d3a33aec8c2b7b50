"""Scho K.O.: two players lay chocolate tiles (rules in `rules`, the table in `geometry`, the
game in `engine`, bots in `bots`)."""

from engines.schoko.bots import BOTS
from engines.schoko.engine import SchokoEngine

ENGINE = SchokoEngine()
ENGINE.bots = BOTS

__all__ = ["ENGINE"]
