"""Puzzles mined from one small bot game on small budgets, shared by the puzzle tests of the
store, the command line and the app (mined once a test process)."""

from __future__ import annotations

from functools import cache

from net import records
from net.puzzles import mine
from net.puzzles.puzzle import Puzzle

GAME = "skipbo_breakers"  # its expert is the quickest: small budgets find puzzles in seconds
ITERATIONS = 200  # small: the tests' budget, not the shipped set's
SEED = 39_000


@cache
def bot_game() -> records.Replay:
    return records.Replay(mine.self_play(GAME, 2, "strong", SEED))


@cache
def mined() -> tuple[Puzzle, ...]:
    return tuple(mine.mine_replay(bot_game(), iterations=ITERATIONS, limit=2))
