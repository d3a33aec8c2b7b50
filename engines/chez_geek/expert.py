"""How the expert bot (engines.search) plays Chez Geek: its playouts stop when the turn ends
and the table is judged by each player's way to their goal.

Whole games of random play last hundreds of turns and end mostly by chance, which tells the
search little; at the end of the turn, slack against goal tells it more. The expert samples
with the engine's `from_view` (engines.chez_geek.rebuild), so it plays alike at a local seat
and a networked one.
"""

from __future__ import annotations

import math

from engines.chez_geek.rules import CState

# Turns a playout runs before the table is judged, and how sharply a lead in the way to the
# goal turns into a win chance (a softmax over the shares of the goal reached). One turn:
# judged at the end of the turn it starts in, a playout costs half as much as over two and
# its play blurs the judgement less (measured with random playouts, stronger at the same
# iterations too).
# (A judgement fitted to who won 12,000 games of strong bots, softmax of 5.45 x the share of
# the goal less 1.55 x the part of a round until the seat's turn, fits those games better but
# won no more: 0.294 of 160 seeds at 400 iterations, as this one.)
EXPERT_TURNS = 1
EXPERT_SHARPNESS = 6.0
# How much better (in mean share of the win) a move must look than its guide's for the
# expert to play it instead (engines.search.anchored): measured stronger than the search's
# pick alone, which among near-equal moves follows the noise of its samples.
EXPERT_ANCHOR = 0.02


def turn_cutoff(start: CState, state: CState, n: int) -> list[float] | None:
    """engines.search.Cutoff: each seat's win chance judged by slack against goal."""
    if state.over or state.turn_no - start.turn_no < EXPERT_TURNS:
        return None
    reached = [max(0.0, min(state.slack(p) / state.goal(p), 1.0)) for p in range(n)]
    weights = [math.exp(EXPERT_SHARPNESS * r) for r in reached]
    total = sum(weights)
    return [w / total for w in weights]
