"""Hand-built worst cases for `legal_moves`, one per game that has a known bad position (a
hand of 20 with four jokers facing a single, a full board). Random games rarely reach them, so
`python -m bench.engines` times these besides its random sample.

Each entry maps an engine id to a function returning (state, seat, what the position is).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

WorstCase = Callable[[], tuple[Any, int, str]]

WORST_CASES: dict[str, WorstCase] = {}
