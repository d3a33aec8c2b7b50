"""Hand-built worst cases for `legal_moves`, one per game that has a known bad position (a
hand of 20 with four jokers facing a single, a full board). Random games rarely reach them, so
`python -m bench.engines` times these besides its random sample.

Each entry maps an engine id to a function returning (state, seat, what the position is).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

WorstCase = Callable[[], tuple[Any, int, str]]


def skipbo_lead() -> tuple[Any, int, str]:
    """Skip-Bo Breakers: leading from 20 tiles with 4 jokers. Triples are the worst: a joker
    may stand in for a number of a kept Breaker, so each triple multiplies the plays."""
    from collections import Counter

    from engines import get_engine
    from engines.skipbo_breakers.rules import DECK

    hand = [5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9, 9, 9, 10, "SB", "SB", "SB", "SB"]
    stack = hand + list((Counter(DECK) - Counter(hand)).elements())
    state = get_engine("skipbo_breakers").new_game(3, 0, {"stack": stack, "first": 0})
    return state, 0, "lead, 20 tiles with 4 jokers"


def schoko_full_board() -> tuple[Any, int, str]:
    """Scho K.O. late in a game (24+ tiles down) with Smartie tiles of every mix in hand, so
    both frontiers count: seat 0 starts with w3s, w2s and w1s and keeps its Smartie tiles while
    any other tile fits; of 10 such seeded random games, the position with the most moves."""
    import random
    from collections import Counter

    from engines import get_engine
    from engines.schoko.tiles import DECK

    eng = get_engine("schoko")
    hand = ["w3s", "w2s", "w1s", "w2"]
    best: tuple[int, Any] = (-1, None)
    for seed in range(10):
        rng = random.Random(seed)
        rest = list((Counter(DECK) - Counter(hand)).elements())
        rng.shuffle(rest)
        state = eng.new_game(2, seed, {"stack": hand + rest, "first": 0})
        while not eng.is_over(state):
            moves = eng.legal_moves(state, state.turn)
            if state.turn == 0:
                if len(eng.view(state, None)["tiles"]) >= 24 and len(moves) > best[0]:
                    best = (len(moves), state)
                moves = [m for m in moves if not m.get("tile", "").endswith("s")] or moves
            state = eng.apply(state, state.turn, rng.choice(moves))
    return best[1], 0, "24+ tiles down, Smartie tiles of every mix in hand"


WORST_CASES: dict[str, WorstCase] = {"skipbo_breakers": skipbo_lead, "schoko": schoko_full_board}
