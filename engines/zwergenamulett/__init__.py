"""Das Zwergenamulett: a trick-taking memory game (rules in `rules`, bots in `bots`)."""

from engines.zwergenamulett.bots import BOTS
from engines.zwergenamulett.rules import ZwergenamulettEngine

ENGINE = ZwergenamulettEngine()
ENGINE.bots = BOTS

__all__ = ["ENGINE"]
