"""How strong the expert is against the strong bots, on small fixed samples: one expert among
strong bots (bench.bots' measure, the seat rotating), at a small fixed iteration budget so the
figure is reproducible and quick. The real measure, at the app's budget and on samples big
enough to trust, is `python -m bench.bots` / `python -m bench.ladder`; these only catch a
change that makes the expert plainly weaker.
"""

from __future__ import annotations

from bench.bots import budgeted_expert, win_share
from engines import get_engine


def test_the_chez_geek_expert_wins_more_than_its_share_at_120_iterations() -> None:
    """40 fixed deals at four seats, 120 iterations a move: 13 won (0.325, fair 0.25; 12 at 60
    iterations), where the expert that judged its playouts a turn later and had no anchor won
    10 (and 5 at 60 iterations)."""
    eng = get_engine("chez_geek")
    with budgeted_expert(eng, 120, None) as (level, _):
        share = win_share(eng, level, "strong", 4, 40)
    assert share >= 0.3, f"the expert won {share:.3f} of the games"
